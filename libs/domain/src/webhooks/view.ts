import { z } from 'zod';
import type { WebhookDeliveryRecord, WebhookRecord } from '@workcell/db';
import { EVENT_CATALOG } from '../events/catalog.js';
import { versionOf } from '../kernel/cas.js';
import { DomainError, type FieldIssue } from '../kernel/errors.js';
import type { Versioned } from '../kernel/versioned.js';

/**
 * Signed v2 webhook subscriptions (contract 6). Decisions (README "Webhooks"):
 * - `eventTypes` names event types of the catalog's `webhooks` channel, or `*` for all of them; anything else is
 *   400 with a pointer per entry. Duplicates are folded. What a subscription receives is further narrowed at
 *   delivery time to what its owner credential may read then.
 * - Subscriptions are readable by every webhooks:read credential of the workspace (never the secret); delivery
 *   history only by the exact credential that created the subscription (anyone else: 404).
 * - Webhooks are no resource-grant type: a service account needs only the scopes.
 */

export const WILDCARD = '*';
const WEBHOOK_EVENT_TYPES: ReadonlySet<string> = new Set(EVENT_CATALOG.filter((s) => s.channels.includes('webhooks')).map((s) => s.type));

export function webhookEventTypes(types: readonly string[], pointer = '/eventTypes'): string[] {
  const issues: FieldIssue[] = [];
  types.forEach((type, i) => {
    if (type !== WILDCARD && !WEBHOOK_EVENT_TYPES.has(type)) issues.push({ pointer: `${pointer}/${i}`, message: `unknown event type ${JSON.stringify(type)} (see GET /v1/events)` });
  });
  if (issues.length > 0) throw new DomainError('validation_failed', 'the event types are not valid', issues);
  return [...new Set(types)];
}

export function webhookUrl(raw: string): string {
  let url: URL | null = null;
  try {
    url = new URL(raw);
  } catch {
    url = null;
  }
  if (!url || url.protocol !== 'https:' || url.username !== '' || url.password !== '' || url.hash !== '' || !/^[\x21-\x7e]+$/.test(raw)) {
    throw new DomainError('validation_failed', 'the webhook url is not valid', [{ pointer: '/url', message: 'must be an absolute https:// URL without credentials or fragment' }]);
  }
  return raw;
}

export const webhookAttributes = {
  url: z.string().min(1).max(2048),
  description: z.string().trim().min(1).max(200).nullable().optional(),
  eventTypes: z.array(z.string().min(1).max(100)).min(1).max(100),
};

export interface WebhookView {
  readonly id: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly url: string;
  readonly description: string | null;
  readonly eventTypes: readonly string[];
  readonly status: 'active' | 'disabled';
  readonly signatureVersion: 'v2';
  readonly version: string;
}

export function webhookView(row: WebhookRecord): WebhookView {
  return {
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    url: row.url,
    description: row.description,
    eventTypes: row.eventTypes,
    status: row.status === 'active' ? 'active' : 'disabled',
    signatureVersion: 'v2',
    version: versionOf(row.revision),
  };
}

export function versionedWebhook(row: WebhookRecord): Versioned<WebhookView> {
  return { resource: webhookView(row), revision: row.revision };
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
  readonly createdAt: string;
  readonly lastAttemptAt: string | null;
}

export function webhookDeliveryView(row: WebhookDeliveryRecord): WebhookDeliveryView {
  // A pending row without a retry time has not been attempted yet (its `attempt` is the one about to be made).
  const attempts = row.status === 'pending' && row.nextRetryAt === null ? row.attempt - 1 : row.attempt;
  return {
    id: row.id,
    webhookId: row.subscriptionId,
    eventId: row.eventId,
    eventType: row.eventType,
    status: row.status,
    attempts,
    responseStatus: row.responseStatusCode,
    createdAt: row.createdAt.toISOString(),
    // A delivery row changes only when an attempt is recorded.
    lastAttemptAt: attempts > 0 ? row.updatedAt.toISOString() : null,
  };
}
