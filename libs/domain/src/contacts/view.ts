import { type ContactAddress, type ContactKind, contactKindOf, type ContactRecord, existingContactGroupIds, findContact, setContactArchived, type Db } from '@workcell/db';
import type { PostalAddress } from '@workcell/registry';
import type { z } from 'zod';
import { archivable } from '../kernel/archival.js';
import { versionOf } from '../kernel/cas.js';
import type { FieldIssue } from '../kernel/errors.js';
import { isUuid } from '../kernel/ids.js';
import type { Versioned } from '../kernel/versioned.js';
import { assertAllFound, assertIdList, validationError } from '../roles/permission-model.js';
import { type ArchivableView, withArchivableFields } from '../kernel/base-view.js';

/** A contact as the registry's Contact. */
export interface ContactView extends ArchivableView {
  readonly kind: ContactKind;
  readonly name: string;
  readonly email: string | null;
  readonly phone: string | null;
  readonly organizationId: string | null;
  readonly contactGroupIds: readonly string[];
  readonly address: ContactAddress | null;
  readonly version: string;
}

export function contactView(row: ContactRecord): ContactView {
  return withArchivableFields(row, {
    kind: row.kind,
    name: row.name,
    email: row.email,
    phone: row.phone,
    organizationId: row.organizationId,
    contactGroupIds: row.contactGroupIds,
    address: row.address,
    version: versionOf(row.revision),
  });
}

export function versionedContact(row: ContactRecord): Versioned<ContactView> {
  return { resource: contactView(row), revision: row.revision };
}

/** The address without absent optional keys (stored as given, read back as stored). */
export function addressOf(address: z.output<typeof PostalAddress> | null | undefined): ContactAddress | null | undefined {
  if (address === undefined || address === null) return address;
  return { line1: address.line1, line2: address.line2 ?? null, postalCode: address.postalCode, city: address.city, region: address.region ?? null, country: address.country };
}

/**
 * References in a contact body, checked in the caller's workspace (another workspace's ids count as
 * missing): `contactGroupIds` name unarchived contact groups, once each; `organizationId` names an
 * unarchived organization contact and only a person has one. Each offending entry is a 400 with a pointer.
 * Returns the group ids normalised to lower case.
 */
export async function assertContactReferences(
  client: Db,
  workspaceId: string,
  subject: { id?: string; kind: ContactKind; organizationId: string | null; organizationPointer: string },
  contactGroupIds: readonly string[] | undefined,
): Promise<string[] | undefined> {
  const issues: FieldIssue[] = [];
  if (subject.organizationId !== null) {
    const orgId = subject.organizationId;
    if (subject.kind === 'organization') issues.push({ pointer: subject.organizationPointer, message: 'only a person contact can belong to an organization' });
    else if (!isUuid(orgId) || orgId.toLowerCase() === subject.id) issues.push({ pointer: subject.organizationPointer, message: `no organization contact ${JSON.stringify(orgId)} in this workspace` });
    else {
      const kind = await contactKindOf(client, workspaceId, orgId.toLowerCase());
      if (kind === null) issues.push({ pointer: subject.organizationPointer, message: `no organization contact ${JSON.stringify(orgId)} in this workspace` });
      else if (kind !== 'organization') issues.push({ pointer: subject.organizationPointer, message: `contact ${JSON.stringify(orgId)} is a person, not an organization` });
    }
  }
  if (issues.length > 0) throw validationError('the organization is not valid', issues);
  if (contactGroupIds === undefined) return undefined;
  assertIdList(contactGroupIds, '/contactGroupIds', 'contact group');
  const ids = contactGroupIds.map((id) => id.toLowerCase());
  assertAllFound(ids, await existingContactGroupIds(client, workspaceId, ids), '/contactGroupIds', 'contact group');
  return ids;
}

/** How a contact is archived and restored (kernel/archival.ts). */
export const archivableContact = archivable({ type: 'contact', find: findContact, setArchived: setContactArchived, answer: versionedContact });
