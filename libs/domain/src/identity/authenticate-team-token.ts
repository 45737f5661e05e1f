import { z } from 'zod';
import { parseToken, verifierFor, verifiersEqual } from '@workcell/credentials';
import { findTokenLookup, loadTeamToken, touchTeamToken } from '@workcell/db';
import { definePlatformProcedure, type ProcedureContext } from '../kernel/procedure.js';

export const authenticateTeamTokenInput = z.object({ token: z.string().max(4096) }).strict();

export interface V0AuthContext {
  readonly workspaceId: string;
  readonly teamTokenId: string;
  /** The member who minted the token (v0 acts as this member where an action needs one), or null. */
  readonly tokenMemberId: string | null;
}

export type V0AuthFailureCode = 'unauthenticated' | 'workspace_locked';
export type V0Authentication = { readonly ok: true; readonly context: V0AuthContext } | { readonly ok: false; readonly code: V0AuthFailureCode };

/** A token that names a team token of this cell (format and lookup row agree); verifyIdentifiedTeamToken decides. */
export interface IdentifiedTeamToken {
  readonly verifier: Uint8Array<ArrayBuffer>;
  readonly workspaceId: string;
  readonly teamTokenId: string;
}

/** Only v0 tokens are identified (a v1 credential is as unknown here as a random string); null when unknown. */
export async function identifyTeamToken(ctx: ProcedureContext, token: string): Promise<IdentifiedTeamToken | null> {
  const parsed = parseToken(token);
  if (!parsed.ok || parsed.token.family !== 'v0_team_token') return null;
  const verifier = verifierFor(ctx.config.credentialSecret, token);
  const lookup = await findTokenLookup(ctx.database, verifier);
  if (!lookup || lookup.tokenType !== 'team_token') return null;
  return { verifier, workspaceId: lookup.workspaceId, teamTokenId: lookup.tokenId };
}

/** The stored verifier must match in constant time, the token must not be revoked, and the team must not be locked. */
export async function verifyIdentifiedTeamToken(ctx: ProcedureContext, identified: IdentifiedTeamToken): Promise<V0Authentication> {
  const record = await loadTeamToken(ctx.database, identified.workspaceId, identified.teamTokenId);
  if (!record || !verifiersEqual(record.verifier, identified.verifier) || record.revokedAt !== null) return { ok: false, code: 'unauthenticated' };
  if (record.workspace.lockedAt !== null) return { ok: false, code: 'workspace_locked' };
  await touchTeamToken(ctx.database, record.workspaceId, record.id, ctx.now()).catch(() => undefined);
  return { ok: true, context: { workspaceId: record.workspaceId, teamTokenId: record.id, tokenMemberId: record.createdByMemberId } };
}

/**
 * Verifies a v0 team token (contract 5.1): identifyTeamToken, then verifyIdentifiedTeamToken. Failures carry no
 * team data.
 */
export const authenticateTeamToken = definePlatformProcedure('authenticateTeamToken', authenticateTeamTokenInput, async (ctx, { token }): Promise<V0Authentication> => {
  const identified = await identifyTeamToken(ctx, token);
  if (!identified) return { ok: false, code: 'unauthenticated' };
  return verifyIdentifiedTeamToken(ctx, identified);
});
