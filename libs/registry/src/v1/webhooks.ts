import { z } from 'zod';
import { baseFields, casPatchOf, ResourceId, ShortText, Timestamp, Version } from '../schemas/common.js';
import type { OperationDefinition } from '../types.js';
import { family } from './builders.js';

const f = family('webhooks');

/**
 * The writable attributes of a subscription: one source for the OpenAPI document and the domain procedures
 * (libs/domain/src/webhooks), which add the rules a schema cannot state (loopback hosts, the environment,
 * catalog event types) with a message naming what is required.
 */
export const WEBHOOK_URL_RULE =
  'an absolute https:// URL of at most 2048 printable ASCII characters, without user name, password or fragment; http:// only to a loopback host (localhost, 127.0.0.0/8, [::1]) and only outside production';
export const WebhookUrl = z.string().min(1).max(2048).describe(`The receiver: ${WEBHOOK_URL_RULE}.`);
export const WebhookDescription = ShortText.describe('Free text of at most 2,000 characters; blank or null means none.');
export const WebhookEventTypes = z
  .array(z.string().min(1).max(100))
  .min(1)
  .max(100)
  .describe('Event types of GET /v1/event-catalog (channel `webhooks`), or `*` for every one; duplicates are folded.');

/** Why a subscription is disabled (null while active). */
export const WEBHOOK_DISABLED_REASONS = ['owner', 'administrator', 'owner_revoked', 'owner_expired', 'owner_inactive', 'receiver_gone'] as const;
/** The class of a failed delivery attempt. */
export const WEBHOOK_FAILURE_REASONS = [
  'timeout',
  'connection_refused',
  'connection_reset',
  'dns',
  'tls',
  'http_status',
  'refused',
  'network',
  'subscription_removed',
  'subscription_disabled',
] as const;

const webhookFields = {
  url: z.string(),
  description: z.string().nullable(),
  eventTypes: z.array(z.string()),
  status: z.enum(['active', 'disabled']),
  disabledReason: z
    .enum(WEBHOOK_DISABLED_REASONS)
    .nullable()
    .describe(
      'Why the subscription is disabled: `owner` (its owner disabled it), `administrator` (a workspace administrator did), `owner_revoked` / `owner_expired` / `owner_inactive` (the owning credential was revoked, expired, or its member or service account is no longer active), `receiver_gone` (the receiver answered 410 Gone). Null while active.',
    ),
  disabledAt: Timestamp.nullable().describe('When it was disabled; null while active.'),
  signatureVersion: z.literal('v2'),
  version: Version,
};
export const Webhook = z
  .object({ ...baseFields, ...webhookFields })
  .meta({ id: 'Webhook', description: 'A signed (v2) webhook subscription.' });
export const WebhookWithSecret = z
  .object({ ...baseFields, ...webhookFields, signingSecret: z.string().describe('Shown exactly once; store it to verify signatures.') })
  .meta({ id: 'WebhookWithSecret', description: 'A new webhook subscription with its one-time signing secret.' });

const writable = z.strictObject({
  url: WebhookUrl,
  description: WebhookDescription.nullable().optional(),
  eventTypes: WebhookEventTypes,
});
export const WebhookCreate = writable.meta({ id: 'WebhookCreate', description: 'A new signed webhook subscription.' });
export const WebhookUpdate = casPatchOf(
  writable.extend({ status: z.enum(['active', 'disabled']) }),
  'WebhookUpdate',
  'Compare-and-set of a webhook subscription.',
);

export const WebhookDelivery = z
  .object({
    id: ResourceId,
    webhookId: ResourceId,
    eventId: ResourceId,
    eventType: z.string(),
    status: z.enum(['pending', 'succeeded', 'failed']),
    attempts: z.number().int().min(0),
    responseStatus: z.number().int().nullable(),
    failureReason: z
      .enum(WEBHOOK_FAILURE_REASONS)
      .nullable()
      .describe(
        'Why the latest attempt failed: `timeout`, `connection_refused`, `connection_reset`, `dns`, `tls` (the certificate was not accepted), `http_status` (see responseStatus), `refused` (the receiver address is not allowed), `network`, or, without any attempt, `subscription_removed` / `subscription_disabled`. Null when it succeeded or was not attempted yet.',
      ),
    failureDetail: z.string().nullable().describe('A short human-readable account of that failure.'),
    createdAt: Timestamp,
    lastAttemptAt: Timestamp.nullable(),
  })
  .meta({ id: 'WebhookDelivery', description: 'One delivery attempt series of an event.' });

/** The ownership rules (docs/webhooks.md "Webhooks"), stated on every operation they shape. */
const OWNER_ONLY =
  'A subscription belongs to the credential that created it (a rotation hands it to the successor credential): only that credential reads, changes or removes it; any other credential gets 404.';
const ADMINISTRATOR =
  'A workspace administrator (a member holding settings.api.serviceAccounts.manage) also sees every subscription’s metadata and may disable one it does not own (PATCH with only `expectedVersion` and `status: "disabled"`, audited, `disabledReason: administrator`); it never changes the url or event types, re-enables, removes, or reads the deliveries or the secret of one it does not own (403 forbidden).';
const ownDeliveries = 'Delivery history is visible only to the credential that owns the subscription (anyone else, administrators included, gets 404).';

export const webhookOperations = [
  f.list('listWebhooks', '/v1/webhooks', { description: `The calling credential’s own subscriptions, oldest first. ${ADMINISTRATOR}`, scopes: ['webhooks:read'], item: Webhook }),
  f.create('createWebhook', '/v1/webhooks', {
    description:
      'Creates a signed v2 subscription owned by the calling credential (separate from legacy unsigned v0 webhooks) and returns a one-time signing secret. ' +
      `The url must be ${WEBHOOK_URL_RULE}. ` +
      'No Idempotency-Key (the secret is never replayed).',
    scopes: ['webhooks:write'],
    revealsSecret: true,
    body: WebhookCreate,
    data: WebhookWithSecret,
  }),
  f.get('getWebhook', '/v1/webhooks/{id}', { description: `${OWNER_ONLY} ${ADMINISTRATOR}`, scopes: ['webhooks:read'], data: Webhook }),
  f.update('updateWebhook', '/v1/webhooks/{id}', {
    description: `${OWNER_ONLY} Setting \`status\` to \`active\` re-enables a disabled subscription (owner only) and clears its disabledReason. ${ADMINISTRATOR}`,
    scopes: ['webhooks:write'],
    concurrency: 'cas',
    body: WebhookUpdate,
    data: Webhook,
  }),
  f.remove('removeWebhook', '/v1/webhooks/{id}', { description: `${OWNER_ONLY} ${ADMINISTRATOR}`, scopes: ['webhooks:write'] }),
  f.list('listWebhookDeliveries', '/v1/webhooks/{id}/deliveries', {
    description: ownDeliveries,
    scopes: ['webhooks:read'],
    query: { status: z.enum(['pending', 'succeeded', 'failed']).optional() },
    item: WebhookDelivery,
  }),
  f.get('getWebhookDelivery', '/v1/webhooks/{id}/deliveries/{deliveryId}', {
    description: ownDeliveries,
    scopes: ['webhooks:read'],
    data: WebhookDelivery,
  }),
] satisfies readonly OperationDefinition[];
