import type { AppConfig } from '@workcell/config';
import { type V1Scope, V1_SCOPES, verifierFor } from '@workcell/credentials';
import { issueCredential, issueFeedToken, issueTeamToken } from './credentials.js';
import type { Db } from './database.js';
import { inAuthorizationTransaction, inTransaction } from './transactions.js';
import { foundWorkspace } from './workspace-provisioning.js';

/**
 * The demo workspace that `npm start` creates on an empty database: an owner, a v0 team token, a v1
 * personal access token, a service account with its credential, and a few projects, tasks and time
 * entries. Tokens are minted here and returned once; only their verifiers are stored.
 */

export const DEMO_WORKSPACE_NAME = 'Demo Workspace';
export const DEMO_OWNER_EMAIL = 'owner@demo.workcell.test';
const DEMO_TOKEN_NAME = 'Demo';

export interface DemoTokens {
  readonly workspaceId: string;
  readonly v0TeamToken: string;
  readonly personalAccessToken: string;
  readonly serviceAccountCredential: string;
  /** The owner's calendar feed token (v0 `GET /calendar/{token}.ics`). */
  readonly calendarFeedToken: string;
}

/** Finance, sensitive administration and run scopes stay off the demo service account: least privilege. */
const SERVICE_ACCOUNT_SCOPES: readonly V1Scope[] = ['workspace:read', 'projects:read', 'tasks:read', 'tasks:write', 'time-entries:read', 'time-entries:write'];

const DEMO_GRANTS = [
  { resourceType: 'project', access: 'read' },
  { resourceType: 'task', access: 'write' },
  { resourceType: 'time_entry', access: 'write' },
] as const;

/**
 * Service accounts act within their resource grants: the demo integration reads every project and works on every
 * task and time entry, matching its scopes. Idempotent (a refresh of an older demo workspace adds what is missing).
 */
async function grantDemoAccess(tx: Db, workspaceId: string, serviceAccountId: string): Promise<void> {
  await tx.prisma.resourceGrant.createMany({
    data: DEMO_GRANTS.map((g) => ({ workspaceId, serviceAccountId, resourceType: g.resourceType, resourceId: null, access: g.access })),
    skipDuplicates: true,
  });
}

async function issueDemoTokens(tx: Db, config: AppConfig, workspaceId: string, ownerMemberId: string, serviceAccountId: string): Promise<DemoTokens> {
  return {
    workspaceId,
    v0TeamToken: await issueTeamToken(tx, config, { workspaceId, name: `${DEMO_TOKEN_NAME} v0 team token`, createdByMemberId: ownerMemberId }),
    personalAccessToken: (
      await issueCredential(tx, config, {
        workspaceId,
        kind: 'personal_access_token',
        name: `${DEMO_TOKEN_NAME} personal access token`,
        scopes: V1_SCOPES,
        memberId: ownerMemberId,
      })
    ).token,
    serviceAccountCredential: (
      await issueCredential(tx, config, {
        workspaceId,
        kind: 'service_account',
        name: `${DEMO_TOKEN_NAME} service account credential`,
        scopes: SERVICE_ACCOUNT_SCOPES,
        serviceAccountId,
      })
    ).token,
    calendarFeedToken: await issueFeedToken(tx, config, { workspaceId, memberId: ownerMemberId, name: `${DEMO_TOKEN_NAME} calendar feed` }),
  };
}

