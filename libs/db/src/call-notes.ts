import type { Db } from './database.js';
import type { Prisma } from './generated/prisma/client.js';
import { unarchivedPage } from './keyset.js';
import { revisionedColumns, updateAttributes } from './revisioned-rows.js';

/**
 * Call notes: plain text about a contact, written by a member or a service account. Archive never deletes
 * (`archived_at`); reads by id see archived notes, lists leave them out. Notes without a contact (older
 * project notes) are not call notes of the v1 API and are invisible here. Every query is scoped by the
 * workspace id.
 */

const select = {
  id: true,
  workspaceId: true,
  contactId: true,
  authorMemberId: true,
  authorServiceAccountId: true,
  content: true,
  occurredAt: true,
  ...revisionedColumns,
} as const satisfies Prisma.CallNoteSelect;

type Row = Prisma.CallNoteGetPayload<{ select: typeof select }>;

/** A call note always has its contact; its author is the member or the service account that wrote it. */
export type CallNoteRecord = Readonly<Omit<Row, 'contactId' | 'authorMemberId' | 'authorServiceAccountId'> & { contactId: string; authorId: string }>;

function record(row: Row): CallNoteRecord {
  const { authorMemberId, authorServiceAccountId, contactId, ...rest } = row;
  return Object.assign(rest, { contactId: contactId ?? '', authorId: authorMemberId ?? authorServiceAccountId ?? '' });
}

/** One call note of the workspace, archived or not. */
export async function findCallNote(client: Db, workspaceId: string, id: string): Promise<CallNoteRecord | null> {
  const row = await client.prisma.callNote.findFirst({ where: { workspaceId, id, contactId: { not: null } }, select });
  return row ? record(row) : null;
}

/** One keyset page of the workspace's unarchived call notes in id order, optionally of one contact. */
export async function listCallNotesPage(
  client: Db,
  workspaceId: string,
  filter: { readonly contactId?: string | undefined; readonly onlyIds?: readonly string[] | null },
  afterId: string | undefined,
  take: number,
): Promise<CallNoteRecord[]> {
  const rows = await client.prisma.callNote.findMany({
    ...unarchivedPage(workspaceId, { contactId: filter.contactId === undefined ? { not: null } : filter.contactId }, afterId, take, filter.onlyIds),
    select,
  });
  return rows.map(record);
}

export async function insertCallNote(
  tx: Db,
  workspaceId: string,
  input: { contactId: string; author: { type: 'member' | 'service_account'; id: string }; content: string; occurredAt: Date },
): Promise<CallNoteRecord> {
  const row = await tx.prisma.callNote.create({
    data: {
      workspaceId,
      contactId: input.contactId,
      ...(input.author.type === 'member' ? { authorMemberId: input.author.id } : { authorServiceAccountId: input.author.id }),
      content: input.content,
      occurredAt: input.occurredAt,
    },
    select,
  });
  return record(row);
}

/** Last-writer-wins update (the registry declares no precondition); false when the note is missing. */
export async function updateCallNoteAttributes(tx: Db, workspaceId: string, id: string, change: { content?: string; occurredAt?: Date }): Promise<boolean> {
  return updateAttributes(
    tx.prisma.callNote,
    workspaceId,
    id,
    {
      ...(change.content === undefined ? {} : { content: change.content }),
      ...(change.occurredAt === undefined ? {} : { occurredAt: change.occurredAt }),
    },
    { contactId: { not: null } },
  );
}

/** Sets or clears `archived_at`; false when the note is missing or already in that state. */
export async function setCallNoteArchived(tx: Db, workspaceId: string, id: string, archivedAt: Date | null): Promise<boolean> {
  const { count } = await tx.prisma.callNote.updateMany({
    where: { workspaceId, id, contactId: { not: null }, archivedAt: archivedAt === null ? { not: null } : null },
    data: { archivedAt, revision: { increment: 1 } },
  });
  return count === 1;
}
