import { revisionedColumns, setArchivedAt, updateAttributes } from './revisioned-rows.js';
import type { Db } from './database.js';
import type { Prisma } from './generated/prisma/client.js';
import { unarchivedPage } from './keyset.js';

/**
 * Project and task lists. Archive never deletes (`archived_at`); reads by id see archived lists, lists
 * leave them out. Every query is scoped by the workspace id.
 */

export type ListKindValue = 'project' | 'task';

const select = {
  id: true,
  workspaceId: true,
  name: true,
  kind: true,
  position: true,
  color: true,
  ...revisionedColumns,
} as const satisfies Prisma.ListSelect;

/** An interface, so that other projects' declarations name it; its enum columns in this layer's names. */
export interface ListRecord extends Readonly<Omit<Prisma.ListGetPayload<{ select: typeof select }>, 'kind'>> {
  readonly kind: ListKindValue;
}

/** One list of the workspace, archived or not. */
export async function findList(client: Db, workspaceId: string, id: string): Promise<ListRecord | null> {
  return client.prisma.list.findFirst({ where: { workspaceId, id }, select });
}

/** One keyset page of the workspace's unarchived lists in id order, optionally of one kind. */
export async function listListsPage(
  client: Db,
  workspaceId: string,
  filter: { kind?: ListKindValue | undefined; onlyIds?: readonly string[] | null },
  afterId: string | undefined,
  take: number,
): Promise<ListRecord[]> {
  return client.prisma.list.findMany({ ...unarchivedPage(workspaceId, filter.kind === undefined ? {} : { kind: filter.kind }, afterId, take, filter.onlyIds), select });
}

export interface ListChanges {
  readonly name?: string;
  readonly position?: number;
  readonly color?: string | null;
}

export async function insertList(tx: Db, workspaceId: string, input: { name: string; kind: ListKindValue; position: number; color: string | null }): Promise<ListRecord> {
  return tx.prisma.list.create({ data: { workspaceId, name: input.name, kind: input.kind, position: input.position, color: input.color }, select });
}

/** The given attributes (no precondition: the last writer wins); false when the list is missing. */
export async function updateListAttributes(tx: Db, workspaceId: string, id: string, change: ListChanges): Promise<boolean> {
  return updateAttributes(tx.prisma.list, workspaceId, id, {
    ...(change.name === undefined ? {} : { name: change.name }),
    ...(change.position === undefined ? {} : { position: change.position }),
    ...(change.color === undefined ? {} : { color: change.color }),
  });
}

/** Sets or clears `archived_at`; false when the list is missing or already in that state. */
export function setListArchived(tx: Db, workspaceId: string, id: string, archivedAt: Date | null): Promise<boolean> {
  return setArchivedAt(tx.prisma.list, workspaceId, id, archivedAt);
}
