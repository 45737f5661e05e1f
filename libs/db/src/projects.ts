import { Prisma } from './generated/prisma/client.js';
import { pageIds } from './keyset.js';
import { type Client, clientOf, readRows, type Tx } from './transactions.js';
import type { GuardedOutcome } from './tasks.js';

/**
 * v1 projects (issue 6). Every query is scoped by the workspace id; archived projects stay in the table and
 * are left out of lists unless asked for. Field writes are one `UPDATE … WHERE revision = $expected` (the
 * If-Match check and the write are the same statement), so of concurrent writers with one revision exactly
 * one wins.
 */

export interface ProjectRecord {
  readonly id: string;
  readonly workspaceId: string;
  readonly name: string;
  readonly description: string | null;
  readonly status: 'active' | 'completed';
  readonly contactId: string | null;
  readonly startDate: Date | null;
  readonly dueDate: Date | null;
  readonly completedAt: Date | null;
  readonly revision: number;
  readonly archivedAt: Date | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly tagIds: readonly string[];
}

const projectSelect = {
  id: true,
  workspaceId: true,
  name: true,
  description: true,
  status: true,
  contactId: true,
  startDate: true,
  dueDate: true,
  completedAt: true,
  revision: true,
  archivedAt: true,
  createdAt: true,
  updatedAt: true,
  projectTags: { select: { tagId: true }, orderBy: { tagId: 'asc' } },
} as const;

type ProjectRow = Omit<ProjectRecord, 'tagIds'> & { projectTags: { tagId: string }[] };

function record({ projectTags, ...row }: ProjectRow): ProjectRecord {
  return { ...row, tagIds: projectTags.map((t) => t.tagId) };
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
  /** Only these ids (a service account's resource grants); absent or null: every row. */
  readonly onlyIds?: readonly string[] | null;
  readonly status?: 'active' | 'completed' | 'archived';
  readonly contactId?: string;
  readonly updatedSince?: Date;
}

export async function findProject(client: Client, workspaceId: string, id: string): Promise<ProjectRecord | null> {
  const row = await clientOf(client).project.findFirst({ where: { workspaceId, id }, select: projectSelect });
  return row ? record(row) : null;
}

/** One keyset page in id order. Archived projects only with `status: 'archived'`, otherwise never. */
export async function listProjectsPage(client: Client, workspaceId: string, filter: ProjectFilter, afterId: string | undefined, take: number): Promise<ProjectRecord[]> {
  const rows = await clientOf(client).project.findMany({
    where: {
      workspaceId,
      ...(filter.status === 'archived' ? { archivedAt: { not: null } } : { archivedAt: null }),
      ...(filter.status === 'active' || filter.status === 'completed' ? { status: filter.status } : {}),
      ...(filter.contactId === undefined ? {} : { contactId: filter.contactId }),
      ...(filter.updatedSince === undefined ? {} : { updatedAt: { gte: filter.updatedSince } }),
      ...pageIds(afterId, filter.onlyIds),
    },
    orderBy: { id: 'asc' },
    take,
    select: projectSelect,
  });
  return rows.map(record);
}

export async function insertProject(tx: Tx, workspaceId: string, input: ProjectChanges & { name: string; tagIds: readonly string[] }, now: Date): Promise<ProjectRecord> {
  const { tagIds, ...fields } = input;
  const created = await tx.project.create({ data: { workspaceId, ...fields, createdAt: now, updatedAt: now }, select: { id: true } });
  if (tagIds.length > 0) await tx.projectTag.createMany({ data: tagIds.map((tagId) => ({ workspaceId, projectId: created.id, tagId })) });
  const row = await findProject(tx, workspaceId, created.id);
  return row!;
}

/**
 * If-Match write of an unarchived project's attributes (and, when given, its tag set): the revision check and
 * the write are one statement (archived: state_conflict); the tag links are replaced after it, under the row lock that statement took.
 */
export async function updateProjectIfRevision(
  tx: Tx,
  workspaceId: string,
  id: string,
  expectedRevision: number,
  changes: ProjectChanges & { tagIds?: readonly string[] },
  now: Date,
): Promise<GuardedOutcome> {
  const { tagIds, ...fields } = changes;
  const { count } = await tx.project.updateMany({
    where: { workspaceId, id, revision: expectedRevision, archivedAt: null },
    data: { ...fields, updatedAt: now, revision: { increment: 1 } },
  });
  if (count !== 1) {
    const current = await tx.project.findFirst({ where: { workspaceId, id }, select: { revision: true } });
    return current === null ? 'not_found' : current.revision !== expectedRevision ? 'version_conflict' : 'state_conflict';
  }
  if (tagIds !== undefined) {
    await tx.projectTag.deleteMany({ where: { workspaceId, projectId: id } });
    if (tagIds.length > 0) await tx.projectTag.createMany({ data: tagIds.map((tagId) => ({ workspaceId, projectId: id, tagId })) });
  }
  return 'updated';
}

/** Of the given ids (UUIDs), those naming an unarchived tag of the workspace. */
export async function existingTagIds(client: Client, workspaceId: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await readRows<{ id: string }>(client, Prisma.sql`
    SELECT id::text AS id FROM tags WHERE workspace_id = ${workspaceId}::uuid AND id = ANY(${[...ids]}::uuid[]) AND archived_at IS NULL`);
  return new Set(rows.map((r) => r.id));
}

/** Whether the id (a UUID) names an unarchived contact of the workspace. */
export async function contactExists(client: Client, workspaceId: string, id: string): Promise<boolean> {
  return (await clientOf(client).contact.count({ where: { workspaceId, id, archivedAt: null } })) === 1;
}
