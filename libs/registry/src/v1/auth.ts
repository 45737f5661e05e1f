import { z } from 'zod';
import { Timestamp } from '../schemas/common.js';
import type { OperationDefinition } from '../types.js';
import { family } from './builders.js';

const f = family('auth');

export const CredentialKind = z.enum(['personal-access-token', 'service-account', 'legacy-v1']);
export const CredentialStatus = z.enum(['active', 'expired', 'revoked']);

/** Exactly the safe metadata of contract section 2: never a verifier, secret fragment, owner PII or another credential. */
export const AuthContext = z
  .object({
    credentialId: z.string(),
    kind: CredentialKind,
    status: CredentialStatus,
    scopes: z.array(z.string()),
    expiresAt: Timestamp.nullable(),
    region: z.string(),
    cell: z.string(),
  })
  .meta({ id: 'AuthContext', description: "The authenticating credential's own safe metadata." });

export const authOperations = [
  f.get('getAuthContext', '/v1/auth/context', {
    summary: "Get the authenticating credential's safe metadata",
    description: 'Needs no scope beyond a valid credential. Responds with `Cache-Control: private, no-store`.',
    noStore: true,
    data: AuthContext,
  }),
  f.remove('revokeAuthContext', '/v1/auth/context', {
    summary: 'Revoke the authenticating credential',
    description:
      'Permanently revokes exactly the credential that authenticated this request; other credentials are unaffected. ' +
      'Needs no scope beyond a valid credential. Responds with `Cache-Control: private, no-store`.',
    noStore: true,
  }),
] satisfies readonly OperationDefinition[];
