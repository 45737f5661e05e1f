import { Prisma } from './generated/prisma/client.js';
import type { Db } from './database.js';
import { resourceReadableSql, type Viewer } from './visibility.js';
import { type GuardedOutcome, guardedMiss, type RevisionedFields } from './revisioned-rows.js';
import { insertTagLinks, replaceTagLinks } from './tags.js';

/**
 * v1 projects (issue 6). Every query is scoped by the workspace id; archived projects stay in the table and
 * are left out of lists unless asked for. Field writes are one `UPDATE … WHERE revision = $expected` (the
 * If-Match check and the write are the same statement), so of concurrent writers with one revision exactly
 * one wins.
 */

export interface ProjectRecord extends RevisionedFields {
  readonly id: string;
  readonly workspaceId: string;
  readonly name: string;
  readonly description: string | null;
  readonly status: 'active' | 'completed';
  readonly contactId: string | null;
  readonly startDate: Date | null;
  readonly dueDate: Date | null;
  readonly completedAt: Date | null;
  readonly tagIds: readonly string[];
}

/** Attributes a project write may set (undefined: unchanged). */
export interface ProjectChanges {
  readonly name?: string;
  readonly description?: string | null;
  readonly contactId?: string | null;
  readonly startDate?: Date | null;
  readonly dueDate?: Date | null;
}

export interface ProjectFilter {
  readonly status?: 'active' | 'completed' | 'archived';
  readonly contactId?: string;
  readonly updatedSince?: Date;
}

/** A project row `p` as a ProjectRecord: dates as UTC midnight (as Prisma decodes a date), tag ids in id order. */
const RECORD_COLUMNS = Prisma.sql`
  p.id::text AS id, p.workspace_id::text AS "workspaceId", p.name, p.description, p.status::text AS status, p.contact_id::text AS "contactId",
  (p.start_date::timestamp AT TIME ZONE 'UTC') AS "startDate", (p.due_date::timestamp AT TIME ZONE 'UTC') AS "dueDate", p.completed_at AS "completedAt",
  p.revision, p.archived_at AS "archivedAt", p.created_at AS "createdAt", p.updated_at AS "updatedAt",
  ARRAY(SELECT pt.tag_id::text FROM project_tags pt WHERE pt.workspace_id = p.workspace_id AND pt.project_id = p.id ORDER BY pt.tag_id) AS "tagIds"`;

/**
 * One project (archived ones too); with a viewer, only one it may see (visibility.ts: grants and sharing, in the
 * statement). Without one: the platform's own reads (after a write the caller was allowed to make).
 */
export async function findProject(client: Db, workspaceId: string, id: string, viewer: Viewer | null = null): Promise<ProjectRecord | null> {
  const visible = viewer === null ? Prisma.sql`true` : resourceReadableSql('project', Prisma.sql`p.workspace_id`, Prisma.sql`p.id`, viewer);
  const rows = await client.rows<ProjectRecord>(Prisma.sql`SELECT ${RECORD_COLUMNS} FROM projects p WHERE p.workspace_id = ${workspaceId}::uuid AND p.id = ${id}::uuid AND ${visible}`);
  return rows[0] ?? null;
}

/** One keyset page in id order of the projects the viewer may see. Archived projects only with `status: 'archived'`, otherwise never. */
export async function listProjectsPage(client: Db, workspaceId: string, filter: ProjectFilter, afterId: string | undefined, take: number, viewer: Viewer): Promise<ProjectRecord[]> {
  const where = [Prisma.sql`p.workspace_id = ${workspaceId}::uuid`, filter.status === 'archived' ? Prisma.sql`p.archived_at IS NOT NULL` : Prisma.sql`p.archived_at IS NULL`];
  if (filter.status === 'active' || filter.status === 'completed') where.push(Prisma.sql`p.status = ${filter.status}::project_status`);
  if (filter.contactId !== undefined) where.push(Prisma.sql`p.contact_id = ${filter.contactId}::uuid`);
  if (filter.updatedSince !== undefined) where.push(Prisma.sql`p.updated_at >= ${filter.updatedSince}::timestamptz`);
  if (afterId !== undefined) where.push(Prisma.sql`p.id > ${afterId}::uuid`);
  where.push(resourceReadableSql('project', Prisma.sql`p.workspace_id`, Prisma.sql`p.id`, viewer));
  return client.rows<ProjectRecord>(Prisma.sql`SELECT ${RECORD_COLUMNS} FROM projects p WHERE ${Prisma.join(where, ' AND ')} ORDER BY p.id LIMIT ${take}`);
}

export async function insertProject(tx: Db, workspaceId: string, input: ProjectChanges & { name: string; tagIds: readonly string[] }, now: Date): Promise<ProjectRecord> {
  const { tagIds, ...fields } = input;
  const created = await tx.prisma.project.create({ data: { workspaceId, ...fields, createdAt: now, updatedAt: now }, select: { id: true } });
  await insertTagLinks(tx.prisma.projectTag, workspaceId, { projectId: created.id }, tagIds);
  const row = await findProject(tx, workspaceId, created.id);
  return row!;
}

/**
 * If-Match write of an unarchived project's attributes (and, when given, its tag set): the revision check and
 * the write are one statement (archived: state_conflict); the tag links are replaced after it, under the row lock that statement took.
 */
export async function updateProjectIfRevision(
  tx: Db,
  workspaceId: string,
  id: string,
  expectedRevision: number,
  changes: ProjectChanges & { tagIds?: readonly string[] },
  now: Date,
): Promise<GuardedOutcome> {
  const { tagIds, ...fields } = changes;
  const { count } = await tx.prisma.project.updateMany({
    where: { workspaceId, id, revision: expectedRevision, archivedAt: null },
    data: { ...fields, updatedAt: now, revision: { increment: 1 } },
  });
  if (count !== 1) return guardedMiss(tx.prisma.project, workspaceId, id, expectedRevision);
  if (tagIds !== undefined) await replaceTagLinks(tx.prisma.projectTag, workspaceId, { projectId: id }, tagIds);
  return 'updated';
}

/** Of the given ids (UUIDs), those naming an unarchived tag of the workspace. */
export async function existingTagIds(client: Db, workspaceId: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await client.rows<{ id: string }>(Prisma.sql`
    SELECT id::text AS id FROM tags WHERE workspace_id = ${workspaceId}::uuid AND id = ANY(${[...ids]}::uuid[]) AND archived_at IS NULL`);
  return new Set(rows.map((r) => r.id));
}

/** Whether the id (a UUID) names an unarchived contact of the workspace. */
export async function contactExists(client: Db, workspaceId: string, id: string): Promise<boolean> {
  return (await client.prisma.contact.count({ where: { workspaceId, id, archivedAt: null } })) === 1;
}
