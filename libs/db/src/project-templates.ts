import type { Db } from './database.js';
import type { Prisma } from './generated/prisma/client.js';
import { unarchivedPage } from './keyset.js';
import { type GuardedOutcome, guardedMiss, revisionedColumns } from './revisioned-rows.js';

/**
 * Project templates. Every query is scoped by the workspace id; archive sets `archived_at` and never deletes
 * (reads by id see archived templates, lists leave them out). Every mutation is one
 * `UPDATE … WHERE revision = $expected` (the If-Match check and the write are one statement), so of
 * concurrent writers with one revision exactly one wins. The task skeleton lives in `body.tasks`.
 */

export interface TaskBlueprintRecord {
  readonly title: string;
  readonly description: string | null;
  readonly offsetDays: number;
  readonly durationDays?: number;
}

const select = {
  id: true,
  workspaceId: true,
  name: true,
  description: true,
  body: true,
  ...revisionedColumns,
} as const satisfies Prisma.ProjectTemplateSelect;

type Row = Prisma.ProjectTemplateGetPayload<{ select: typeof select }>;

/** The row with its stored `body` read as the task skeleton. */
export type ProjectTemplateRecord = Readonly<Omit<Row, 'body'> & { taskBlueprints: readonly TaskBlueprintRecord[] }>;

/** The skeleton of the stored body; rows written before the column was used hold `{"tasks":[]}`. */
function blueprintsOf(body: unknown): TaskBlueprintRecord[] {
  type Stored = { title?: unknown; description?: string | null; offsetDays?: number; durationDays?: number | null };
  const tasks = body !== null && typeof body === 'object' && Array.isArray((body as { tasks?: unknown }).tasks) ? (body as { tasks: Stored[] }).tasks : [];
  return tasks.map((t) => ({
    title: String(t.title),
    description: t.description ?? null,
    offsetDays: Number(t.offsetDays ?? 0),
    ...(t.durationDays === undefined || t.durationDays === null ? {} : { durationDays: Number(t.durationDays) }),
  }));
}

function record({ body, ...row }: Row): ProjectTemplateRecord {
  return { ...row, taskBlueprints: blueprintsOf(body) };
}

/** Attributes a template write may set (undefined: unchanged). */
export interface ProjectTemplateChanges {
  readonly name?: string;
  readonly description?: string | null;
  readonly taskBlueprints?: readonly TaskBlueprintRecord[];
}

const bodyOf = (blueprints: readonly TaskBlueprintRecord[]) => ({ tasks: blueprints.map((b) => ({ ...b })) });

function data(changes: ProjectTemplateChanges) {
  return {
    ...(changes.name === undefined ? {} : { name: changes.name }),
    ...(changes.description === undefined ? {} : { description: changes.description }),
    ...(changes.taskBlueprints === undefined ? {} : { body: bodyOf(changes.taskBlueprints) }),
  };
}

/** One template of the workspace, archived or not. */
export async function findProjectTemplate(client: Db, workspaceId: string, id: string): Promise<ProjectTemplateRecord | null> {
  const row = await client.prisma.projectTemplate.findFirst({ where: { workspaceId, id }, select });
  return row ? record(row) : null;
}

/** One keyset page of the workspace's unarchived templates in id order; `onlyIds` (grants) narrows it. */
export async function listProjectTemplatesPage(client: Db, workspaceId: string, afterId: string | undefined, take: number, onlyIds: readonly string[] | null): Promise<ProjectTemplateRecord[]> {
  const rows = await client.prisma.projectTemplate.findMany({ ...unarchivedPage(workspaceId, {}, afterId, take, onlyIds), select });
  return rows.map(record);
}

export async function insertProjectTemplate(
  tx: Db,
  workspaceId: string,
  input: { name: string; description: string | null; taskBlueprints: readonly TaskBlueprintRecord[] },
  now: Date,
): Promise<ProjectTemplateRecord> {
  const row = await tx.prisma.projectTemplate.create({
    data: { workspaceId, name: input.name, description: input.description, body: bodyOf(input.taskBlueprints), createdAt: now, updatedAt: now },
    select,
  });
  return record(row);
}

/** If-Match write of an unarchived template's attributes (archived: state_conflict). */
export async function updateProjectTemplateIfRevision(tx: Db, workspaceId: string, id: string, expectedRevision: number, changes: ProjectTemplateChanges, now: Date): Promise<GuardedOutcome> {
  const { count } = await tx.prisma.projectTemplate.updateMany({
    where: { workspaceId, id, revision: expectedRevision, archivedAt: null },
    data: { ...data(changes), updatedAt: now, revision: { increment: 1 } },
  });
  return count === 1 ? 'updated' : guardedMiss(tx.prisma.projectTemplate, workspaceId, id, expectedRevision);
}

/**
 * If-Match archive (`archivedAt` a date; the template must be unarchived) or restore (null; it must be
 * archived); the wrong state is state_conflict.
 */
export async function setProjectTemplateArchivedIfRevision(tx: Db, workspaceId: string, id: string, expectedRevision: number, archivedAt: Date | null, now: Date): Promise<GuardedOutcome> {
  const { count } = await tx.prisma.projectTemplate.updateMany({
    where: { workspaceId, id, revision: expectedRevision, archivedAt: archivedAt === null ? { not: null } : null },
    data: { archivedAt, updatedAt: now, revision: { increment: 1 } },
  });
  return count === 1 ? 'updated' : guardedMiss(tx.prisma.projectTemplate, workspaceId, id, expectedRevision);
}

export interface SkeletonTask {
  readonly title: string;
  readonly description: string | null;
  readonly startDate: Date;
  readonly dueDate: Date | null;
}

/**
 * The tasks of an instantiated template, in blueprint order, on the new project. due_at is the due day at
 * 00:00 UTC so due_date (read by the v0 calendar feed) stays its UTC date, as everywhere else.
 */
export async function insertSkeletonTasks(tx: Db, workspaceId: string, projectId: string, tasks: readonly SkeletonTask[], now: Date): Promise<string[]> {
  const ids: string[] = [];
  for (const t of tasks) {
    const created = await tx.prisma.task.create({
      data: { workspaceId, projectId, title: t.title, description: t.description, startDate: t.startDate, dueDate: t.dueDate, dueAt: t.dueDate, createdAt: now, updatedAt: now },
      select: { id: true },
    });
    ids.push(created.id);
  }
  return ids;
}
