import { revisionedColumns, setArchivedAt, updateAttributes } from './revisioned-rows.js';
import type { Db } from './database.js';
import type { Prisma } from './generated/prisma/client.js';
import { unarchivedPage } from './keyset.js';

/**
 * Tags. Archive never deletes (`archived_at`); reads by id see archived tags, lists leave them out. Every
 * query is scoped by the workspace id.
 */

const select = {
  id: true,
  workspaceId: true,
  name: true,
  color: true,
  ...revisionedColumns,
} as const satisfies Prisma.TagSelect;

export type TagRecord = Readonly<Prisma.TagGetPayload<{ select: typeof select }>>;

/** One tag of the workspace, archived or not. */
export async function findTag(client: Db, workspaceId: string, id: string): Promise<TagRecord | null> {
  return client.prisma.tag.findFirst({ where: { workspaceId, id }, select });
}

/** One keyset page of the workspace's unarchived tags in id order. */
export async function listTagsPage(client: Db, workspaceId: string, afterId: string | undefined, take: number, onlyIds?: readonly string[] | null): Promise<TagRecord[]> {
  return client.prisma.tag.findMany({ ...unarchivedPage(workspaceId, {}, afterId, take, onlyIds), select });
}

export interface TagChanges {
  readonly name?: string;
  readonly color?: string | null;
}

export async function insertTag(tx: Db, workspaceId: string, input: { name: string; color: string | null }): Promise<TagRecord> {
  return tx.prisma.tag.create({ data: { workspaceId, name: input.name, color: input.color }, select });
}

/** The given attributes (no precondition: the last writer wins); false when the tag is missing. */
export async function updateTagAttributes(tx: Db, workspaceId: string, id: string, change: TagChanges): Promise<boolean> {
  return updateAttributes(tx.prisma.tag, workspaceId, id, {
    ...(change.name === undefined ? {} : { name: change.name }),
    ...(change.color === undefined ? {} : { color: change.color }),
  });
}

/** Sets or clears `archived_at`; false when the tag is missing or already in that state. */
export function setTagArchived(tx: Db, workspaceId: string, id: string, archivedAt: Date | null): Promise<boolean> {
  return setArchivedAt(tx.prisma.tag, workspaceId, id, archivedAt);
}

/** A project's or a task's (`owner`'s) tag link rows: `project_tags` or `task_tags`. */
interface TagLinks<Owner> {
  deleteMany(args: { where: object }): PromiseLike<unknown>;
  createMany(args: { data: ({ workspaceId: string } & Owner & { tagId: string })[] }): PromiseLike<unknown>;
}

type TagLinkOwner = { projectId: string } | { taskId: string };

/** Links a new project or task (`owner`) to the tags. */
export async function insertTagLinks<Owner extends TagLinkOwner>(links: TagLinks<Owner>, workspaceId: string, owner: Owner, tagIds: readonly string[]): Promise<void> {
  if (tagIds.length > 0) await links.createMany({ data: tagIds.map((tagId) => ({ workspaceId, ...owner, tagId })) });
}

/** Replaces the tag links of a project or a task (`owner`), after the guarded write that locked its row, in the caller's transaction. */
export async function replaceTagLinks<Owner extends TagLinkOwner>(links: TagLinks<Owner>, workspaceId: string, owner: Owner, tagIds: readonly string[]): Promise<void> {
  await links.deleteMany({ where: { workspaceId, ...owner } });
  await insertTagLinks(links, workspaceId, owner, tagIds);
}
