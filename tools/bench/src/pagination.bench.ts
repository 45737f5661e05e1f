import { parseArgs } from 'node:util';
import { createDatabase, insertSyntheticTags, syntheticTagIdAt } from '@workcell/db';
import { encodeCursor, invoke, listTags, type ProcedureContext, type V1AuthContext } from '@workcell/domain';
import { createTestDatabase, testConfig } from '@workcell/testing';
import { compare } from './ratio.js';

/**
 * Issue 6: "a page deep in a million rows costs the same as the first". Measures GET /v1/tags's procedure
 * (cursor check, keyset query, mapping) for the first page (the baseline) and for the page after row
 * ROWS − 1,000 (the candidate), interleaved, in one run on one database; prints the ratio of their medians and
 * fails when the deep page costs more than MAX_RATIO times the first. libs/db's keyset-cost test proves the
 * same property on PostgreSQL's page counters in every CI run.
 *
 * Usage: `npm run bench` (or `node tools/bench/dist/pagination.bench.js --rows 100000 --rounds 100`).
 */

const { values } = parseArgs({ options: { rows: { type: 'string', default: '1000000' }, rounds: { type: 'string', default: '200' } } });
const ROWS = Number(values.rows);
const ROUNDS = Number(values.rounds);
const MAX_RATIO = 1.5;

const db = await createTestDatabase();
const config = testConfig({ DATABASE_URL: db.url });
const database = createDatabase(config, { poolSize: 2 });
try {
  const workspaceId = (await database.prisma.workspace.create({ data: { name: 'Benchmark' } })).id;
  const seeding = Date.now();
  await insertSyntheticTags(database, workspaceId, ROWS);
  console.log(`seeded ${ROWS} tags in ${((Date.now() - seeding) / 1000).toFixed(1)} s`);
  const deepAfter = await syntheticTagIdAt(database, workspaceId, ROWS - 1000);
  const ctx: ProcedureContext = { database, config, now: () => new Date() };
  const auth = {
    workspaceId,
    principal: { type: 'member', id: workspaceId },
    effectiveScopes: ['tags:read'],
    credential: { id: workspaceId, kind: 'personal_access_token', name: 'bench', status: 'active', scopes: ['tags:read'], expiresAt: null, region: config.region, cell: config.cell, createdAt: new Date(0).toISOString(), lastUsedAt: null },
  } satisfies V1AuthContext;
  const cursor = encodeCursor(config, { workspaceId, list: 'listTags', filter: {} }, deepAfter);
  const first = () => invoke(listTags, ctx, { auth, limit: 50 });
  const deep = () => invoke(listTags, ctx, { auth, limit: 50, cursor });
  if ((await deep()).items.length !== 50) throw new Error('the deep page is not a full page');
  const result = await compare(first, deep, ROUNDS, 20);
  console.log(JSON.stringify({ benchmark: 'listTags deep page vs first page', rows: ROWS, rounds: ROUNDS, ...result }, null, 2));
  if (result.ratio > MAX_RATIO) {
    console.error(`the page after row ${ROWS - 1000} costs ${result.ratio.toFixed(2)}× the first (limit ${MAX_RATIO}×)`);
    process.exitCode = 1;
  }
} finally {
  await database.close();
  await db.drop();
}
