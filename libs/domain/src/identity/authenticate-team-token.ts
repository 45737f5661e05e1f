import { z } from 'zod';
import { parseToken, verifierFor, verifiersEqual } from '@workcell/credentials';
import { findTokenLookup, loadTeamToken, touchTeamToken } from '@workcell/db';
import { defineProcedure } from '../kernel/procedure.js';

export const authenticateTeamTokenInput = z.object({ token: z.string().max(4096) }).strict();

export interface V0AuthContext {
  readonly workspaceId: string;
  readonly teamTokenId: string;
}

export type V0AuthFailureCode = 'unauthenticated' | 'workspace_locked';
export type V0Authentication = { readonly ok: true; readonly context: V0AuthContext } | { readonly ok: false; readonly code: V0AuthFailureCode };

/**
 * Verifies a v0 team token (contract 5.1): only v0 tokens are accepted (a v1 credential is as unknown here
 * as a random string), the stored verifier must match in constant time, the token must not be revoked, and
 * the team must not be locked. Failures carry no team data.
 */
export const authenticateTeamToken = defineProcedure('authenticateTeamToken', authenticateTeamTokenInput, async (ctx, { token }): Promise<V0Authentication> => {
  const parsed = parseToken(token);
  if (!parsed.ok || parsed.token.family !== 'v0_team_token') return { ok: false, code: 'unauthenticated' };
  const verifier = verifierFor(ctx.config.credentialSecret, token);
  const lookup = await findTokenLookup(ctx.database, verifier);
  if (!lookup || lookup.tokenType !== 'team_token') return { ok: false, code: 'unauthenticated' };
  const record = await loadTeamToken(ctx.database, lookup.workspaceId, lookup.tokenId);
  if (!record || !verifiersEqual(record.verifier, verifier) || record.revokedAt !== null) return { ok: false, code: 'unauthenticated' };
  if (record.workspace.lockedAt !== null) return { ok: false, code: 'workspace_locked' };
  await touchTeamToken(ctx.database, record.workspaceId, record.id, ctx.now()).catch(() => undefined);
  return { ok: true, context: { workspaceId: record.workspaceId, teamTokenId: record.id } };
});
