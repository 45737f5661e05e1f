import assert from 'node:assert/strict';
import { createApiV1App } from '@workcell/api-v1';
import { createAuthApp } from '@workcell/auth';
import { createWorkerApp } from '@workcell/worker';
import type { AppConfig } from '@workcell/config';
import { createDatabase, type Database, type DemoTokens, type GrantResourceType, issueCredential, seedDemoWorkspaceIfEmpty } from '@workcell/db';
import type { Logger } from '@workcell/http';
import { type RunningApp, startApp, testConfig, type TestEnvironment } from '@workcell/testing';

/**
 * A whole cell for one test file: the seeded demo workspace, the auth service and the worker, and two
 * api-v1 instances sharing them (so immediacy and concurrency can be tested across instances).
 */
export interface V1Cell {
  readonly database: Database;
  readonly workspaceId: string;
  readonly ownerMemberId: string;
  /** The tokens the demo seed issued (its personal access token, service-account credential, team token). */
  readonly demo: DemoTokens;
  readonly config: AppConfig;
  readonly v1: RunningApp;
  readonly v1b: RunningApp;
  /** The cell's worker (`worker.app.get(QueueRuntime)` reaches its queues and in-process deliveries). */
  readonly worker: Awaited<ReturnType<typeof startCellServices>>['worker'];
  /** A personal access token of the owner with these scopes. */
  mint(scopes: readonly string[]): Promise<string>;
  /**
   * A new active member of the workspace with one role holding these permission keys, and its personal access
   * tokens (a token acts with the intersection of its scopes and those permissions).
   */
  member(permissions: readonly string[]): Promise<{ memberId: string; mint(scopes: readonly string[]): Promise<string> }>;
  /**
   * A new active service account with one credential of these scopes and these resource grants (kernel/grants.ts):
   * `resourceId: null` grants every resource of the type. Returns the credential and the account id.
   */
  serviceAccount(scopes: readonly string[], grants: readonly SaGrant[]): Promise<{ token: string; serviceAccountId: string }>;
  /** The outbox events of one aggregate, in sequence order. */
  outbox(aggregateId: string, eventType?: string): ReturnType<Database['prisma']['outboxEvent']['findMany']>;
  close(): Promise<void>;
}

export interface SaGrant {
  readonly resourceType: GrantResourceType;
  readonly resourceId: string | null;
  readonly access: 'read' | 'write';
}

/** What a test file may change about the services of its cell. */
export interface CellOptions {
  /** The logger each service is built with (by default, or when it returns undefined, each app's own). */
  readonly logger?: (config: AppConfig, service: 'auth' | 'worker' | 'api-v0' | 'api-v1') => Logger | undefined;
  /** Further settings (environment names, as for testConfig) of the API instances' configuration. */
  readonly settings?: Readonly<Record<string, string>>;
}

/** The auth service and the worker of a cell, and the configuration its API instances run with. */
export async function startCellServices(env: TestEnvironment, options: CellOptions = {}) {
  const { logger } = options;
  const auth = await startApp((c) => createAuthApp(c, logger?.(c, 'auth')), env.config);
  const worker = await startApp((c) => createWorkerApp(c, logger?.(c, 'worker')), env.config);
  const config = testConfig({ DATABASE_URL: env.databaseUrl, REDIS_PREFIX: env.redisPrefix, AUTH_INTERNAL_URL: auth.url, WORKER_INTERNAL_URL: worker.url, ...options.settings });
  return { auth, worker, config };
}

export async function startV1Cell(env: TestEnvironment, options: CellOptions = {}): Promise<V1Cell> {
  const database = createDatabase(env.config, { poolSize: 4 });
  const seeded = await seedDemoWorkspaceIfEmpty(database, env.config);
  assert.ok(seeded, 'the test database already had a workspace');
  const workspaceId = seeded.workspaceId;
  const ownerMemberId = (await database.prisma.workspaceMember.findFirstOrThrow({ where: { workspaceId } })).id;
  const { auth, worker, config } = await startCellServices(env, options);
  const { logger } = options;
  const v1 = await startApp((c) => createApiV1App(c, logger?.(c, 'api-v1')), config);
  const v1b = await startApp((c) => createApiV1App(c, logger?.(c, 'api-v1')), config);
  let minted = 0;
  const mintFor = async (memberId: string, scopes: readonly string[]) =>
    (await database.prisma.$transaction((tx) => issueCredential(tx, config, { workspaceId, kind: 'personal_access_token', name: `pat-${++minted}`, scopes, memberId }))).token;
  return {
    database,
    workspaceId,
    ownerMemberId,
    demo: seeded,
    config,
    v1,
    v1b,
    worker,
    mint: (scopes) => mintFor(ownerMemberId, scopes),
    member: async (permissions) => {
      const n = ++minted;
      const user = await database.prisma.user.create({ data: { email: `member-${n}-${workspaceId}@cell.test`, name: `Member ${n}` } });
      const memberId = (await database.prisma.workspaceMember.create({ data: { workspaceId, userId: user.id } })).id;
      const role = await database.prisma.role.create({ data: { workspaceId, name: `Role of member ${n}`, permissions: [...permissions] } });
      await database.prisma.memberRole.create({ data: { workspaceId, memberId, roleId: role.id } });
      return { memberId, mint: (scopes) => mintFor(memberId, scopes) };
    },
    serviceAccount: async (scopes, grants) =>
      database.prisma.$transaction(async (tx) => {
        const account = await tx.serviceAccount.create({ data: { workspaceId, name: `sa-${++minted}`, ownerMemberId } });
        if (grants.length > 0) {
          await tx.resourceGrant.createMany({ data: grants.map((g) => ({ workspaceId, serviceAccountId: account.id, resourceType: g.resourceType, resourceId: g.resourceId, access: g.access })) });
        }
        const { token } = await issueCredential(tx, config, { workspaceId, kind: 'service_account', name: `sa-cred-${minted}`, scopes, serviceAccountId: account.id });
        return { token, serviceAccountId: account.id };
      }),
    outbox: (aggregateId, eventType) =>
      database.prisma.outboxEvent.findMany({ where: { workspaceId, aggregateId, ...(eventType ? { eventType } : {}) }, orderBy: { sequence: 'asc' } }),
    async close() {
      for (const app of [v1b, v1, worker, auth]) await app.close();
      await database.close();
    },
  };
}
