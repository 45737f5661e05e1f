import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { createApiV0App } from '@workcell/api-v0';
import { createApiV1App } from '@workcell/api-v1';
import { createAuthApp } from '@workcell/auth';
import { createWorkerApp } from '@workcell/worker';
import { createDatabase, type Database, type DemoTokens, issueTeamToken, seedDemoWorkspaceIfEmpty, inTransaction } from '@workcell/db';
import { type Impostor, postgresRefusing, redisReplying, type RunningApp, startApp, TcpProxy, testConfig, useTestEnvironment } from '@workcell/testing';

/**
 * Issue 10, dependency faults: PostgreSQL, Redis and the auth service, each cut (refused/reset) and black-holed
 * (every byte dropped, nothing closed: a partition), and (issue 25) PostgreSQL refusing every session with 53300
 * and Redis answering -LOADING (up, but refusing the work: an impostor behind the proxy), under a steady load of reads and writes on both APIs and the
 * readiness probes. Every answer, for requests in flight when the fault starts and for new ones, is a 2xx or a
 * 503 `service_unavailable` with Retry-After in the generation's error shape (never a 500, never a hang), within
 * DEPENDENCY_TIMEOUT_MS plus a margin; every service recovers by itself after the fault; every write answered
 * 2xx is in the database afterwards.
 *
 * Every service reaches PostgreSQL and Redis through one proxy each, and the API apps reach the auth service
 * through a third, as a network partition would cut them.
 */

const TIMEOUT_MS = 1_000;
/** Generous: the whole cell and the load run in this one process on a loaded machine. */
const BOUND_MS = TIMEOUT_MS + 1_500;

const env = useTestEnvironment();

interface Outcome {
  readonly label: string;
  readonly status: number;
  readonly startedAt: number;
  readonly ms: number;
  readonly retryAfter: string | null;
  readonly body: unknown;
}

