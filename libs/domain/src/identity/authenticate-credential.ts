import { z } from 'zod';
import { parseToken, verifierFor, verifiersEqual } from '@workcell/credentials';
import { type CredentialRecord, type Db, findTokenLookup, hiddenProjectIds, listServiceAccountGrants, loadCredential, recordAuthenticationRefusal, touchCredential } from '@workcell/db';
import type { AuthGrant, Principal, V1AuthContext } from '../kernel/auth-context.js';
import { definePlatformProcedure, type ProcedureContext } from '../kernel/procedure.js';
import { isAdministrator } from '../kernel/visibility.js';

export const authenticateCredentialInput = z.object({ token: z.string().max(4096) }).strict();

export type V1AuthFailureCode = 'unauthenticated' | 'credential_expired' | 'credential_revoked' | 'workspace_locked';
export type V1Authentication = { readonly ok: true; readonly context: V1AuthContext } | { readonly ok: false; readonly code: V1AuthFailureCode; readonly message: string };

const reject = (code: V1AuthFailureCode, message: string): V1Authentication => ({ ok: false, code, message });
const UNKNOWN = 'the credential is missing, malformed or not valid here';

type Authority = { readonly ok: true; readonly context: V1AuthContext } | { readonly ok: false; readonly code: V1AuthFailureCode; readonly message: string; readonly reason: string };

/**
 * What an identified, verified credential may do now: refused when revoked, expired, of a locked workspace or of
 * an inactive principal; otherwise its principal, its effective scopes (a personal token's narrowed to its
 * member's current permissions) and, for service accounts, its resource grants. Authentication and the webhook
 * relay (which acts for a subscription's owner) both use it, so a credential can never receive more by webhook
 * than it could read by request.
 */
export async function authorityOf(database: Db, credential: CredentialRecord, now: Date): Promise<Authority> {
  const refuse = (code: V1AuthFailureCode, message: string, reason: string): Authority => ({ ok: false, code, message, reason });
  if (credential.status === 'revoked' || credential.revokedAt !== null) return refuse('credential_revoked', 'the credential has been revoked; create a new one', 'revoked');
  if (credential.status === 'expired' || (credential.expiresAt !== null && credential.expiresAt <= now)) return refuse('credential_expired', 'the credential has expired; create a new one', 'expired');
  if (credential.workspace.lockedAt !== null) return refuse('workspace_locked', 'the workspace is locked', 'workspace_locked');
  let principal: Principal;
  let effectiveScopes: readonly string[];
  let grants: readonly AuthGrant[] | undefined;
  if (credential.member) {
    if (credential.member.status !== 'active') return refuse('unauthenticated', 'the credential’s member is not active', 'member_inactive');
    const permissions = new Set(credential.member.permissions);
    principal = { type: 'member', id: credential.member.id };
    effectiveScopes = credential.scopes.filter((s) => permissions.has(s));
  } else if (credential.serviceAccount) {
    if (credential.serviceAccount.status !== 'active') return refuse('unauthenticated', 'the credential’s service account is not active', 'service_account_inactive');
    principal = { type: 'service_account', id: credential.serviceAccount.id };
    effectiveScopes = credential.scopes;
    grants = await listServiceAccountGrants(database, credential.workspaceId, credential.serviceAccount.id);
  } else {
    return refuse('unauthenticated', UNKNOWN, 'no_principal');
  }
  // The shared projects hidden from the principal, kept with the verification (sharing and group changes move the
  // workspace's authorization epoch): statements compare with the list instead of re-deriving it (kernel/visibility.ts).
  const administrator = isAdministrator({ principal, effectiveScopes });
  const hiddenProjects = administrator
    ? undefined
    : await hiddenProjectIds(database, credential.workspaceId, {
        memberId: principal.type === 'member' ? principal.id : null,
        serviceAccountId: principal.type === 'service_account' ? principal.id : null,
      });
  return {
    ok: true,
    context: {
      workspaceId: credential.workspaceId,
      principal,
      effectiveScopes,
      ...(grants === undefined ? {} : { grants }),
      ...(hiddenProjects === undefined ? {} : { hiddenProjectIds: hiddenProjects }),
      credential: {
        id: credential.id,
        kind: credential.kind,
        name: credential.name,
        status: credential.status,
        scopes: credential.scopes,
        expiresAt: credential.expiresAt?.toISOString() ?? null,
        region: credential.region,
        cell: credential.cell,
        createdAt: credential.createdAt.toISOString(),
        lastUsedAt: (credential.lastUsedAt ?? now).toISOString(),
      },
    },
  };
}

