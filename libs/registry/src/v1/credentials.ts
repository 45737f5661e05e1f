import { z } from 'zod';
import { Name, ResourceId, Timestamp } from '../schemas/common.js';
import { V1_SCOPES } from '../scopes.js';
import type { OperationDefinition } from '../types.js';
import { CredentialStatus } from './auth.js';
import { family } from './builders.js';

const f = family('credentials');

export const ScopeSchema = z.enum(V1_SCOPES);
/** The scopes a new credential is for: at least one, and no longer than the list of scopes (duplicates are folded). */
export const ScopeList = z.array(ScopeSchema).min(1).max(V1_SCOPES.length);

/**
 * The metadata of a credential, after its id and owner columns (never the secret or its verifier): personal access
 * tokens and service-account credentials are one kind of thing. `prefix` describes the public prefix of the kind.
 */
export function credentialColumns(prefix: string) {
  return {
    name: z.string(),
    prefix: z.string().describe(prefix),
    status: CredentialStatus,
    scopes: z.array(ScopeSchema),
    expiresAt: Timestamp.nullable(),
    lastUsedAt: Timestamp.nullable(),
    createdAt: Timestamp,
    revokedAt: Timestamp.nullable(),
    region: z.string(),
    cell: z.string(),
  };
}

/** A credential's fields with the reveal-once secret, as minting and rotating answer them. */
export function withSecret<F extends z.ZodRawShape>(fields: F) {
  return { ...fields, secret: z.string().describe('Shown exactly once; only a verifier is stored.') };
}

/** What minting a credential takes. */
export function credentialCreateFields() {
  return { name: Name, scopes: ScopeList, expiresAt: Timestamp.nullable().optional() };
}

const credentialFields = { id: ResourceId, ...credentialColumns('Public prefix, e.g. svc_pat_v2_ (an untrusted routing hint).') };

export const PersonalAccessToken = z.object(credentialFields).meta({ id: 'PersonalAccessToken', description: 'Metadata of a personal access token (never the secret or its verifier).' });

export const PersonalAccessTokenWithSecret = z.object(withSecret(credentialFields)).meta({ id: 'PersonalAccessTokenWithSecret', description: 'A personal access token with its reveal-once secret.' });

export const PersonalAccessTokenCreate = z.strictObject(credentialCreateFields()).meta({ id: 'PersonalAccessTokenCreate', description: 'A new personal access token of the acting member.' });

export const CredentialRotate = z
  .strictObject({ expiresAt: Timestamp.nullable().optional() })
  .meta({ id: 'CredentialRotate', description: 'Rotation options; the previous secret stops working immediately.' });

const revealOnce = 'The response carries a reveal-once secret; it is never replayed, so the operation takes no Idempotency-Key and is never retried automatically.';

export const credentialOperations = [
  f.list('listCredentials', '/v1/credentials', {
    summary: 'List personal access tokens',
    scopes: ['credentials:read'],
    query: { status: CredentialStatus.optional() },
    item: PersonalAccessToken,
  }),
  f.create('createCredential', '/v1/credentials', {
    summary: 'Create a personal access token',
    description: `Requires the member permission settings.api.personalCredentials. ${revealOnce} No Location: a token has no GET of its own; it is listed by GET /v1/credentials.`,
    scopes: ['credentials:write'],
    revealsSecret: true,
    noLocation: true,
    body: PersonalAccessTokenCreate,
    data: PersonalAccessTokenWithSecret,
  }),
  f.action('POST', 'rotateCredential', '/v1/credentials/{id}/rotate', {
    summary: 'Rotate a personal access token',
    description: revealOnce,
    scopes: ['credentials:write'],
    revealsSecret: true,
    body: CredentialRotate.optional(),
    data: PersonalAccessTokenWithSecret,
  }),
  f.remove('revokeCredential', '/v1/credentials/{id}', {
    summary: 'Revoke a personal access token',
    description: 'Permanent; affects only this credential.',
    scopes: ['credentials:write'],
  }),
] satisfies readonly OperationDefinition[];
