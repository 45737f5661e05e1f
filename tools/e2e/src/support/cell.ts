import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createApiV1App } from '@workcell/api-v1';
import { createAuthApp } from '@workcell/auth';
import { V1_SCOPES } from '@workcell/credentials';
import { createWorkerApp } from '@workcell/worker';
import type { AppConfig } from '@workcell/config';
import { createDatabase, type Database, type DemoTokens, type GrantResourceType, issueCredential, seedDemoWorkspaceIfEmpty, inTransaction } from '@workcell/db';
import type { Logger } from '@workcell/http';
import { harnessMode, type RunningApp, startApp, testConfig, type TestEnvironment } from '@workcell/testing';
import { callApi, listAllPages, type Reply } from './v1.js';

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
  /** The cell's auth service (it also serves invitation acceptance, `/invitations/accept`). */
  readonly auth: RunningApp;
  /** The cell's worker (`worker.app.get(QueueRuntime)` reaches its queues and in-process deliveries). */
  readonly worker: Awaited<ReturnType<typeof startCellServices>>['worker'];
  /** A personal access token of the owner with these scopes. */
  mint(scopes: readonly string[]): Promise<string>;
  /**
   * A new active member of the workspace with one role holding these permission keys, and its personal access
   * tokens (a token acts with the intersection of its scopes and those permissions).
   */
  member(permissions: readonly string[]): Promise<{ memberId: string; email: string; mint(scopes: readonly string[]): Promise<string> }>;
  /**
   * A new active service account with one credential of these scopes and these resource grants (kernel/grants.ts):
   * `resourceId: null` grants every resource of the type. Returns the credential and the account id.
   */
  serviceAccount(scopes: readonly string[], grants: readonly SaGrant[]): Promise<{ token: string; serviceAccountId: string }>;
  /** The outbox events of one aggregate, in sequence order. */
  outbox(aggregateId: string, eventType?: string): ReturnType<Database['prisma']['outboxEvent']['findMany']>;
  /** A new workspace of the cell with no members (another tenant, for isolation tests): its id. */
  otherWorkspace(name?: string): Promise<string>;
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
  /**
   * Instances of each service, by default the harness mode's (WORKCELL_TEST_INSTANCES). A file whose subject is one
   * process's own state (a worker's in-process delivery pool) pins 1: a second worker would take part of its work.
   */
  readonly instances?: 1 | 2;
}

/**
 * The auth service and the worker of a cell, and the configuration its API instances run with. With
 * WORKCELL_TEST_INSTANCES=2 (harnessMode) a second auth service and a second worker run too, and `secondConfig`
 * points a second API instance at them; `close` ends those extra instances.
 */
export async function startCellServices(env: TestEnvironment, options: CellOptions = {}) {
  const { logger } = options;
  const startAuth = () => startApp((c) => createAuthApp(c, logger?.(c, 'auth')), env.config);
  const startWorker = () => startApp((c) => createWorkerApp(c, logger?.(c, 'worker')), env.config);
  const auth = await startAuth();
  const worker = await startWorker();
  // The API's discovery (getApiVersion) names this cell's auth service, where its pages and device login are.
  const apiConfig = (a: RunningApp, w: RunningApp) =>
    testConfig({ DATABASE_URL: env.databaseUrl, REDIS_PREFIX: env.redisPrefix, AUTH_INTERNAL_URL: a.url, WORKER_INTERNAL_URL: w.url, SIGN_IN_URL: `${a.url}/sign-in`, ...options.settings });
  const config = apiConfig(auth, worker);
  const second = (options.instances ?? harnessMode().instances) === 2 ? { auth: await startAuth(), worker: await startWorker() } : undefined;
  return {
    auth,
    worker,
    config,
    secondConfig: second ? apiConfig(second.auth, second.worker) : config,
    async close() {
      for (const app of [second?.worker, second?.auth, worker, auth]) await app?.close();
    },
  };
}

