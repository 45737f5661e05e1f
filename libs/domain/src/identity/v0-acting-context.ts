import { DomainError } from '../kernel/errors.js';
import type { ProcedureContext } from '../kernel/procedure.js';
import type { V1AuthContext } from '../kernel/auth-context.js';
import type { V0AuthContext } from './authenticate-team-token.js';

/** No member: a v0 token minted without one acts as nobody where an action needs a member (never matches a row). */
const NO_MEMBER = '00000000-0000-0000-0000-000000000000';

/**
 * The v1 procedures' caller for a v0 request, so v0 calls the very same procedures in-process (issue 5).
 * Decisions:
 * - The workspace is always the token's team: nothing in a v0 body or query can change it.
 * - The principal is the member who minted the team token (`team_tokens.created_by_member_id`): timers run
 *   and call notes are authored as that member. A token without one answers 403 `forbidden` for those
 *   actions only (`requireTokenMember`).
 * - Scopes are not consulted by the procedures (the v0 token model is team-scoped, contract 5.1), and project
 *   sharing does not narrow it (`teamWide`): v0 sees every project of its team, as it always has.
 */
export function v0ActingContext(ctx: ProcedureContext, auth: V0AuthContext): V1AuthContext & { readonly tokenMemberId: string | null } {
  // The minting member comes with the verified token: no statement of its own.
  const memberId = auth.tokenMemberId;
  return {
    workspaceId: auth.workspaceId,
    principal: { type: 'member', id: memberId ?? NO_MEMBER },
    effectiveScopes: [],
    credential: {
      id: auth.teamTokenId,
      kind: 'legacy_v1',
      name: 'v0 team token',
      status: 'active',
      scopes: [],
      expiresAt: null,
      region: ctx.config.region,
      cell: ctx.config.cell,
      createdAt: new Date(0).toISOString(),
      lastUsedAt: null,
    },
    teamWide: true,
    tokenMemberId: memberId,
  };
}

/** Actions that need a member (timers, call-note authorship) refuse a team token minted without one. */
export function requireTokenMember(op: { readonly tokenMemberId?: string | null }, what: string): void {
  if (op.tokenMemberId === null) throw new DomainError('forbidden', `${what} needs a member; this team token was not issued by a member`);
}