describe('dependency faults: PostgreSQL, Redis and the auth service cut, black-holed and refusing the work', () => {
  let database: Database;
  let demo: DemoTokens;
  let workspaceId: string;
  let memberId: string;
  let pg: TcpProxy;
  let redis: TcpProxy;
  let authProxy: TcpProxy;
  let auth: RunningApp;
  let worker: RunningApp;
  let v1: RunningApp;
  let v0: RunningApp;
  const createdTags: string[] = [];
  const createdTasks: string[] = [];
  let seq = 0;

  beforeAll(async () => {
    database = createDatabase(env.config, { poolSize: 2 });
    demo = (await seedDemoWorkspaceIfEmpty(database, env.config))!;
    workspaceId = demo.workspaceId;
    memberId = (await database.prisma.workspaceMember.findFirstOrThrow({ where: { workspaceId } })).id;
    pg = await TcpProxy.start(env.databaseUrl);
    redis = await TcpProxy.start(env.config.redis.url);
    const base = {
      DATABASE_URL: pg.rewrite(env.databaseUrl),
      REDIS_URL: redis.rewrite(env.config.redis.url),
      REDIS_PREFIX: env.redisPrefix,
      DEPENDENCY_TIMEOUT_MS: String(TIMEOUT_MS),
    };
    auth = await startApp(createAuthApp, testConfig(base));
    worker = await startApp(createWorkerApp, testConfig(base));
    authProxy = await TcpProxy.start(auth.url);
    const apiConfig = testConfig({ ...base, AUTH_INTERNAL_URL: authProxy.rewrite(auth.url).replace(/\/$/, ''), WORKER_INTERNAL_URL: worker.url });
    v1 = await startApp(createApiV1App, apiConfig);
    v0 = await startApp(createApiV0App, apiConfig);
  });
  afterAll(async () => {
    for (const app of [v0, v1, worker, auth]) await app?.close();
    for (const proxy of [authProxy, redis, pg]) await proxy?.close();
    await database?.close();
  });

  /** One request, timed from sending to the response; a hang is cut off (and fails the bound) well after it. */
  async function send(label: string, url: string, init: RequestInit = {}): Promise<Outcome> {
    const started = performance.now();
    try {
      const res = await fetch(url, { ...init, signal: AbortSignal.timeout(BOUND_MS + 10_000) });
      const ms = performance.now() - started;
      const text = await res.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // not JSON: kept as text for the message
      }
      if (res.status === 201 && label === 'v1 POST /v1/tags') createdTags.push((body as { data: { id: string } }).data.id);
      if (res.status === 201 && label === 'v0 POST /tasks') createdTasks.push((body as { _id: string })._id);
      return { label, status: res.status, startedAt: started, ms, retryAfter: res.headers.get('retry-after'), body };
    } catch (error) {
      return { label, status: 0, startedAt: started, ms: performance.now() - started, retryAfter: null, body: String(error) };
    }
  }

  /** The mix the load and the probes send: reads and writes on both APIs, and the readiness of every service. */
  function operations(v0Token: string) {
    const v1Headers = { authorization: `Bearer ${demo.personalAccessToken}`, 'content-type': 'application/json' };
    const v0Headers = { authorization: `Bearer ${v0Token}`, 'content-type': 'application/json' };
    return [
      () => send('v1 GET /v1/tags', `${v1.url}/v1/tags`, { headers: v1Headers }),
      () => send('v1 POST /v1/tags', `${v1.url}/v1/tags`, { method: 'POST', headers: v1Headers, body: JSON.stringify({ name: `Fault tag ${++seq}` }) }),
      () => send('v0 GET /tasks', `${v0.url}/tasks`, { headers: v0Headers }),
      () => send('v0 POST /tasks', `${v0.url}/tasks`, { method: 'POST', headers: v0Headers, body: JSON.stringify({ title: `Fault task ${++seq}` }) }),
      () => send('v1 GET /readyz', `${v1.url}/readyz`),
      () => send('worker GET /readyz', `${worker.url}/readyz`),
    ];
  }

  /** An operation served by the auth service (a credential minted for the demo member). */
  const createCredential = () =>
    send('v1 POST /v1/credentials', `${v1.url}/v1/credentials`, {
      method: 'POST',
      headers: { authorization: `Bearer ${demo.personalAccessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `fault credential ${++seq}`, scopes: ['workspace:read'] }),
    });

  /** Every answer is a 2xx or a proper 503 (v1 error document or v0 legacy shape, Retry-After), within the bound. */
  function assertContract(outcomes: readonly Outcome[], phase: string): void {
    for (const o of outcomes) {
      const what = `${phase}: ${o.label} answered ${o.status} after ${Math.round(o.ms)} ms: ${JSON.stringify(o.body).slice(0, 300)}`;
      assert.ok(o.ms <= BOUND_MS, `${what} (over ${BOUND_MS} ms)`);
      assert.ok((o.status >= 200 && o.status < 300) || o.status === 503, what);
      if (o.status !== 503 || o.label.endsWith('/readyz')) continue;
      assert.ok(Number(o.retryAfter) >= 1, `${what}: no Retry-After`);
      if (o.label.startsWith('v1')) assert.equal((o.body as { errors?: { code: string }[] }).errors?.[0]?.code, 'service_unavailable', what);
      else {
        assert.deepEqual(Object.keys(o.body as object), ['error'], what);
        assert.equal((o.body as { error: { code: string } }).error.code, 'service_unavailable', what);
      }
    }
  }

  /** Runs `concurrency` request loops over the operations until `stop()`; returns what every request got. */
  function load(ops: readonly (() => Promise<Outcome>)[], concurrency = 4) {
    const outcomes: Outcome[] = [];
    let running = true;
    const loops = Array.from({ length: concurrency }, async (_, n) => {
      for (let i = n; running; i++) {
        outcomes.push(await ops[i % ops.length]!());
        // A steady load, not a flood: failing fast must not run v0's 100-per-minute budget dry.
        await sleep(20);
      }
    });
    return {
      async stop() {
        running = false;
        await Promise.all(loops);
        return outcomes;
      },
    };
  }

  async function recovered(ops: readonly (() => Promise<Outcome>)[], phase: string): Promise<void> {
    const started = Date.now();
    for (const op of ops) {
      let last: Outcome | undefined;
      while (Date.now() - started < 20_000) {
        last = await op();
        if (last.status >= 200 && last.status < 300) break;
        await sleep(100);
      }
      assert.ok(last && last.status >= 200 && last.status < 300, `${phase}: ${last?.label} did not recover: ${last?.status} ${JSON.stringify(last?.body)}`);
    }
  }

  const faults: readonly {
    dependency: string;
    proxy: () => TcpProxy;
    probes: (ops: ReturnType<typeof operations>) => (() => Promise<Outcome>)[];
    /** The dependency up but refusing the work, a third fault besides the cut and the black hole. */
    refusing?: { readonly name: string; readonly impostor: Impostor };
  }[] = [
    // Every operation needs PostgreSQL (the auth service's verification too), and every service's readiness.
    { dependency: 'PostgreSQL', proxy: () => pg, probes: (ops) => ops, refusing: { name: 'refusing every session with 53300 (too many clients)', impostor: postgresRefusing() } },
    // Every API request passes the Redis-backed rate limit; both readiness probes check Redis.
    { dependency: 'Redis', proxy: () => redis, probes: (ops) => ops, refusing: { name: 'answering -LOADING to every command', impostor: redisReplying() } },
    // Credentials are verified in each API instance (issue 11); credential management still asks the auth
    // service, and the API's readiness checks it (the worker's does not).
    { dependency: 'the auth service', proxy: () => authProxy, probes: (ops) => [ops[4]!, createCredential] },
  ];

  for (const fault of faults) {
    for (const kind of ['cut', 'blackhole', ...(fault.refusing ? (['refusing'] as const) : [])] as const) {
      const named = { cut: 'cut (refused and reset)', blackhole: 'black-holed (bytes dropped)', refusing: fault.refusing?.name };
      it(`${fault.dependency} ${named[kind]}: in flight and new requests answer 503 within the bound, then recover by themselves`, async () => {
        const proxy = fault.proxy();
        // v0 limits each token to 100 requests per minute and path: the load and the probes get their own.
        const v0Token = () => inTransaction(database, (tx) => issueTeamToken(tx, env.config, { workspaceId, name: `fault-${++seq}`, createdByMemberId: memberId }));
        const ops = operations(await v0Token());
        await recovered(ops, 'before the fault');
        const loadOps = operations(await v0Token());
        const traffic = load(loadOps);
        await sleep(300);
        // One of each operation sent just before the fault, so some are surely being processed when it strikes.
        const batch = Promise.all(loadOps.map((op) => op()));
        await sleep(15);
        const faultAt = performance.now();
        if (kind === 'cut') await proxy.cut();
        else if (kind === 'blackhole') await proxy.blackhole();
        else await proxy.impersonate(fault.refusing!.impostor);
        let during: Outcome[];
        try {
          await sleep(TIMEOUT_MS + 300);
          // New requests, all at once, once the fault is established: each needs the dependency, so each is a 503.
          const fresh = await Promise.all(fault.probes(ops).map((op) => op()));
          assertContract(fresh, `new request during the ${kind}`);
          for (const o of fresh) assert.equal(o.status, 503, `${o.label} during the ${kind} answered ${o.status}: ${JSON.stringify(o.body)}`);
          during = [...(await traffic.stop()), ...(await batch)];
        } finally {
          await proxy.restore();
        }
        const inFlight = during.filter((o) => o.startedAt < faultAt && o.startedAt + o.ms > faultAt);
        assert.ok(inFlight.length > 0, 'requests were in flight when the fault began');
        assertContract(during, `under load across the ${kind}`);
        assert.ok(
          during.some((o) => o.status === 503),
          'the fault was felt',
        );
        // Recovery: nothing restarted; every operation succeeds again, and keeps to the contract meanwhile.
        await recovered(ops, `after the ${kind}`);
        const afterwards = load(ops);
        await sleep(300);
        assertContract(await afterwards.stop(), `after the ${kind}`);
        // No acknowledged write is lost.
        const tags = await database.prisma.tag.count({ where: { workspaceId, id: { in: createdTags } } });
        assert.equal(tags, createdTags.length, 'every tag answered 201 is stored');
        const tasks = await database.prisma.task.count({ where: { workspaceId, id: { in: createdTasks } } });
        assert.equal(tasks, createdTasks.length, 'every task answered 201 is stored');
      });
    }
  }

  it('acknowledged writes were made throughout, and after every fault the worker runs jobs again', async () => {
    assert.ok(createdTags.length > 0 && createdTasks.length > 0);
    // An asynchronous operation goes API -> Redis (BullMQ) -> worker -> PostgreSQL: the whole path recovered.
    const headers = { authorization: `Bearer ${demo.personalAccessToken}`, 'content-type': 'application/json' };
    const project = (await (await fetch(`${v1.url}/v1/projects`, { method: 'POST', headers, body: JSON.stringify({ name: 'After the faults' }) })).json()) as { data: { id: string } };
    const accepted = await fetch(`${v1.url}/v1/projects/${project.data.id}/complete`, { method: 'POST', headers: { authorization: headers.authorization, 'if-match': '"1"' } });
    assert.equal(accepted.status, 202, await accepted.clone().text());
    const location = accepted.headers.get('location')!;
    let status = '';
    for (let i = 0; i < 200 && status !== 'succeeded' && status !== 'failed'; i++) {
      await sleep(100);
      status = ((await (await fetch(`${v1.url}${location}`, { headers })).json()) as { data: { status: string } }).data.status;
    }
    assert.equal(status, 'succeeded');
  });
});
