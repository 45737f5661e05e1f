import type { AppConfig } from '@workcell/config';
import type { WebhookDeliveryRecord, WebhookRecord } from '@workcell/db';
import { WEBHOOK_DISABLED_REASONS, WEBHOOK_FAILURE_REASONS } from '@workcell/registry';
import { EVENT_CATALOG } from '../events/catalog.js';
import { versionOf } from '../kernel/cas.js';
import { DomainError, type FieldIssue } from '../kernel/errors.js';
import type { Versioned } from '../kernel/versioned.js';
import { validateTargetUrl } from './target-url.js';
import { type BaseView, withBaseFields } from '../kernel/base-view.js';

/**
 * Signed v2 webhook subscriptions (contract 6). Decisions (docs/webhooks.md "Webhooks"):
 * - `eventTypes` names event types of the catalog's `webhooks` channel, or `*` for all of them; anything else is
 *   400 with a pointer per entry. Duplicates are folded. What a subscription receives is further narrowed at
 *   delivery time to what its owner credential may read then.
 * - A subscription belongs to the credential that created it (access.ts): only it reads, changes or removes the
 *   subscription and reads its deliveries; a workspace administrator sees metadata and may only disable.
 * - Webhooks are no resource-grant type: a service account needs only the scopes.
 * - The inputs are the registry's WebhookCreate and WebhookUpdate (one source for the OpenAPI document and this
 *   validation); the procedures add what a schema cannot state (the target URL's host, the catalog's event types).
 */

export const WILDCARD = '*';
const WEBHOOK_EVENT_TYPES: ReadonlySet<string> = new Set(EVENT_CATALOG.filter((s) => s.channels.includes('webhooks')).map((s) => s.type));

export function webhookEventTypes(types: readonly string[], pointer = '/eventTypes'): string[] {
  const issues: FieldIssue[] = [];
  types.forEach((type, i) => {
    if (type !== WILDCARD && !WEBHOOK_EVENT_TYPES.has(type))
      issues.push({ pointer: `${pointer}/${i}`, message: `unknown event type ${JSON.stringify(type)} (see GET /v1/event-catalog, channel webhooks)` });
  });
  if (issues.length > 0) throw new DomainError('validation_failed', 'the event types are not valid', issues);
  return [...new Set(types)];
}

export function webhookUrl(raw: string, config: AppConfig): string {
  return validateTargetUrl(raw, config);
}

/** Blank means none, like null. */
export function webhookDescription(value: string | null | undefined): string | null | undefined {
  if (value === undefined || value === null) return value;
  return value.trim() === '' ? null : value.trim();
}

export type WebhookDisabledReasonView = (typeof WEBHOOK_DISABLED_REASONS)[number];
export type WebhookFailureReason = (typeof WEBHOOK_FAILURE_REASONS)[number];

export interface WebhookView extends BaseView {
  readonly url: string;
  readonly description: string | null;
  readonly eventTypes: readonly string[];
  readonly status: 'active' | 'disabled';
  readonly disabledReason: WebhookDisabledReasonView | null;
  readonly disabledAt: string | null;
  readonly failingSince: string | null;
  readonly previousSecretExpiresAt: string | null;
  readonly signatureVersion: 'v2';
  readonly version: string;
}

const DISABLED_REASONS: ReadonlySet<string> = new Set(WEBHOOK_DISABLED_REASONS);

export function webhookView(row: WebhookRecord, now: Date): WebhookView {
  const active = row.status === 'active';
  return withBaseFields(row, {
    url: row.url,
    description: row.description,
    eventTypes: row.eventTypes,
    status: active ? 'active' : 'disabled',
    // A row disabled before reasons were recorded was disabled by a PATCH (the migration backfills `owner`).
    disabledReason: active ? null : row.disabledReason !== null && DISABLED_REASONS.has(row.disabledReason) ? (row.disabledReason as WebhookDisabledReasonView) : 'owner',
    disabledAt: active ? null : (row.disabledAt ?? row.updatedAt).toISOString(),
    failingSince: row.failingSince?.toISOString() ?? null,
    // Past its expiry the previous secret signs nothing: the field says so.
    previousSecretExpiresAt: row.previousSecretExpiresAt !== null && row.previousSecretExpiresAt > now ? row.previousSecretExpiresAt.toISOString() : null,
    signatureVersion: 'v2',
    version: versionOf(row.revision),
  });
}

export function versionedWebhook(row: WebhookRecord, now: Date): Versioned<WebhookView> {
  return { resource: webhookView(row, now), revision: row.revision };
}

export const webhookNotFound = (): DomainError => new DomainError('not_found', 'webhook not found');

export interface WebhookDeliveryView {
  readonly id: string;
  readonly webhookId: string;
  readonly eventId: string;
  readonly eventType: string;
  readonly status: 'pending' | 'succeeded' | 'failed';
  readonly attempts: number;
  readonly responseStatus: number | null;
  readonly failureReason: WebhookFailureReason | null;
  readonly failureDetail: string | null;
  readonly nextAttemptAt: string | null;
  readonly request: { readonly headers: Readonly<Record<string, string>> } | null;
  readonly response: { readonly headers: Readonly<Record<string, string>>; readonly body: string } | null;
  readonly createdAt: string;
  readonly lastAttemptAt: string | null;
}

const FAILURE_REASONS: ReadonlySet<string> = new Set(WEBHOOK_FAILURE_REASONS);

function headersOf(value: unknown): Record<string, string> | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, string>) : null;
}

export function webhookDeliveryView(row: WebhookDeliveryRecord, now: Date): WebhookDeliveryView {
  // `attempt` counts attempts started: one in flight (leased, not yet recorded) has not been made yet as far as the
  // history goes, and the row is due again only when its lease ends.
  const inFlight = row.status === 'pending' && row.leaseUntil !== null && row.leaseUntil > now;
  const attempts = inFlight ? row.attempt - 1 : row.attempt;
  const failed = row.status !== 'succeeded' && row.error !== null;
  const requestHeaders = headersOf(row.requestHeaders);
  const responseHeaders = headersOf(row.responseHeaders);
  return {
    id: row.id,
    webhookId: row.subscriptionId,
    eventId: row.eventId,
    eventType: row.eventType,
    status: row.status,
    attempts,
    responseStatus: row.responseStatusCode,
    // Rows failed before reasons were recorded carry only the free text.
    failureReason: failed
      ? row.failureReason !== null && FAILURE_REASONS.has(row.failureReason)
        ? (row.failureReason as WebhookFailureReason)
        : row.responseStatusCode !== null
          ? 'http_status'
          : 'network'
      : null,
    failureDetail: failed ? row.error : null,
    nextAttemptAt: row.status === 'pending' && !inFlight ? (row.nextAttemptAt?.toISOString() ?? null) : null,
    request: requestHeaders === null ? null : { headers: requestHeaders },
    response: responseHeaders === null ? null : { headers: responseHeaders, body: row.responseBody ?? '' },
    createdAt: row.createdAt.toISOString(),
    // A delivery row changes only when an attempt is recorded.
    lastAttemptAt: attempts > 0 ? row.updatedAt.toISOString() : null,
  };
}
