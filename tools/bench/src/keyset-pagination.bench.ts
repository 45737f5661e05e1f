import { createDatabase } from '@workcell/db';
import { insertSyntheticTags, syntheticTagIdAt } from '@workcell/db/testing';
import { encodeCursor, invoke, listTags, operationOf, type ProcedureContext, type V1AuthContext } from '@workcell/domain';
import { createTestDatabase, testConfig } from '@workcell/testing';
import { compare, type Comparison } from './ratio.js';

/**
 * Issue 6: "a page deep in a million rows costs the same as the first". Measures GET /v1/tags's procedure
 * (cursor check, keyset query, mapping) for the first page (the baseline) and for the page after row
 * ROWS − 1,000 (the candidate), interleaved, in one run on a database of its own; the ratio of their medians.
 * libs/db's keyset-cost test proves the same property on PostgreSQL's page counters in every CI run.
 */
export const KEYSET_MAX_RATIO = 1.5;

export async function measureKeysetPagination(rows: number, rounds: number, progress: (line: string) => void = () => undefined): Promise<Comparison> {
  const db = await createTestDatabase();
  const config = testConfig({ DATABASE_URL: db.url });
  const database = createDatabase(config, { poolSize: 2 });
  try {
    const workspaceId = (await database.prisma.workspace.create({ data: { name: 'Benchmark' } })).id;
    const seeding = Date.now();
    await insertSyntheticTags(database, workspaceId, rows);
    progress(`seeded ${rows} tags in ${((Date.now() - seeding) / 1000).toFixed(1)} s`);
    const deepAfter = await syntheticTagIdAt(database, workspaceId, rows - 1000);
    const ctx: ProcedureContext = { database, config, now: () => new Date() };
    const auth = {
      workspaceId,
      principal: { type: 'member', id: workspaceId },
      effectiveScopes: ['tags:read'],
      credential: {
        id: workspaceId,
        kind: 'personal_access_token',
        name: 'bench',
        status: 'active',
        scopes: ['tags:read'],
        expiresAt: null,
        region: config.region,
        cell: config.cell,
        createdAt: new Date(0).toISOString(),
        lastUsedAt: null,
      },
    } satisfies V1AuthContext;
    const cursor = encodeCursor(config, { workspaceId, list: 'listTags', filter: {} }, deepAfter);
    const first = () => invoke(listTags, operationOf(ctx, auth, null), { limit: 50 });
    const deep = () => invoke(listTags, operationOf(ctx, auth, null), { limit: 50, cursor });
    if ((await deep()).items.length !== 50) throw new Error('the deep page is not a full page');
    return await compare(first, deep, rounds, Math.min(20, rounds));
  } finally {
    await database.close();
    await db.drop();
  }
}
