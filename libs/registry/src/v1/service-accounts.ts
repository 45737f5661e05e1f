import { z } from 'zod';
import { baseFields, LongText, Name, patchOf, ResourceId } from '../schemas/common.js';
import type { OperationDefinition } from '../types.js';
import { family } from './builders.js';
import { credentialColumns, credentialCreateFields, CredentialRotate, withSecret } from './credentials.js';

const f = family('service-accounts');

export const ServiceAccount = z
  .object({
    ...baseFields,
    name: z.string(),
    description: z.string().nullable(),
    status: z.enum(['active', 'disabled']),
    ownerMemberId: ResourceId.describe('Workspace administrator who owns the principal.'),
  })
  .meta({ id: 'ServiceAccount', description: 'A service-account principal for deployed integrations.' });

const serviceAccountFields = z.strictObject({ name: Name, description: LongText.nullable().optional() });
export const ServiceAccountCreate = serviceAccountFields.meta({ id: 'ServiceAccountCreate', description: 'A new service account.' });
export const ServiceAccountUpdate = patchOf(
  serviceAccountFields.extend({ status: z.enum(['active', 'disabled']) }),
  'ServiceAccountUpdate',
  'Mutable service-account attributes; disabling stops all its credentials immediately.',
);

const credentialFields = { id: ResourceId, serviceAccountId: ResourceId, ...credentialColumns('svc_sa_v2_') };
export const ServiceAccountCredential = z.object(credentialFields).meta({ id: 'ServiceAccountCredential', description: 'Metadata of a service-account credential.' });
export const ServiceAccountCredentialWithSecret = z
  .object(withSecret(credentialFields))
  .meta({ id: 'ServiceAccountCredentialWithSecret', description: 'A service-account credential with its reveal-once secret.' });
export const ServiceAccountCredentialCreate = z.strictObject(credentialCreateFields()).meta({ id: 'ServiceAccountCredentialCreate', description: 'A new service-account credential.' });

const admin = 'Requires the member permission settings.api.serviceAccounts.manage.';
const revealOnce = 'The response carries a reveal-once secret; no Idempotency-Key, never retried automatically.';

export const serviceAccountOperations = [
  f.list('listServiceAccounts', '/v1/service-accounts', { scopes: ['service-accounts:read'], item: ServiceAccount }),
  f.create('createServiceAccount', '/v1/service-accounts', {
    description: admin,
    scopes: ['service-accounts:write'],
    body: ServiceAccountCreate,
    data: ServiceAccount,
  }),
  f.get('getServiceAccount', '/v1/service-accounts/{id}', { scopes: ['service-accounts:read'], data: ServiceAccount }),
  f.update('updateServiceAccount', '/v1/service-accounts/{id}', {
    description: admin,
    scopes: ['service-accounts:write'],
    body: ServiceAccountUpdate,
    data: ServiceAccount,
  }),
  f.remove('deleteServiceAccount', '/v1/service-accounts/{id}', {
    description: `${admin} Revokes all its credentials.`,
    scopes: ['service-accounts:write'],
  }),
  f.list('listServiceAccountCredentials', '/v1/service-accounts/{id}/credentials', {
    scopes: ['service-accounts:read'],
    item: ServiceAccountCredential,
  }),
  f.create('createServiceAccountCredential', '/v1/service-accounts/{id}/credentials', {
    description: `${admin} ${revealOnce} No Location: a credential has no GET of its own; it is listed by GET /v1/service-accounts/{id}/credentials.`,
    scopes: ['service-accounts:write'],
    revealsSecret: true,
    noLocation: true,
    body: ServiceAccountCredentialCreate,
    data: ServiceAccountCredentialWithSecret,
  }),
  f.action('POST', 'rotateServiceAccountCredential', '/v1/service-accounts/{id}/credentials/{credentialId}/rotate', {
    description: `${admin} ${revealOnce}`,
    scopes: ['service-accounts:write'],
    revealsSecret: true,
    body: CredentialRotate.optional(),
    data: ServiceAccountCredentialWithSecret,
  }),
  f.remove('revokeServiceAccountCredential', '/v1/service-accounts/{id}/credentials/{credentialId}', {
    description: `${admin} Permanent; affects only this credential.`,
    scopes: ['service-accounts:write'],
  }),
] satisfies readonly OperationDefinition[];
