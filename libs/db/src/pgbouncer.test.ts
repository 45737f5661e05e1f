import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { type AppConfig, configFrom } from '@workcell/config';
import { type HarnessService, PGBOUNCER_POOL_SIZE, startPgBouncer, useTestDatabase } from '@workcell/testing';
import { createDatabase, type Database } from './database.js';
import { appendOutboxEvent, listenForOutboxEvents } from './outbox.js';
import { seedDemoWorkspaceIfEmpty } from './seed.js';
import { inTransaction } from './transactions.js';

const PGBOUNCER_AVAILABLE = spawnSync('sh', ['-c', 'command -v pgbouncer']).status === 0;
if (!PGBOUNCER_AVAILABLE) console.warn('the PgBouncer checks are skipped: pgbouncer is not installed (Debian: pgbouncer)');

/**
 * PgBouncer mode (docs/scale-out.md) against Debian's pgbouncer in transaction pooling mode, started for this file
 * in every run (the suites run through one only in CI's PgBouncer pass): many service instances' pools share a
 * few server connections, Prisma's statements and transactions work when each transaction may get another server
 * connection (nothing names a prepared statement), and LISTEN takes the direct connection.
 */
(PGBOUNCER_AVAILABLE ? describe : describe.skip)('through PgBouncer in transaction pooling mode', () => {
  const db = useTestDatabase();
  let bouncer: HarnessService & { readonly port: number };
  let config: AppConfig;
  const instances: Database[] = [];
  beforeAll(async () => {
    bouncer = await startPgBouncer();
    const pooled = new URL(db.url);
    pooled.hostname = '127.0.0.1';
    pooled.port = String(bouncer.port);
    config = configFrom({ DATABASE_URL: pooled.toString(), DATABASE_DIRECT_URL: db.url, LOG_LEVEL: 'silent' });
  }, 60_000);
  afterAll(async () => {
    await Promise.all(instances.map((d) => d.close()));
    await bouncer?.stop();
  });

  /** PgBouncer's own count of this database's clients and server connections (its admin console, SHOW POOLS). */
  async function pools(): Promise<{ clients: number; servers: number }> {
    const console = new URL(config.database.url);
    console.pathname = '/pgbouncer';
    const admin = new pg.Client({ connectionString: console.toString() });
    await admin.connect();
    try {
      const { rows } = await admin.query<Record<string, string>>('SHOW POOLS');
      const row = rows.find((r) => r['database'] === db.name);
      if (!row) return { clients: 0, servers: 0 };
      const n = (...names: string[]) => names.reduce((sum, name) => sum + Number(row[name] ?? 0), 0);
      return { clients: n('cl_active', 'cl_waiting'), servers: n('sv_active', 'sv_idle', 'sv_used', 'sv_tested', 'sv_login') };
    } finally {
      await admin.end();
    }
  }

  it(`serves many instances' connections with at most ${PGBOUNCER_POOL_SIZE} server connections, Prisma's statements and transactions included`, async () => {
    for (let i = 0; i < 6; i++) instances.push(createDatabase(config, { poolSize: 5 }));
    const seen = { clients: 0, servers: 0 };
    let running = true;
    const watching = (async () => {
      while (running) {
        const now = await pools();
        seen.clients = Math.max(seen.clients, now.clients);
        seen.servers = Math.max(seen.servers, now.servers);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    // Each transaction holds its server connection a moment, so the instances' 30 connections queue for the 5.
    const work = instances.flatMap((database) =>
      Array.from({ length: 5 }, async (_, i) => {
        const [row] = await inTransaction(database, async (tx) => {
          await tx.prisma.$executeRaw`SELECT pg_sleep(0.1)`;
          return tx.prisma.$queryRaw<{ n: number }[]>`SELECT ${i}::int AS n`;
        });
        // The same statement shapes again, now on whichever server connection each gets.
        assert.equal((await database.prisma.workspace.count()) >= 0, true);
        return row!.n;
      }),
    );
    const results = await Promise.all(work).finally(() => (running = false));
    await watching;
    assert.deepEqual(
      results,
      instances.flatMap(() => [0, 1, 2, 3, 4]),
    );
    assert.ok(seen.clients > PGBOUNCER_POOL_SIZE, `PgBouncer saw ${seen.clients} clients at once`);
    assert.ok(seen.servers >= 1 && seen.servers <= PGBOUNCER_POOL_SIZE, `PgBouncer held ${seen.servers} server connections`);
  });

  it('LISTENs on the direct connection: an outbox append through PgBouncer is heard', async () => {
    assert.equal(config.database.listenUrl, db.url);
    const database = instances[0] ?? createDatabase(config, { poolSize: 2 });
    const workspaceId = (await seedDemoWorkspaceIfEmpty(database, config))!.workspaceId;
    const heard: string[] = [];
    let up!: () => void;
    const listening = new Promise<void>((resolve) => (up = resolve));
    const listener = listenForOutboxEvents(config, { onEvent: (id) => heard.push(id), onListening: () => up() });
    try {
      await listening;
      await inTransaction(database, (tx) =>
        appendOutboxEvent(tx, { workspaceId, aggregateType: 'tag', aggregateId: randomUUID(), eventType: 'tag.created', payload: { tag: {} }, actor: null, cause: null }),
      );
      while (!heard.includes(workspaceId)) await new Promise((r) => setTimeout(r, 10));
    } finally {
      await listener.close();
    }
  });
});
