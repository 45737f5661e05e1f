import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { createApiV0App } from '@workcell/api-v0';
import { createApiV1App } from '@workcell/api-v1';
import { createAuthApp } from '@workcell/auth';
import { createWorkerApp } from '@workcell/worker';
import { createDatabase, type Database, seedDemoWorkspaceIfEmpty } from '@workcell/db';
import { JobQueues } from '@workcell/jobs';
import type { AppConfig } from '@workcell/config';
import { type AppFactory, exitCodeOf, type RunningApp, spawnService, startApp, testConfig, useTestEnvironment } from '@workcell/testing';

const env = useTestEnvironment();
const root = new URL('../../../', import.meta.url);

const services: { name: string; create: AppFactory; portVariable: string; probes: string[] }[] = [
  { name: 'api-v0', create: (c) => createApiV0App(c), portVariable: 'API_V0_PORT', probes: ['database', 'redis', 'registry'] },
  { name: 'api-v1', create: (c) => createApiV1App(c), portVariable: 'API_V1_PORT', probes: ['database', 'redis', 'registry'] },
  { name: 'auth', create: (c) => createAuthApp(c), portVariable: 'AUTH_PORT', probes: ['database', 'redis'] },
  { name: 'worker', create: (c) => createWorkerApp(c), portVariable: 'WORKER_PORT', probes: ['database', 'redis', 'queues'] },
];

// Node 20 runs file-level before() hooks without waiting for earlier ones, so everything sits in one suite.
describe('the four services', () => {
  // The application cells the API cells check their registry against.
  let auth: RunningApp;
  let worker: RunningApp;
  let cellConfig: AppConfig;
  beforeAll(async () => {
    auth = await startApp(createAuthApp, env.config);
    worker = await startApp(createWorkerApp, env.config);
    cellConfig = testConfig({
      DATABASE_URL: env.databaseUrl,
      REDIS_PREFIX: env.redisPrefix,
      AUTH_INTERNAL_URL: auth.url,
      WORKER_INTERNAL_URL: worker.url,
    });
  });
  afterAll(async () => {
    await auth.close();
    await worker.close();
  });

  const processEnv = (extra: Record<string, string> = {}) => ({
    DATABASE_URL: env.databaseUrl,
    REDIS_URL: env.config.redis.url,
    REDIS_PREFIX: env.redisPrefix,
    AUTH_INTERNAL_URL: auth.url,
    WORKER_INTERNAL_URL: worker.url,
    LOG_LEVEL: 'info',
    ...extra,
  });

  for (const service of services) {
    describe(`${service.name} in-process`, () => {
      let running: RunningApp;
      beforeAll(async () => {
        running = await startApp(service.create, cellConfig);
      });
      afterAll(() => running.close());

      it('is live and ready with every dependency up', async () => {
        assert.equal((await fetch(`${running.url}/healthz`)).status, 200);
        const ready = await fetch(`${running.url}/readyz`);
        const body = (await ready.json()) as { status: string; checks: Record<string, { status: string }> };
        assert.equal(ready.status, 200, JSON.stringify(body));
        assert.deepEqual(Object.keys(body.checks).sort(), [...service.probes].sort());
      });
    });

    describe(`${service.name} as a process`, () => {
      const entry = fileURLToPath(new URL(`apps/${service.name}/dist/main.js`, root));

      it('refuses to start with an invalid DATABASE_URL, printing one line that names it', async () => {
        const proc = spawnService(entry, processEnv({ DATABASE_URL: 'mysql://nope' }));
        const code = await exitCodeOf(proc);
        assert.notEqual(code, 0);
        const lines = proc.output().trim().split('\n');
        assert.equal(lines.length, 1, proc.output());
        assert.match(lines[0]!, /^Invalid configuration: DATABASE_URL /);
      });

      it('boots on its port, logs JSON lines, and exits 0 after a graceful SIGTERM', async () => {
        const proc = spawnService(entry, processEnv({ [service.portVariable]: '0' }));
        const listening = JSON.parse(await proc.waitFor(/"msg":"[a-z0-9-]+ listening"/)) as { url: string; service: string };
        assert.equal(listening.service, service.name);
        const ready = await fetch(`${listening.url}/readyz`);
        assert.equal(ready.status, 200);
        assert.equal(await proc.stop('SIGTERM'), 0);
        const lines = proc.output().trim().split('\n');
        for (const line of lines) assert.doesNotThrow(() => JSON.parse(line), `not a JSON log line: ${line}`);
        assert.ok(lines.some((l) => l.includes(`"msg":"${service.name} stopped"`)));
        assert.ok(lines.some((l) => /"route":"\/readyz".*"status":200/.test(l)));
      });
    });
  }

  describe('worker jobs', () => {
    let database: Database;
    let queues: JobQueues;
    let worker: RunningApp;
    beforeAll(async () => {
      worker = await startApp(createWorkerApp, env.config);
      database = createDatabase(env.config, { poolSize: 2 });
      queues = new JobQueues(env.config);
    });
    afterAll(async () => {
      await queues.close();
      await database.close();
      await worker.close();
    });

    it('purges expired idempotency records and keeps the rest', async () => {
      const tokens = await seedDemoWorkspaceIfEmpty(database, env.config);
      assert.ok(tokens);
      const credential = await database.prisma.credential.findFirstOrThrow({ where: { workspaceId: tokens.workspaceId } });
      const base = { workspaceId: tokens.workspaceId, credentialId: credential.id, operationId: 'createTag', requestFingerprint: 'f' };
      await database.prisma.idempotencyRecord.createMany({
        data: [
          { ...base, key: 'expired', expiresAt: new Date(Date.now() - 60_000) },
          { ...base, key: 'current', expiresAt: new Date(Date.now() + 24 * 3600_000) },
        ],
      });
      const jobId = await queues.enqueue('idempotency.purge-expired', {});
      assert.match(jobId, /^idempotency\.purge-expired:\d{4}-\d\d-\d\dT\d\d:\d\d$/);
      const deadline = Date.now() + 10_000;
      let keys: string[] = [];
      while (Date.now() < deadline) {
        keys = (await database.prisma.idempotencyRecord.findMany({ select: { key: true } })).map((r) => r.key);
        if (!keys.includes('expired')) break;
        await sleep(100);
      }
      assert.deepEqual(keys, ['current']);
    });

    it('collapses the same logical job enqueued twice into one', async () => {
      const at = new Date('2026-01-01T10:00:30Z');
      const a = await queues.enqueue('idempotency.purge-expired', {}, at);
      const b = await queues.enqueue('idempotency.purge-expired', {}, new Date('2026-01-01T10:00:59Z'));
      assert.equal(a, b);
      const jobs = await queues.queue('maintenance').getJobs(['completed', 'active', 'waiting', 'delayed', 'failed']);
      assert.equal(jobs.filter((j) => j.id === a).length, 1);
    });

    it('rejects a payload that does not match the catalog', async () => {
      await assert.rejects(queues.enqueue('idempotency.purge-expired', { unexpected: true } as never));
    });
  });
});
