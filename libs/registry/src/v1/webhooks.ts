import { z } from 'zod';
import { baseFields, casPatchOf, ResourceId, ShortText, Timestamp, Version } from '../schemas/common.js';
import type { OperationDefinition } from '../types.js';
import { family } from './builders.js';

const f = family('webhooks');

const HttpsUrl = z.url({ protocol: /^https$/ }).max(2048);

const webhookFields = {
  url: z.string(),
  description: z.string().nullable(),
  eventTypes: z.array(z.string()),
  status: z.enum(['active', 'disabled']),
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
  url: HttpsUrl,
  description: ShortText.nullable().optional(),
  eventTypes: z.array(z.string().min(1).max(100)).min(1).max(100),
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
    createdAt: Timestamp,
    lastAttemptAt: Timestamp.nullable(),
  })
  .meta({ id: 'WebhookDelivery', description: 'One delivery attempt series of an event.' });

const ownDeliveries = 'Delivery history is visible only to the exact credential that owns the subscription (others get 404).';

export const webhookOperations = [
  f.list('listWebhooks', '/v1/webhooks', { scopes: ['webhooks:read'], item: Webhook }),
  f.create('createWebhook', '/v1/webhooks', {
    description:
      'Creates a signed v2 subscription (separate from legacy unsigned v0 webhooks) and returns a one-time signing secret. ' +
      'No Idempotency-Key (the secret is never replayed).',
    scopes: ['webhooks:write'],
    revealsSecret: true,
    body: WebhookCreate,
    data: WebhookWithSecret,
  }),
  f.get('getWebhook', '/v1/webhooks/{id}', { scopes: ['webhooks:read'], data: Webhook }),
  f.update('updateWebhook', '/v1/webhooks/{id}', {
    scopes: ['webhooks:write'],
    concurrency: 'cas',
    body: WebhookUpdate,
    data: Webhook,
  }),
  f.remove('removeWebhook', '/v1/webhooks/{id}', { scopes: ['webhooks:write'] }),
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