/** Seeds the demo workspace when the database has no workspace at all; returns its tokens, or null if it did nothing. */
export async function seedDemoWorkspaceIfEmpty(database: Db, config: AppConfig): Promise<DemoTokens | null> {
  return inTransaction(database, async (tx) => {
    // Serialises concurrent seeders (two `npm start`s) so the emptiness check and the inserts are one step.
    await tx.prisma.$executeRaw`SELECT pg_advisory_xact_lock(7763736565)`;
    if ((await tx.prisma.workspace.count()) > 0) return null;

    const { workspaceId, administratorMemberId } = await foundWorkspace(tx, config, { name: DEMO_WORKSPACE_NAME, administrator: { email: DEMO_OWNER_EMAIL, name: 'Demo Owner' } });
    const owner = { id: administratorMemberId };
    const serviceAccount = await tx.prisma.serviceAccount.create({ data: { workspaceId, name: 'Demo integration', ownerMemberId: owner.id } });
    await grantDemoAccess(tx, workspaceId, serviceAccount.id);

    const projects = [];
    for (const name of ['Website relaunch', 'Quarterly close', 'Customer onboarding']) {
      projects.push(await tx.prisma.project.create({ data: { workspaceId, name } }));
    }
    const tasks = [];
    for (const [i, title] of ['Draft sitemap', 'Review copy', 'Reconcile accounts', 'Prepare report', 'Kick-off call', 'Send welcome pack'].entries()) {
      const dueDate = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + 2 + i));
      tasks.push(await tx.prisma.task.create({ data: { workspaceId, projectId: projects[Math.floor(i / 2)]!.id, title, assigneeMemberId: owner.id, dueDate } }));
    }
    const day = 24 * 3600 * 1000;
    for (const [i, task] of tasks.slice(0, 4).entries()) {
      const startedAt = new Date(Date.now() - (i + 1) * day);
      await tx.prisma.timeEntry.create({
        data: {
          workspaceId,
          memberId: owner.id,
          projectId: task.projectId,
          taskId: task.id,
          description: `Worked on ${task.title}`,
          startedAt,
          stoppedAt: new Date(startedAt.getTime() + 90 * 60 * 1000),
          durationSeconds: 90 * 60,
        },
      });
    }
    const tomorrow = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + 1, 9));
    for (const [i, task] of tasks.slice(0, 2).entries()) {
      const windowStart = new Date(tomorrow.getTime() + i * 3 * 3600 * 1000);
      await tx.prisma.plannedWork.create({ data: { workspaceId, memberId: owner.id, taskId: task.id, windowStart, windowEnd: new Date(windowStart.getTime() + 2 * 3600 * 1000), minutes: 120 } });
    }
    return issueDemoTokens(tx, config, workspaceId, owner.id, serviceAccount.id);
  });
}

/**
 * For an already-seeded demo workspace: revokes the demo tokens minted earlier and mints new ones, so a
 * developer who lost the printed tokens gets working ones. Touches nothing but the demo workspace's demo tokens.
 */
export async function refreshDemoTokens(database: Db, config: AppConfig): Promise<DemoTokens | null> {
  const workspace = await database.prisma.workspace.findFirst({ where: { name: DEMO_WORKSPACE_NAME }, orderBy: { createdAt: 'asc' }, select: { id: true } });
  if (!workspace) return null;
  const workspaceId = workspace.id;
  // Revoking tokens that running services may have verified: an authorization change (Database.changeAuthorization).
  return inAuthorizationTransaction(database, workspaceId, async (tx) => {
    const owner = await tx.prisma.workspaceMember.findFirst({ where: { workspaceId, user: { email: DEMO_OWNER_EMAIL } } });
    const serviceAccount = await tx.prisma.serviceAccount.findFirst({ where: { workspaceId, name: 'Demo integration' } });
    if (!owner || !serviceAccount) return null;
    await grantDemoAccess(tx, workspaceId, serviceAccount.id);
    const now = new Date();
    const demo = { startsWith: DEMO_TOKEN_NAME };
    await tx.prisma.teamToken.updateMany({ where: { workspaceId, name: demo, revokedAt: null }, data: { revokedAt: now } });
    await tx.prisma.calendarFeedToken.updateMany({ where: { workspaceId, name: demo, revokedAt: null }, data: { revokedAt: now } });
    await tx.prisma.credential.updateMany({
      where: { workspaceId, name: demo, status: 'active' },
      data: { status: 'revoked', revokedAt: now, revision: { increment: 1 } },
    });
    return issueDemoTokens(tx, config, workspaceId, owner.id, serviceAccount.id);
  });
}

/**
 * Whether demo tokens printed earlier (kept by `npm start -- --keep-demo-tokens`) all still work in this database:
 * each is found by its verifier in the demo workspace and is neither revoked nor expired. A token from another
 * database, another credential secret or an earlier refresh is not.
 */
export async function demoTokensStillActive(database: Db, config: AppConfig, tokens: DemoTokens): Promise<boolean> {
  const lookup = (secret: string) => database.prisma.credentialLookup.findUnique({ where: { verifier: verifierFor(config.credentialSecret, secret) } });
  const [team, personal, service, feed] = await Promise.all([
    lookup(tokens.v0TeamToken),
    lookup(tokens.personalAccessToken),
    lookup(tokens.serviceAccountCredential),
    lookup(`feed:${tokens.calendarFeedToken}`),
  ]);
  if (!team || !personal || !service || !feed) return false;
  if ([team, personal, service, feed].some((row) => row.workspaceId !== tokens.workspaceId)) return false;
  const now = new Date();
  const credentials = await database.prisma.credential.count({ where: { id: { in: [personal.tokenId, service.tokenId] }, status: 'active', OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] } });
  const teamActive = await database.prisma.teamToken.count({ where: { id: team.tokenId, revokedAt: null } });
  const feedActive = await database.prisma.calendarFeedToken.count({ where: { id: feed.tokenId, revokedAt: null } });
  return credentials === 2 && teamActive === 1 && feedActive === 1;
}
