import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Prisma } from './generated/prisma/client.js';
import { useTestEnvironment, testConfig } from '@workcell/testing';
import { createDatabase } from './database.js';
import { RECORDED_STRING_LENGTH, type RecordedStatement } from './statement-log.js';

/**
 * DATABASE_STATEMENT_LOG (the statement check's input, docs/scale-out.md): a service's pool records each distinct
 * statement once with the values it was first sent with; a pool made for tests or tools records nothing; a
 * service's sessions carry its name as application_name.
 */
const env = useTestEnvironment();

async function recorded(directory: string): Promise<RecordedStatement[]> {
  const files = await readdir(directory).catch(() => [] as string[]);
  const lines = await Promise.all(files.map(async (f) => (await readFile(join(directory, f), 'utf8')).split('\n').filter(Boolean)));
  return lines.flat().map((line) => JSON.parse(line) as RecordedStatement);
}

describe('the statement log', () => {
  let directory: string;
  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'workcell-statement-log-'));
  });
  afterEach(() => rm(directory, { recursive: true, force: true }));

  it("records a service's distinct statements once, with their first values, and names its sessions", async () => {
    const database = createDatabase(testConfig({ DATABASE_URL: env.databaseUrl, DATABASE_STATEMENT_LOG: directory }), { service: 'api-v1', poolSize: 1 });
    try {
      for (const n of [1, 2, 3]) await database.execute(Prisma.sql`SELECT ${n}::int AS n, 'statement-log-probe' AS probe`);
      const rows = await database.rows<{ name: string }>(Prisma.sql`SELECT application_name AS name FROM pg_stat_activity WHERE pid = pg_backend_pid()`);
      assert.equal(rows[0]?.name, 'workcell-api-v1');
    } finally {
      await database.close();
    }
    const probes = (await recorded(directory)).filter((s) => s.text.includes('statement-log-probe'));
    assert.equal(probes.length, 1);
    assert.deepEqual(probes[0]!.values, [1]);
  });

  it('keeps a JSON value whole up to RECORDED_STRING_LENGTH, so a recorded write can be sent again, and cuts a longer one', async () => {
    const payload = JSON.stringify({ task: { title: 'x'.repeat(2_000) } });
    const long = 'y'.repeat(RECORDED_STRING_LENGTH + 10);
    const database = createDatabase(testConfig({ DATABASE_URL: env.databaseUrl, DATABASE_STATEMENT_LOG: directory }), { service: 'api-v1', poolSize: 1 });
    try {
      await database.execute(Prisma.sql`SELECT ${payload}::jsonb AS payload, ${long}::text AS long, 'statement-log-length' AS probe`);
    } finally {
      await database.close();
    }
    const [probe] = (await recorded(directory)).filter((s) => s.text.includes('statement-log-length'));
    assert.deepEqual(probe!.values, [payload, long.slice(0, RECORDED_STRING_LENGTH)]);
  });

  it('records nothing for a pool that serves no service', async () => {
    const database = createDatabase(testConfig({ DATABASE_URL: env.databaseUrl, DATABASE_STATEMENT_LOG: directory }), { poolSize: 1 });
    try {
      await database.execute(Prisma.sql`SELECT 'statement-log-probe' AS probe`);
    } finally {
      await database.close();
    }
    assert.deepEqual(await recorded(directory), []);
  });
});
