import type { AppConfig } from '@workcell/config';
import { PERMISSION_KEYS, V1_SCOPES } from '@workcell/credentials';
import { issueCredential } from './credentials.js';
import type { Db } from './database.js';
import { inTransaction } from './transactions.js';

/** The built-in role a new workspace's first administrator holds: every permission key (docs/members-and-workspace.md). */
export const OWNER_ROLE_NAME = 'Owner';

export interface WorkspaceFounding {
  readonly name: string;
  readonly administrator: { readonly email: string; readonly name: string };
}

export interface FoundedWorkspace {
  readonly workspaceId: string;
  readonly administratorMemberId: string;
  readonly ownerRoleId: string;
}

/**
 * A workspace of this cell (the configured region and cell) with its first administrator: the user (an existing
 * user of that e-mail address is reused: people belong to several workspaces), the active member, and the
 * built-in Owner role holding every permission key, so the workspace starts with the one administrator the
 * last-administrator rule requires. Used by the demo seed and by `npm run workspace:create`.
 */
export async function foundWorkspace(tx: Db, config: AppConfig, founding: WorkspaceFounding): Promise<FoundedWorkspace> {
  const workspace = await tx.prisma.workspace.create({ data: { name: founding.name, region: config.region, cell: config.cell } });
  const workspaceId = workspace.id;
  const email = founding.administrator.email.toLowerCase();
  const user = await tx.prisma.user.upsert({ where: { email }, update: {}, create: { email, name: founding.administrator.name } });
  const member = await tx.prisma.workspaceMember.create({ data: { workspaceId, userId: user.id } });
  const role = await tx.prisma.role.create({ data: { workspaceId, name: OWNER_ROLE_NAME, description: 'Every permission of the workspace', permissions: [...PERMISSION_KEYS], isSystem: true } });
  await tx.prisma.memberRole.create({ data: { workspaceId, memberId: member.id, roleId: role.id } });
  return { workspaceId, administratorMemberId: member.id, ownerRoleId: role.id };
}

export interface CreatedWorkspace extends FoundedWorkspace {
  /** The administrator's first personal access token (every scope), shown once: only its verifier is stored. */
  readonly personalAccessToken: string;
  readonly personalAccessTokenId: string;
}

/**
 * A real workspace for production use, in one transaction: founded as above, with the administrator's first
 * personal access token (every v1 scope; the token acts with the intersection of its scopes and the member's
 * permissions, contract 5.2). Everything else (members, service accounts, further tokens) is then made through
 * the API with that token.
 */
export async function createWorkspace(database: Db, config: AppConfig, founding: WorkspaceFounding, tokenExpiresAt: Date | null = null): Promise<CreatedWorkspace> {
  return inTransaction(database, async (tx) => {
    const founded = await foundWorkspace(tx, config, founding);
    const credential = await issueCredential(tx, config, {
      workspaceId: founded.workspaceId,
      kind: 'personal_access_token',
      name: 'First administrator token',
      scopes: V1_SCOPES,
      memberId: founded.administratorMemberId,
      expiresAt: tokenExpiresAt,
    });
    return { ...founded, personalAccessToken: credential.token, personalAccessTokenId: credential.id };
  });
}
