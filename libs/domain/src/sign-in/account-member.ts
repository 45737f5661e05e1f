import { V1_SCOPES } from '@workcell/credentials';
import { memberPermissionKeys, sessionMemberships } from '@workcell/db';
import type { PermissionSubject } from '../credentials/access.js';
import { PERSONAL_CREDENTIALS } from '../credentials/access.js';
import { DomainError } from '../kernel/errors.js';
import { isUuid } from '../kernel/ids.js';
import type { ProcedureContext } from '../kernel/procedure.js';

/** Who a signed-in person acts as in one workspace on the account page: their membership there, as a permission subject. */
export interface AccountMember {
  readonly workspaceId: string;
  readonly workspaceName: string;
  readonly memberId: string;
  /** The scopes a token of theirs may carry: the v1 scopes their current roles grant (a token acts with no more anyway). */
  readonly grantableScopes: readonly string[];
  readonly mayCreateTokens: boolean;
  readonly subject: PermissionSubject;
}

const SCOPES = new Set<string>(V1_SCOPES);

/** The person's active memberships with what each allows, read now (never cached). */
export async function accountMembers(ctx: ProcedureContext, userId: string): Promise<AccountMember[]> {
  const members: AccountMember[] = [];
  for (const m of await sessionMemberships(ctx.database, userId)) {
    const permissions = await memberPermissionKeys(ctx.database, m.workspaceId, m.memberId);
    const grantableScopes = permissions.filter((p) => SCOPES.has(p)).sort();
    members.push({
      ...m,
      grantableScopes,
      mayCreateTokens: permissions.includes(PERSONAL_CREDENTIALS),
      subject: { workspaceId: m.workspaceId, principal: { type: 'member', id: m.memberId }, effectiveScopes: grantableScopes },
    });
  }
  return members;
}

/** The person's membership in this workspace; 404 when they have none (or it is not active). */
export async function accountMember(ctx: ProcedureContext, userId: string, workspaceId: unknown): Promise<AccountMember> {
  if (typeof workspaceId !== 'string' || !isUuid(workspaceId)) throw new DomainError('not_found', 'workspace not found');
  const member = (await accountMembers(ctx, userId)).find((m) => m.workspaceId === workspaceId.toLowerCase());
  if (!member) throw new DomainError('not_found', 'workspace not found');
  return member;
}
