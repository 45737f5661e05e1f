import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createApiV0App } from '@workcell/api-v0';
import { createApiV1App } from '@workcell/api-v1';
import type { AppConfig } from '@workcell/config';
import { createDatabase, type Database, type DemoTokens, issueCredential, issueTeamToken, seedDemoWorkspaceIfEmpty, inTransaction } from '@workcell/db';
import { harnessMode, type RunningApp, startApp, type TestEnvironment } from '@workcell/testing';
import { type CellOptions, fixtureValue, otherWorkspace, startCellServices, withFields } from './cell.js';
import { startBalancer } from './front-door.js';

/** A v0 reply: status, parsed body (or the raw text when it is not JSON), the text and headers. */
export interface LegacyReply<T = unknown> {
  readonly status: number;
  readonly body: T;
  readonly text: string;
  readonly headers: Headers;
}

/** Sends a v0 request (a string or byte body is sent as is, anything else as JSON); redirects are not followed. */
export async function callV0<T = unknown>(
  app: Pick<RunningApp, 'url'>,
  method: string,
  path: string,
  token: string | undefined,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<LegacyReply<T>> {
  const res = await fetch(`${app.url}${path}`, {
    method,
    // GET / is a redirect to v1's discovery document: the test wants the 302 itself.
    redirect: 'manual',
    headers: { ...(token === undefined ? {} : { authorization: `Bearer ${token}` }), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body) }),
  });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  return { status: res.status, body: parsed as T, text, headers: res.headers };
}

/** The legacy error of a reply, asserting its exact shape `{ error: { code, message } }`. */
export function legacyErrorOf(reply: LegacyReply): { code: string; message: string } {
  const error = (reply.body as { error?: { code: string; message: string } } | undefined)?.error;
  assert.ok(error && typeof error.code === 'string' && typeof error.message === 'string', `expected the legacy error shape, got ${reply.status} ${reply.text}`);
  assert.deepEqual(Object.keys(reply.body as object), ['error']);
  return error;
}

/** The reply is the legacy error `{ error: { code, message } }` with this status (and, if given, this code). */
export function assertLegacyError(reply: LegacyReply, status: number, code?: string): { code: string; message: string } {
  assert.equal(reply.status, status, reply.text);
  const error = legacyErrorOf(reply);
  if (code) assert.equal(error.code, code);
  return error;
}

/** The Deprecation header of every v0 response: 1 January 2026 as `@<epoch seconds>`. */
export const V0_DEPRECATION = `@${Date.UTC(2026, 0, 1) / 1000}`;

/** The reply carries the v0 Deprecation header and a successor-version Link to this v1 path. */
export function assertDeprecated(reply: Pick<LegacyReply, 'headers'>, config: AppConfig, v1Path: string): void {
  assert.equal(reply.headers.get('deprecation'), V0_DEPRECATION);
  assert.equal(reply.headers.get('link'), `<${config.baseUrls.v1}${v1Path}>; rel="successor-version"`);
}

/** A team (workspace) with one active member and a way to mint team tokens issued by that member. */
export interface Team {
  readonly workspaceId: string;
  readonly memberId: string;
  /** A fresh team token (the v0 rate limit is per token and path). */
  token(options?: { withoutMember?: boolean }): Promise<string>;
}

/** A v0 cell for one test file: the seeded demo team, the auth service, the worker and an api-v0 instance. */
export interface V0Cell {
  readonly database: Database;
  readonly config: AppConfig;
  readonly v0: RunningApp;
  /** An api-v1 instance of the same cell, when asked for with `{ v1: true }`. */
  readonly v1: RunningApp | undefined;
  /** The seeded demo team. */
  readonly team: Team;
  /** The tokens the demo seed issued (its team token, calendar feed token, personal access token, ...). */
  readonly demo: DemoTokens;
  /** Another team of the same cell, with its own member. */
  otherTeam(name?: string): Promise<Team>;
  /** A new workspace of the cell with no members (another team, for isolation tests): its id. */
  otherWorkspace(name?: string): Promise<string>;
  /** A fresh team token issued by this member (`null`: by nobody) of this workspace (by default the demo team's owner and team). */
  teamToken(createdByMemberId?: string | null, workspaceId?: string): Promise<string>;
  /** A v1 personal access token of the demo team's owner with these scopes. */
  mint(scopes: readonly string[]): Promise<string>;
  close(): Promise<void>;
}

export interface V0CellOptions extends CellOptions {
  /** Also start an api-v1 instance (for tests that compare v0 with v1). */
  readonly v1?: boolean;
}