export async function startV1Cell(env: TestEnvironment, options: CellOptions = {}): Promise<V1Cell> {
  const database = createDatabase(env.config, { poolSize: 4 });
  const seeded = await seedDemoWorkspaceIfEmpty(database, env.config);
  assert.ok(seeded, 'the test database already had a workspace');
  const workspaceId = seeded.workspaceId;
  const ownerMemberId = (await database.prisma.workspaceMember.findFirstOrThrow({ where: { workspaceId } })).id;
  const services = await startCellServices(env, options);
  const { auth, worker, config } = services;
  const { logger } = options;
  const v1 = await startApp((c) => createApiV1App(c, logger?.(c, 'api-v1')), config);
  // In the two-instance mode, the second API instance uses the second auth service and worker.
  const v1b = await startApp((c) => createApiV1App(c, logger?.(c, 'api-v1')), services.secondConfig);
  let minted = 0;
  const mintFor = async (memberId: string, scopes: readonly string[]) =>
    (await inTransaction(database, (tx) => issueCredential(tx, config, { workspaceId, kind: 'personal_access_token', name: `pat-${++minted}`, scopes, memberId }))).token;
  return {
    database,
    workspaceId,
    ownerMemberId,
    demo: seeded,
    config,
    v1,
    v1b,
    auth,
    worker,
    mint: (scopes) => mintFor(ownerMemberId, scopes),
    member: (permissions) => addMember(database, config, workspaceId, permissions),
    serviceAccount: (scopes, grants) => addServiceAccount(database, config, { workspaceId, ownerMemberId }, scopes, grants),
    outbox: (aggregateId, eventType) => database.prisma.outboxEvent.findMany({ where: { workspaceId, aggregateId, ...(eventType ? { eventType } : {}) }, orderBy: { sequence: 'asc' } }),
    otherWorkspace: (name = 'Elsewhere') => otherWorkspace(database, config, name),
    async close() {
      for (const app of [v1b, v1]) await app.close();
      await services.close();
      await database.close();
    },
  };
}

let added = 0;

/** A new active member of the workspace with one role holding these permission keys, and a way to mint its tokens. */
export async function addMember(database: Database, config: AppConfig, workspaceId: string, permissions: readonly string[]) {
  const n = ++added;
  const user = await database.prisma.user.create({ data: { email: `member-${n}-${randomUUID()}@cell.test`, name: `Member ${n}` } });
  const memberId = (await database.prisma.workspaceMember.create({ data: { workspaceId, userId: user.id } })).id;
  const role = await database.prisma.role.create({ data: { workspaceId, name: `Role of member ${n} ${memberId}`, permissions: [...permissions] } });
  await database.prisma.memberRole.create({ data: { workspaceId, memberId, roleId: role.id } });
  const mint = async (scopes: readonly string[]) =>
    (await inTransaction(database, (tx) => issueCredential(tx, config, { workspaceId, kind: 'personal_access_token', name: `pat-of-${memberId}-${++added}`, scopes, memberId }))).token;
  return { memberId, email: user.email, mint };
}

/** A new active service account (owned by `ownerMemberId`) with one credential of these scopes and these resource grants. */
export async function addServiceAccount(database: Database, config: AppConfig, owner: { workspaceId: string; ownerMemberId: string }, scopes: readonly string[], grants: readonly SaGrant[]) {
  const { workspaceId, ownerMemberId } = owner;
  return inTransaction(database, async (tx) => {
    const account = await tx.prisma.serviceAccount.create({ data: { workspaceId, name: `sa-${++added}-${randomUUID().slice(0, 8)}`, ownerMemberId } });
    if (grants.length > 0) {
      await tx.prisma.resourceGrant.createMany({ data: grants.map((g) => ({ workspaceId, serviceAccountId: account.id, resourceType: g.resourceType, resourceId: g.resourceId, access: g.access })) });
    }
    const { token } = await issueCredential(tx, config, { workspaceId, kind: 'service_account', name: `sa-cred-${added}`, scopes, serviceAccountId: account.id });
    return { token, serviceAccountId: account.id };
  });
}

/** A new workspace of the cell with no members: its id. */
export async function otherWorkspace(database: Database, config: AppConfig, name = 'Elsewhere'): Promise<string> {
  return (await database.prisma.workspace.create({ data: { name, region: config.region, cell: config.cell } })).id;
}

