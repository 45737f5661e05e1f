import { z } from 'zod';
import { CREDENTIAL_KINDS } from '@workcell/credentials';
import { type CredentialMetaRow, type CredentialOwner, findOwnedCredential, memberPermissionKeys, rotateOwnedCredential } from '@workcell/db';
import { ScopeList } from '@workcell/registry';
import type { V1AuthContext } from '../kernel/auth-context.js';
import { DomainError } from '../kernel/errors.js';
import type { Operation, ProcedureContext } from '../kernel/procedure.js';
import { actorOf } from '../identity/actor.js';
import { isUuid } from '../kernel/ids.js';

/**
 * What the credential and service-account procedures share: the authenticated caller as input (so the auth
 * service, which runs the procedures that mint or revoke secrets, sees exactly the context the API app
 * authenticated), the permission and anti-escalation checks, and the safe metadata views.
 *
 * Decisions (contract 5.2, 5.3):
 * - Personal access tokens are always the acting member's own: list, create, rotate and revoke act only on
 *   them; another member's token id answers 404 like a missing one, even for an administrator (administrators
 *   stop another member's access by disabling the member or removing role permissions, which narrows every
 *   token at once). A service-account principal has no personal tokens: 403 forbidden.
 * - Creating or rotating a personal token needs the member permission settings.api.personalCredentials;
 *   revoking one never does (giving up access is always allowed).
 * - Writes to service accounts (create, update, delete, their credentials, their resource grants) need a member
 *   holding settings.api.serviceAccounts.manage; a service-account principal may read but never manage them, so an
 *   integration cannot mint further integration credentials. Reads need only their scopes.
 * - Nobody mints a secret (create or rotate) for scopes the calling credential does not effectively hold:
 *   403 insufficient_scope naming them.
 */

/** The caller as it crosses the internal channel to the auth service (libs/internal-api `expose`): checked field by field. */
export const authInput = z.object({
  workspaceId: z.uuid(),
  principal: z.union([z.object({ type: z.literal('member'), id: z.uuid() }), z.object({ type: z.literal('service_account'), id: z.uuid() })]),
  effectiveScopes: z.array(z.string().max(128)).max(500).readonly(),
  credential: z.object({
    id: z.uuid(),
    kind: z.enum(['personal_access_token', 'service_account', 'legacy_v1']),
    name: z.string(),
    status: z.enum(['active', 'expired', 'revoked']),
    scopes: z.array(z.string().max(128)).max(500).readonly(),
    expiresAt: z.string().nullable(),
    region: z.string(),
    cell: z.string(),
    createdAt: z.string(),
    lastUsedAt: z.string().nullable(),
  }),
});

export const pageInput = {
  cursor: z.string().min(1).max(1024).optional(),
  limit: z.number().int().min(1).max(200).default(50),
};

/** The registry's scope list of a new credential, duplicates folded (a credential holds each scope once). */
export const scopesInput = ScopeList.transform((scopes) => [...new Set(scopes)]);

/** Ids are UUIDs; anything else names nothing (404), without asking the database. */
export { isUuid as isResourceId } from '../kernel/ids.js';

export function notFound(what: string): DomainError {
  return new DomainError('not_found', `${what} not found`);
}

export function requireMember(auth: Pick<V1AuthContext, 'principal'>, what: string): string {
  if (auth.principal.type !== 'member') throw new DomainError('forbidden', `${what} is for members; a service-account principal cannot do it`);
  return auth.principal.id;
}

/** Who asks to mint or manage: a v1 request's context, or the member an account-page session acts as. */
export type PermissionSubject = Pick<V1AuthContext, 'workspaceId' | 'principal' | 'effectiveScopes'>;

/** The acting principal must be an active member holding `permission` through a current role. */
export async function requirePermission(ctx: ProcedureContext, auth: PermissionSubject, permission: string, what: string): Promise<string> {
  const memberId = requireMember(auth, what);
  // The member's current permissions (an active, unremoved member's unarchived roles), read now: never cached.
  const permissions = await memberPermissionKeys(ctx.database, auth.workspaceId, memberId);
  if (!permissions.includes(permission)) {
    throw new DomainError('forbidden', `${what} requires the member permission ${permission}`, [], { permission });
  }
  return memberId;
}