export async function startV0Cell(env: TestEnvironment, options: V0CellOptions = {}): Promise<V0Cell> {
  const database = createDatabase(env.config, { poolSize: 4 });
  const seeded = await seedDemoWorkspaceIfEmpty(database, env.config);
  assert.ok(seeded, 'the test database already had a workspace');
  const services = await startCellServices(env, options);
  const { config } = services;
  const { logger } = options;
  const v0a = await startApp((c) => createApiV0App(c, logger?.(c, 'api-v0')), config);
  // In the two-instance mode (harnessMode), requests alternate between two api-v0 instances behind a balancer.
  const v0b = (options.instances ?? harnessMode().instances) === 2 ? await startApp((c) => createApiV0App(c, logger?.(c, 'api-v0')), services.secondConfig) : undefined;
  const balancer = v0b ? await startBalancer([v0a.url, v0b.url]) : undefined;
  const v0: RunningApp = balancer
    ? { app: v0a.app, url: balancer.url, port: Number(new URL(balancer.url).port), close: async () => (await balancer.close(), await v0b?.close(), await v0a.close()) }
    : v0a;
  const v1 = options.v1 ? await startApp((c) => createApiV1App(c, logger?.(c, 'api-v1')), config) : undefined;
  let minted = 0;
  const teamToken = (workspaceId: string, createdByMemberId: string | null) => inTransaction(database, (tx) => issueTeamToken(tx, config, { workspaceId, name: `v0-${++minted}`, createdByMemberId }));
  const teamOf = (workspaceId: string, memberId: string): Team => ({
    workspaceId,
    memberId,
    token: (options = {}) => teamToken(workspaceId, options.withoutMember ? null : memberId),
  });
  const ownerMemberId = (await database.prisma.workspaceMember.findFirstOrThrow({ where: { workspaceId: seeded.workspaceId } })).id;
  return {
    database,
    config,
    v0,
    v1,
    team: teamOf(seeded.workspaceId, ownerMemberId),
    demo: seeded,
    async otherTeam(name = 'Other team') {
      const workspace = await database.prisma.workspace.create({ data: { name, region: config.region, cell: config.cell } });
      const user = await database.prisma.user.create({ data: { email: `${randomUUID()}@example.test`, name: `${name} member` } });
      const member = await database.prisma.workspaceMember.create({ data: { workspaceId: workspace.id, userId: user.id } });
      return teamOf(workspace.id, member.id);
    },
    otherWorkspace: (name = 'Elsewhere') => otherWorkspace(database, config, name),
    teamToken: (createdByMemberId = ownerMemberId, workspaceId = seeded.workspaceId) => teamToken(workspaceId, createdByMemberId),
    mint: async (scopes) =>
      (await inTransaction(database, (tx) => issueCredential(tx, config, { workspaceId: seeded.workspaceId, kind: 'personal_access_token', name: `pat-${++minted}`, scopes, memberId: ownerMemberId })))
        .token,
    async close() {
      for (const app of [v1, v0]) await app?.close();
      await services.close();
      await database.close();
    },
  };
}

/**
 * The V0Cell of a describe block, started and closed as useV1Cell does (support/cell.ts). Its fields are
 * available inside tests and hooks; its methods may be taken at once (`const { teamToken } = cell`).
 */
export interface V0Fixture extends Omit<V0Cell, 'v1' | 'close'> {
  /** The cell's api-v1 instance (only with `{ v1: true }`). */
  readonly v1: RunningApp;
  /** The demo team's workspace id. */
  readonly workspaceId: string;
  /** The demo team's owner (the member its team tokens are issued by). */
  readonly ownerMemberId: string;
}

export function useV0Cell(env: TestEnvironment, options: V0CellOptions = {}): V0Fixture {
  let started: V0Cell | undefined;
  beforeAll(async () => {
    started = await startV0Cell(env, options);
  });
  afterAll(() => started?.close());
  const cell = () => fixtureValue('useV0Cell()', started);
  const methods = {
    otherTeam: (name?: string) => cell().otherTeam(name),
    otherWorkspace: (name?: string) => cell().otherWorkspace(name),
    teamToken: (createdByMemberId?: string | null, workspaceId?: string) => cell().teamToken(createdByMemberId, workspaceId),
    mint: (scopes: readonly string[]) => cell().mint(scopes),
  };
  const fields = withFields(methods, cell, ['database', 'config', 'v0', 'team', 'demo']);
  const team = () => ({ workspaceId: cell().team.workspaceId, ownerMemberId: cell().team.memberId });
  const v1 = () => ({ v1: fixtureValue('useV0Cell().v1', cell().v1, 'only with { v1: true }') });
  return withFields(withFields(fields, team, ['workspaceId', 'ownerMemberId']), v1, ['v1']);
}

/** The v0 collections with writes, a minimal create body (given one of the caller's contacts) and an update body. */
export const V0_RECIPES: Record<string, { create: (contactId: string) => Record<string, unknown>; update?: Record<string, unknown> }> = {
  tasks: { create: () => ({ title: 'Sample task' }), update: { title: 'Hijacked' } },
  projects: { create: () => ({ name: 'Sample project' }), update: { name: 'Hijacked' } },
  contacts: { create: () => ({ kind: 'person', name: 'Sample contact' }), update: { name: 'Hijacked' } },
  callnotes: { create: (contactId) => ({ contactId, content: 'Sample note' }) },
  lists: { create: () => ({ name: 'Sample list', kind: 'tasks' }), update: { name: 'Hijacked' } },
  products: { create: () => ({ name: 'Sample product', unit: 'piece' }), update: { name: 'Hijacked' } },
  productgroups: { create: () => ({ name: 'Sample group' }), update: { name: 'Hijacked' } },
  times: { create: () => ({ startedAt: new Date(Date.now() - 86_400_000).toISOString(), durationSeconds: 600 }), update: { note: 'Hijacked' } },
  webhooks: { create: () => ({ url: 'https://example.test/hook' }) },
};
