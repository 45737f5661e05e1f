import type { V0OperationDefinition } from '../types.js';
import { v0op } from './builders.js';

/** Legacy unsigned webhooks; v1 creates separate signed v2 subscriptions (migration rule 11). */
export const v0WebhookOperations = [
  v0op('DELETE', '/webhooks', 'deprecated-alias', 'adaptation-required', 'removeWebhook'),
  v0op('GET', '/webhooks', 'supported', 'adaptation-required', 'listWebhooks'),
  v0op('POST', '/webhooks', 'supported', 'adaptation-required', 'createWebhook'),
  v0op('DELETE', '/webhooks/{_id}', 'supported', 'adaptation-required', 'removeWebhook'),
  v0op('GET', '/webhooks/{_id}', 'supported', 'adaptation-required', 'getWebhook'),
] satisfies readonly V0OperationDefinition[];