export const PERSONAL_CREDENTIALS = 'settings.api.personalCredentials';
export const MANAGE_SERVICE_ACCOUNTS = 'settings.api.serviceAccounts.manage';

/** No privilege escalation: a minted secret carries only scopes the calling credential effectively holds. */
export function assertMayGrant(auth: PermissionSubject, scopes: readonly string[]): void {
  const held = new Set(auth.effectiveScopes);
  const missing = scopes.filter((s) => !held.has(s));
  if (missing.length > 0) {
    throw new DomainError('insufficient_scope', `the calling credential cannot grant scopes it does not hold: ${missing.join(', ')}`, [], { missingScopes: missing });
  }
}

/** A requested expiry: absent or null means none; a past one is refused. */
export function expiryOf(value: string | null | undefined, now: Date, pointer = '/expiresAt'): Date | null | undefined {
  if (value === undefined || value === null) return value;
  const at = new Date(value);
  if (at.getTime() <= now.getTime()) throw new DomainError('validation_failed', 'expiresAt must be in the future', [{ pointer, message: 'must be in the future' }]);
  return at;
}

/** Safe metadata of a credential: never the verifier, a fragment of the secret, owner personal data or another credential. */
export interface CredentialView {
  readonly id: string;
  readonly name: string;
  readonly prefix: string;
  readonly status: 'active' | 'expired' | 'revoked';
  readonly scopes: readonly string[];
  readonly expiresAt: string | null;
  readonly lastUsedAt: string | null;
  readonly createdAt: string;
  readonly revokedAt: string | null;
  readonly region: string;
  readonly cell: string;
}
export interface ServiceAccountCredentialView extends CredentialView {
  readonly serviceAccountId: string;
}
export type WithSecret<T> = T & { readonly secret: string };

/** The status a client sees: revoked, else expired (stored or past expiry), else the stored one. */
export function effectiveStatus(row: Pick<CredentialMetaRow, 'status' | 'revokedAt' | 'expiresAt'>, now: Date): CredentialView['status'] {
  if (row.status === 'revoked' || row.revokedAt !== null) return 'revoked';
  if (row.status === 'expired' || (row.expiresAt !== null && row.expiresAt <= now)) return 'expired';
  return 'active';
}

export function credentialView(row: CredentialMetaRow, now: Date): CredentialView {
  return {
    id: row.id,
    name: row.name,
    prefix: CREDENTIAL_KINDS[row.kind],
    status: effectiveStatus(row, now),
    scopes: row.scopes,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    revokedAt: row.revokedAt?.toISOString() ?? null,
    region: row.region,
    cell: row.cell,
  };
}

export function serviceAccountCredentialView(row: CredentialMetaRow, now: Date): ServiceAccountCredentialView {
  const { id, ...rest } = credentialView(row, now);
  return { id, serviceAccountId: row.serviceAccountId ?? '', ...rest };
}

/**
 * Rotates one of `owner`'s credentials (rotateCredential, rotateServiceAccountCredential): a successor is minted and
 * the credential revoked in one transaction. Another owner's or an unknown id is 404; the caller must be able to grant
 * every scope of it (it hands out a secret for them); only an active credential rotates (409 conflict).
 */
export async function rotateOwned(
  op: Operation,
  owner: CredentialOwner,
  credentialId: string,
  expiresAt: string | null | undefined,
  now: Date,
): Promise<{ credential: CredentialMetaRow; token: string }> {
  const { auth } = op;
  const current = isUuid(credentialId) ? await findOwnedCredential(op.database, auth.workspaceId, owner, credentialId) : null;
  if (!current) throw notFound('credential');
  assertMayGrant(auth, current.scopes);
  const rotated = await rotateOwnedCredential(op.database, op.config, {
    workspaceId: auth.workspaceId,
    owner,
    credentialId: current.id,
    expiresAt: expiryOf(expiresAt, now),
    actor: actorOf(auth, op.requestId),
    now,
  });
  if (!rotated) throw new DomainError('conflict', 'only an active credential can be rotated; create a new one instead');
  return rotated;
}