/** A token that names a credential of this cell (format, checksum, routing hint and lookup row all agree). */
export interface IdentifiedCredential {
  readonly token: string;
  readonly family: string;
  readonly verifier: Uint8Array<ArrayBuffer>;
  readonly workspaceId: string;
  readonly credentialId: string;
}

/**
 * The first half of verification (contract 5.2 rule 1): format and checksum, the kind, the routing hint against
 * this cell, and the lookup by the keyed hash; null for anything that names no credential here. It says only
 * which credential the token claims to be: verifyIdentifiedCredential decides whether it is that credential
 * and what it may do. The prefix and hint are never trusted on their own.
 */
export async function identifyCredential(ctx: ProcedureContext, token: string): Promise<IdentifiedCredential | null> {
  const parsed = parseToken(token);
  if (!parsed.ok || parsed.token.family === 'v0_team_token') return null;
  const { config } = ctx;
  if (parsed.token.region !== config.region || parsed.token.cell !== config.cell) return null;
  const verifier = verifierFor(config.credentialSecret, token);
  const lookup = await findTokenLookup(ctx.database, verifier);
  if (!lookup || lookup.tokenType !== 'credential') return null;
  return { token, family: parsed.token.family, verifier, workspaceId: lookup.workspaceId, credentialId: lookup.tokenId };
}

/**
 * The second half: the stored verifier (constant-time), kind, region, cell and audience, then revocation, expiry,
 * the workspace lock and the principal's current state (authorityOf). A refusal of an identified credential is
 * recorded in the workspace's audit trail; an accepted one has its last use recorded (at most once a minute).
 */
export async function verifyIdentifiedCredential(ctx: ProcedureContext, identified: IdentifiedCredential): Promise<V1Authentication> {
  const { config } = ctx;
  const credential = await loadCredential(ctx.database, identified.workspaceId, identified.credentialId);
  if (!credential || !verifiersEqual(credential.verifier, identified.verifier) || credential.kind !== identified.family) return reject('unauthenticated', UNKNOWN);
  if (
    credential.region !== config.region ||
    credential.cell !== config.cell ||
    credential.workspace.region !== config.region ||
    credential.workspace.cell !== config.cell ||
    credential.audience !== config.baseUrls.v1
  ) {
    return reject('unauthenticated', UNKNOWN);
  }

  const now = ctx.now();
  const authority = await authorityOf(ctx.database, credential, now);
  if (!authority.ok) {
    // The credential is identified: its refusal is recorded in the workspace's audit trail.
    const principalType = credential.member ? 'member' : credential.serviceAccount ? 'service_account' : null;
    const principalId = credential.member?.id ?? credential.serviceAccount?.id ?? null;
    await recordAuthenticationRefusal(ctx.database, { workspaceId: credential.workspaceId, credentialId: credential.id, principalType, principalId, reason: authority.reason, now }).catch(
      () => undefined,
    );
    return reject(authority.code, authority.message);
  }
  await touchCredential(ctx.database, credential.workspaceId, credential.id, now).catch(() => undefined);
  return { ok: true, context: authority.context };
}

/**
 * Verifies a v1 bearer credential completely (contract 5.2 rule 1): identifyCredential, then
 * verifyIdentifiedCredential. A credential of another cell is refused, never redirected.
 */
export const authenticateCredential = definePlatformProcedure('authenticateCredential', authenticateCredentialInput, async (ctx, { token }): Promise<V1Authentication> => {
  const identified = await identifyCredential(ctx, token);
  if (!identified) return reject('unauthenticated', UNKNOWN);
  return verifyIdentifiedCredential(ctx, identified);
});
