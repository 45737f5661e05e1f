export * from './types.js';
export * from './scopes.js';
export * from './schemas/common.js';
export * from './schemas/legacy.js';
export * from './rows.js';
export { titleFor } from './http-status.js';
export { v1Operations, getV1Operation, findV1Operation, findV1OperationByRoute } from './v1/index.js';
export { v0Operations, findV0Operation } from './v0/index.js';
export { defineOperation, family, archivableCrud } from './v1/builders.js';
export { V0_DEPRECATED_AT } from './v0/builders.js';
export type { OperationSpec, ArchivableCrudSpec } from './v1/builders.js';
export { DOMAIN_READ_SCOPES, RESOURCE_DOMAINS, ResourceDomainSchema } from './v1/search.js';
export type { ResourceDomain } from './v1/search.js';
// The webhook attributes the domain validates with (one source with the OpenAPI document).
export { WEBHOOK_DISABLED_REASONS, WEBHOOK_FAILURE_REASONS, WEBHOOK_URL_RULE, WebhookDescription, WebhookEventTypes, WebhookUrl } from './v1/webhooks.js';
export * from './generated/operation-table.js';

import { v0Operations } from './v0/index.js';
import { v1Operations } from './v1/index.js';
import { registryDigest, toV0Row, toV1Row } from './rows.js';

/** Digest of the registry as built from the TypeScript source (compare with REGISTRY_DIGEST). */
export function computeRegistryDigest(): string {
  return registryDigest(v1Operations.map(toV1Row), v0Operations.map(toV0Row));
}
export { openApiDocument } from './documents.js';
