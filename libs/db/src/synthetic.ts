import type { Db } from './database.js';

/**
 * Synthetic volume for cost tests and benchmarks (never used by the services): `count` tags in one workspace,
 * inserted by the database itself, and the id of the row at a keyset position.
 */
export async function insertSyntheticTags(database: Db, workspaceId: string, count: number): Promise<void> {
  await database.prisma.$executeRaw`INSERT INTO tags (workspace_id, name) SELECT ${workspaceId}::uuid, 'tag ' || g FROM generate_series(1, ${count}) g`;
  await database.prisma.$executeRawUnsafe('ANALYZE tags');
}

/** The id of the tag at 0-based position `offset` in id order (the `afterId` of the page that follows it). */
export async function syntheticTagIdAt(database: Db, workspaceId: string, offset: number): Promise<string> {
  const [row] = await database.prisma.$queryRaw<{ id: string }[]>`SELECT id::text AS id FROM tags WHERE workspace_id = ${workspaceId}::uuid ORDER BY id OFFSET ${offset} LIMIT 1`;
  if (!row) throw new Error(`no tag at position ${offset}`);
  return row.id;
}