/** A value of a fixture, which exists only once the fixture's beforeAll has run (or `missing` says when). */
export function fixtureValue<T>(what: string, value: T | undefined, missing = 'available only inside tests and hooks'): T {
  if (value === undefined) throw new Error(`${what}: ${missing}`);
  return value;
}

/** `fixture` with a getter for each of `names` that reads that field of `source()` (what the fixture's beforeAll made). */
export function withFields<F extends object, S, K extends keyof S>(fixture: F, source: () => S, names: readonly K[]): F & Pick<S, K> {
  for (const name of names) Object.defineProperty(fixture, name, { get: () => source()[name], enumerable: true });
  return fixture as F & Pick<S, K>;
}

/**
 * The V1Cell of a describe block, with `admin`, an owner token of every v1 scope: started in a beforeAll and
 * closed in an afterAll registered where useV1Cell is called (Jest runs both kinds of hook in the order they are
 * declared, so the block's own hooks declared after it see the cell running). Its fields are available inside
 * tests and hooks; its methods may be taken at once (`const { call } = cell`).
 */
export interface V1Fixture extends Omit<V1Cell, 'close'> {
  /** A personal access token of the owner with every v1 scope, minted when the cell starts. */
  readonly admin: string;
  /** A v1 request with this token (to `v1` unless another instance is given). */
  call<T = unknown>(method: string, path: string, token: string, body?: unknown, headers?: Record<string, string>, app?: RunningApp): Promise<Reply<T>>;
  /** Every item of a v1 list from `v1`, following links.next page by page (with `admin` unless another token is given). */
  listAll<T>(path: string, token?: string): Promise<T[]>;
}

/** Options of useV1Cell: those of startV1Cell, or a function giving them when the cell starts (after earlier beforeAll hooks). */
export type V1FixtureOptions = CellOptions | (() => CellOptions);

export function useV1Cell(env: TestEnvironment, options: V1FixtureOptions = {}): V1Fixture {
  let started: { cell: V1Cell; admin: string } | undefined;
  beforeAll(async () => {
    const cell = await startV1Cell(env, typeof options === 'function' ? options() : options);
    started = { cell, admin: await cell.mint(V1_SCOPES) };
  });
  afterAll(() => started?.cell.close());
  const running = () => fixtureValue('useV1Cell()', started);
  const cell = () => running().cell;
  const methods = {
    mint: (scopes: readonly string[]) => cell().mint(scopes),
    serviceAccount: (scopes: readonly string[], grants: readonly SaGrant[]) => cell().serviceAccount(scopes, grants),
    member: (permissions: readonly string[]) => cell().member(permissions),
    outbox: (aggregateId: string, eventType?: string) => cell().outbox(aggregateId, eventType),
    otherWorkspace: (name?: string) => cell().otherWorkspace(name),
    call: <T = unknown>(method: string, path: string, token: string, body?: unknown, headers: Record<string, string> = {}, app = cell().v1) => callApi<T>(app, method, path, token, body, headers),
    listAll: <T>(path: string, token = running().admin) => listAllPages<T>(cell().v1, path, token),
  };
  return withFields(withFields(methods, cell, ['database', 'workspaceId', 'ownerMemberId', 'demo', 'config', 'v1', 'v1b', 'auth', 'worker']), running, ['admin']);
}

/**
 * Makers of a new contact, project and task of the fixture's workspace, created through the API with `admin`, each
 * answering the new id: the targets that documents and custom field values attach to.
 */
export function targetsOf(cell: V1Fixture) {
  let seq = 0;
  const created = async (path: string, body: Record<string, unknown>) => {
    const reply = await cell.call<{ data: { id: string } }>('POST', path, cell.admin, body);
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    return reply.body.data.id;
  };
  return {
    contact: () => created('/v1/contacts', { kind: 'person', name: `Contact ${++seq}` }),
    project: () => created('/v1/projects', { name: `Project ${++seq}` }),
    task: () => created('/v1/tasks', { title: `Task ${++seq}` }),
  };
}
