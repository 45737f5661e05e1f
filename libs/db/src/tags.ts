import { setArchivedAt } from './revisioned-rows.js';
import type { Db } from './database.js';
import type { Prisma } from './generated/prisma/client.js';
import { pageIds } from './keyset.js';

/**
 * Tags. Archive never deletes (`archived_at`); reads by id see archived tags, lists leave them out. Every
 * query is scoped by the workspace id.
 */

export interface TagRecord {
  readonly id: string;
  readonly workspaceId: string;
  readonly name: string;
  readonly color: string | null;
  readonly revision: number;
  readonly archivedAt: Date | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

const select = {
  id: true,
  workspaceId: true,
  name: true,
  color: true,
  revision: true,
  archivedAt: true,
  createdAt: true,
  updatedAt: true,
} as const satisfies Prisma.TagSelect;

/** One tag of the workspace, archived or not. */
export async function findTag(client: Db, workspaceId: string, id: string): Promise<TagRecord | null> {
  return client.prisma.tag.findFirst({ where: { workspaceId, id }, select });
}

/** One keyset page of the workspace's unarchived tags in id order. */
export async function listTagsPage(client: Db, workspaceId: string, afterId: string | undefined, take: number, onlyIds?: readonly string[] | null): Promise<TagRecord[]> {
  return client.prisma.tag.findMany({
    where: { workspaceId, archivedAt: null, ...pageIds(afterId, onlyIds) },
    orderBy: { id: 'asc' },
    take,
    select,
  });
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
  const { count } = await tx.prisma.tag.updateMany({
    where: { workspaceId, id },
    data: {
      ...(change.name === undefined ? {} : { name: change.name }),
      ...(change.color === undefined ? {} : { color: change.color }),
      revision: { increment: 1 },
    },
  });
  return count === 1;
}

/** Sets or clears `archived_at`; false when the tag is missing or already in that state. */
export function setTagArchived(tx: Db, workspaceId: string, id: string, archivedAt: Date | null): Promise<boolean> {
  return setArchivedAt(tx.prisma.tag, workspaceId, id, archivedAt);
}
