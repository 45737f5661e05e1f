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
export const WEBHOOK_DISABLED_REASONS = ['owner', 'administrator', 'owner_revoked', 'owner_expired', 'owner_inactive', 'receiver_gone', 'receiver_failing'] as const;
/** The longest overlap of a rotated signing secret (7 days) and its default (1 day). */
export const WEBHOOK_PREVIOUS_SECRET_MAX_SECONDS = 7 * 86_400;
export const WEBHOOK_PREVIOUS_SECRET_DEFAULT_SECONDS = 86_400;
/** How far back `recoverSince` may reach (30 days). */
export const WEBHOOK_RECOVERY_DAYS = 30;
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
      'Why the subscription is disabled: `owner` (its owner disabled it), `administrator` (a workspace administrator did), `owner_revoked` / `owner_expired` / `owner_inactive` (the owning credential was revoked, expired, or its member or service account is no longer active), `receiver_gone` (the receiver answered 410 Gone), `receiver_failing` (every attempt failed for the whole retry schedule, about 2.8 days). Null while active.',
    ),
  disabledAt: Timestamp.nullable().describe('When it was disabled; null while active.'),
  failingSince: Timestamp.nullable().describe(
    'Since when every attempt to the receiver has failed (null while deliveries succeed). From the fifth consecutive failure attempts are spaced by the retry schedule, one at a time; failing for the whole schedule disables the subscription (`receiver_failing`).',
  ),
  previousSecretExpiresAt: Timestamp.nullable().describe('After `rotateSigningSecret`: until when deliveries also carry a signature under the previous secret (null when only the current one signs).'),
  signatureVersion: z.literal('v2'),
  version: Version,
};
export const Webhook = z.object({ ...baseFields, ...webhookFields }).meta({ id: 'Webhook', description: 'A signed (v2) webhook subscription.' });
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
  writable.extend({
    status: z.enum(['active', 'disabled']),
    rotateSigningSecret: z
      .boolean()
      .meta({ examples: [true] })
      .describe(
        '`true`: a new signing secret, returned once in `signingSecret`. Until the previous one expires every delivery carries two signatures in `webhook-signature` (space-separated), so a receiver switches without losing a message.',
      ),
    previousSecretExpiresInSeconds: z
      .int()
      .min(0)
      .max(WEBHOOK_PREVIOUS_SECRET_MAX_SECONDS)
      .meta({ examples: [WEBHOOK_PREVIOUS_SECRET_DEFAULT_SECONDS] })
      .describe(
        `With rotateSigningSecret only: how long the previous secret keeps signing, in seconds (default ${WEBHOOK_PREVIOUS_SECRET_DEFAULT_SECONDS}, at most ${WEBHOOK_PREVIOUS_SECRET_MAX_SECONDS}; 0 stops it at once).`,
      ),
    recoverSince: Timestamp.describe(
      `Every failed delivery of this subscription created since this instant (at most ${WEBHOOK_RECOVERY_DAYS} days ago) is attempted once more, oldest first, in the background at the subscription's fair share; \`recoveredDeliveries\` says how many. A disabled subscription must be re-enabled in the same request (\`status: "active"\`).`,
    ),
    sendTestEvent: z
      .boolean()
      .meta({ examples: [true] })
      .describe('`true`: one `webhook.test` delivery to this subscription, signed like any other and recorded in its history (`testDeliveryId`). The subscription must be active.'),
  }),
  'WebhookUpdate',
  'Compare-and-set of a webhook subscription, and the owner’s actions on it (rotate the signing secret, recover failed deliveries, send a test event).',
);
export const WebhookUpdated = z
  .object({
    ...baseFields,
    ...webhookFields,
    signingSecret: z.string().optional().describe('Only after `rotateSigningSecret`: the new secret, shown exactly once.'),
    recoveredDeliveries: z.int().min(0).optional().describe('Only with `recoverSince`: how many failed deliveries are attempted again.'),
    testDeliveryId: ResourceId.optional().describe('Only with `sendTestEvent`: the test delivery (GET /v1/webhooks/{id}/deliveries/{deliveryId}).'),
  })
  .meta({ id: 'WebhookUpdated', description: 'The subscription after a PATCH, with what its actions produced.' });

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
    nextAttemptAt: Timestamp.nullable().describe('While pending: when the next attempt is due (the retry schedule; later while the receiver’s circuit breaker rests).'),
    request: z
      .object({ headers: z.record(z.string(), z.string()) })
      .nullable()
      .describe('What the latest attempt sent: its headers (the body is the event, as documented). Null before the first attempt.'),
    response: z
      .object({ headers: z.record(z.string(), z.string()), body: z.string().describe('The first KB of the body (UTF-8).') })
      .nullable()
      .describe('What the receiver answered to the latest attempt; null when no answer arrived.'),
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
    description:
      `${OWNER_ONLY} Setting \`status\` to \`active\` re-enables a disabled subscription (owner only), clears its disabledReason and closes its circuit breaker. ` +
      'The owner’s actions, alone or together with other changes, each under the same `expectedVersion`: ' +
      '`{"expectedVersion": "3", "rotateSigningSecret": true, "previousSecretExpiresInSeconds": 86400}` answers the new `signingSecret` once (both secrets sign until the old one expires); ' +
      '`{"expectedVersion": "3", "recoverSince": "2025-01-05T09:00:00Z"}` attempts every failed delivery since then once more (`"status": "active"` with it re-enables a disabled subscription); ' +
      '`{"expectedVersion": "3", "sendTestEvent": true}` sends one `webhook.test` delivery. ' +
      ADMINISTRATOR,
    scopes: ['webhooks:write'],
    concurrency: 'cas',
    revealsSecret: true,
    body: WebhookUpdate,
    data: WebhookUpdated,
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
