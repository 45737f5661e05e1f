import { revisionedColumns, setArchivedAt } from './revisioned-rows.js';
import { unarchivedPage } from './keyset.js';
import type { Db } from './database.js';
import { type CasOutcome } from './transactions.js';
import { Prisma } from './generated/prisma/client.js';

/**
 * Contacts (people and organizations). A contact belongs to any number of contact groups through
 * `contact_group_memberships` link rows, replaced as a whole set; a person may name its organization
 * contact. Archive never deletes (`archived_at`); reads by id see archived contacts, lists leave them out.
 * Every query is scoped by the workspace id.
 */

export type ContactKind = 'person' | 'organization';

/** A postal address as stored (absent optional lines are null). A type, not an interface: it is JSON. */
export type ContactAddress = {
  readonly line1: string;
  readonly line2: string | null;
  readonly postalCode: string;
  readonly city: string;
  readonly region: string | null;
  readonly country: string;
};

const select = {
  id: true,
  workspaceId: true,
  kind: true,
  displayName: true,
  email: true,
  phone: true,
  organizationId: true,
  address: true,
  ...revisionedColumns,
  groupLinks: { select: { contactGroupId: true }, orderBy: { contactGroupId: 'asc' } },
} as const satisfies Prisma.ContactSelect;

type Row = Prisma.ContactGetPayload<{ select: typeof select }>;

/**
 * The row as this layer reads it (record): its display name as `name`, its address as a ContactAddress, its group
 * links as ids; an interface, so that other projects' declarations name it.
 */
export interface ContactRecord extends Readonly<Omit<Row, 'kind' | 'displayName' | 'address' | 'groupLinks'>> {
  readonly kind: ContactKind;
  readonly name: string;
  readonly address: ContactAddress | null;
  /** Sorted. */
  readonly contactGroupIds: readonly string[];
}

function record(row: Row): ContactRecord {
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    kind: row.kind,
    name: row.displayName,
    email: row.email,
    phone: row.phone,
    organizationId: row.organizationId,
    address: row.address === null ? null : (row.address as unknown as ContactAddress),
    contactGroupIds: row.groupLinks.map((l) => l.contactGroupId),
    revision: row.revision,
    archivedAt: row.archivedAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** One contact of the workspace, archived or not. */
export async function findContact(client: Db, workspaceId: string, id: string): Promise<ContactRecord | null> {
  const row = await client.prisma.contact.findFirst({ where: { workspaceId, id }, select });
  return row ? record(row) : null;
}

export interface ContactFilter {
  /** Only these ids (a service account's resource grants); absent or null: every row. */
  readonly onlyIds?: readonly string[] | null;
  readonly kind?: ContactKind | undefined;
  readonly contactGroupId?: string | undefined;
  /** Case-insensitive prefix of the name or the email. */
  readonly q?: string | undefined;
}

/** One keyset page of the workspace's unarchived contacts in id order. */
export async function listContactsPage(client: Db, workspaceId: string, filter: ContactFilter, afterId: string | undefined, take: number): Promise<ContactRecord[]> {
  const filters = {
    ...(filter.kind === undefined ? {} : { kind: filter.kind }),
    ...(filter.contactGroupId === undefined ? {} : { groupLinks: { some: { contactGroupId: filter.contactGroupId } } }),
    ...(filter.q === undefined ? {} : { OR: [{ displayName: { startsWith: filter.q, mode: 'insensitive' as const } }, { email: { startsWith: filter.q, mode: 'insensitive' as const } }] }),
  };
  const rows = await client.prisma.contact.findMany({ ...unarchivedPage(workspaceId, filters, afterId, take, filter.onlyIds), select });
  return rows.map(record);
}

/** The kind of an unarchived contact of the workspace, or null when there is none with that id. */
export async function contactKindOf(client: Db, workspaceId: string, id: string): Promise<ContactKind | null> {
  const row = await client.prisma.contact.findFirst({ where: { workspaceId, id, archivedAt: null }, select: { kind: true } });
  return row?.kind ?? null;
}

/** How many contacts (archived ones included) name this contact as their organization. */
export async function countOrganizationPeople(tx: Db, workspaceId: string, organizationId: string): Promise<number> {
  return tx.prisma.contact.count({ where: { workspaceId, organizationId } });
}

export interface ContactChanges {
  readonly kind?: ContactKind;
  readonly name?: string;
  readonly email?: string | null;
  readonly phone?: string | null;
  readonly organizationId?: string | null;
  readonly address?: ContactAddress | null;
}

function jsonAddress(address: ContactAddress | null): Prisma.InputJsonValue | typeof Prisma.DbNull {
  return address === null ? Prisma.DbNull : (address as unknown as Prisma.InputJsonValue);
}

function columns(change: ContactChanges) {
  return {
    ...(change.kind === undefined ? {} : { kind: change.kind }),
    ...(change.name === undefined ? {} : { displayName: change.name }),
    ...(change.email === undefined ? {} : { email: change.email }),
    ...(change.phone === undefined ? {} : { phone: change.phone }),
    ...(change.organizationId === undefined ? {} : { organizationId: change.organizationId }),
    ...(change.address === undefined ? {} : { address: jsonAddress(change.address) }),
  };
}

async function replaceLinks(tx: Db, workspaceId: string, contactId: string, groupIds: readonly string[]): Promise<void> {
  await tx.prisma.contactGroupMembership.deleteMany({ where: { workspaceId, contactId } });
  if (groupIds.length > 0) await tx.prisma.contactGroupMembership.createMany({ data: groupIds.map((contactGroupId) => ({ workspaceId, contactId, contactGroupId })) });
}

export async function insertContact(
  tx: Db,
  workspaceId: string,
  input: Required<Pick<ContactChanges, 'kind' | 'name'>> & ContactChanges & { contactGroupIds: readonly string[] },
): Promise<ContactRecord> {
  const { id } = await tx.prisma.contact.create({
    data: {
      workspaceId,
      kind: input.kind,
      displayName: input.name,
      email: input.email ?? null,
      phone: input.phone ?? null,
      organizationId: input.organizationId ?? null,
      address: jsonAddress(input.address ?? null),
    },
    select: { id: true },
  });
  await replaceLinks(tx, workspaceId, id, input.contactGroupIds);
  return (await findContact(tx, workspaceId, id))!;
}

/**
 * Compare-and-set of a contact's attributes and (when given) its whole group set: one
 * `UPDATE … WHERE revision = $expected`; the link rows are replaced only when that update applied.
 */
export async function updateContactIfRevision(
  tx: Db,
  workspaceId: string,
  id: string,
  expectedRevision: number,
  change: ContactChanges & { contactGroupIds?: readonly string[] },
): Promise<CasOutcome> {
  const { count } = await tx.prisma.contact.updateMany({
    where: { workspaceId, id, revision: expectedRevision },
    data: { ...columns(change), revision: { increment: 1 } },
  });
  if (count !== 1) return (await tx.prisma.contact.count({ where: { workspaceId, id } })) > 0 ? 'version_conflict' : 'not_found';
  if (change.contactGroupIds !== undefined) await replaceLinks(tx, workspaceId, id, change.contactGroupIds);
  return 'updated';
}

/** Sets or clears `archived_at`; false when the contact is missing or already in that state. */
export function setContactArchived(tx: Db, workspaceId: string, id: string, archivedAt: Date | null): Promise<boolean> {
  return setArchivedAt(tx.prisma.contact, workspaceId, id, archivedAt);
}
