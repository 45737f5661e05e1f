import { z } from 'zod';
import { type ContactGroupRecord, existingContactGroupIds, type Tx } from '@workcell/db';
import { isUuid, versionOf } from '../kernel/cas.js';
import type { Versioned } from '../kernel/versioned.js';
import { validationError } from '../roles/permission-model.js';

/** A contact group as the registry's ContactGroup. */
export interface ContactGroupView {
  readonly id: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly archivedAt: string | null;
  readonly name: string;
  readonly parentId: string | null;
  readonly ancestorIds: readonly string[];
  readonly version: string;
}

export function contactGroupView(row: ContactGroupRecord): ContactGroupView {
  return {
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    archivedAt: row.archivedAt?.toISOString() ?? null,
    name: row.name,
    parentId: row.parentId,
    ancestorIds: row.ancestorIds,
    version: versionOf(row.revision),
  };
}

export function versionedContactGroup(row: ContactGroupRecord): Versioned<ContactGroupView> {
  return { resource: contactGroupView(row), revision: row.revision };
}

export const contactGroupAttributes = {
  name: z.string().trim().min(1).max(200).optional(),
  parentId: z.string().max(64).nullable().optional(),
};

/** A parent named in a body must be an unarchived group of the caller's workspace (400 /parentId otherwise). Returns it in lower case. */
export async function assertParent(tx: Tx, workspaceId: string, parentId: string): Promise<string> {
  const id = parentId.toLowerCase();
  if (!isUuid(parentId) || !(await existingContactGroupIds(tx, workspaceId, [id])).has(id)) {
    throw validationError('the parent group is not valid', [{ pointer: '/parentId', message: `no contact group ${JSON.stringify(parentId)} in this workspace` }]);
  }
  return id;
}
