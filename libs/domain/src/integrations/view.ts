import type { IntegrationRecord } from '@workcell/db';
import { DomainError } from '../kernel/errors.js';

/** An integration as the API shows it: installation and health, never a secret (registry `Integration`). */
export interface IntegrationView {
  readonly id: string;
  readonly provider: 'service-account' | 'calendar-feed';
  readonly name: string;
  readonly status: 'active' | 'error' | 'disabled';
  readonly installedAt: string;
  readonly lastSyncAt: string | null;
  readonly lastError: string | null;
}

/**
 * Health: a disabled service account is `disabled`; one whose latest finished webhook delivery attempt failed, or
 * whose subscription was disabled because the receiver is gone, is `error` with the failure class (and HTTP status)
 * as `lastError`; otherwise `active`. A later successful delivery clears the error.
 */
export function integrationView(row: IntegrationRecord): IntegrationView {
  const failed = row.lastDeliveryStatus === 'failed';
  const lastError = failed
    ? `the latest webhook delivery failed: ${row.lastFailureReason ?? 'unknown'}${row.lastResponseStatusCode === null ? '' : ` (HTTP ${row.lastResponseStatusCode})`}`
    : row.receiverGone
      ? 'a webhook subscription was disabled: the receiver is gone'
      : null;
  return {
    id: row.id,
    provider: row.provider,
    name: row.name,
    status: row.accountStatus === 'disabled' ? 'disabled' : lastError !== null ? 'error' : 'active',
    installedAt: row.installedAt.toISOString(),
    lastSyncAt: row.lastSyncAt?.toISOString() ?? null,
    lastError,
  };
}

export const integrationNotFound = () => new DomainError('not_found', 'integration not found');
