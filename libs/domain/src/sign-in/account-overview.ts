import { listCredentialPage } from '@workcell/db';
import { type CredentialView, credentialView } from '../credentials/access.js';
import type { ProcedureContext } from '../kernel/procedure.js';
import { type AccountMember, accountMembers } from './account-member.js';

export interface AccountWorkspace extends Omit<AccountMember, 'subject'> {
  /** The member's personal access tokens that are still active (metadata only), oldest first. */
  readonly tokens: readonly CredentialView[];
}

/** `GET /account`: the person's workspaces and, in each, their active personal access tokens and what they may create. */
export async function accountOverview(ctx: ProcedureContext, userId: string): Promise<AccountWorkspace[]> {
  const now = ctx.now();
  const result: AccountWorkspace[] = [];
  for (const { subject: _subject, ...member } of await accountMembers(ctx, userId)) {
    const rows = await listCredentialPage(ctx.database, { workspaceId: member.workspaceId, owner: { memberId: member.memberId }, status: 'active', now, afterId: undefined, take: 200 });
    result.push({ ...member, tokens: rows.map((row) => credentialView(row, now)) });
  }
  return result;
}
