import { z } from 'zod';
import type { TreeGroupRecord } from '@workcell/db';
import { versionOf } from './cas.js';
import type { Versioned } from './versioned.js';
import { archivableFields } from './base-view.js';

/** A group of a hierarchical family (the registry's ContactGroup and ProductGroup have this one shape). */
export interface TreeGroupView {
  readonly id: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly archivedAt: string | null;
  readonly name: string;
  readonly parentId: string | null;
  readonly ancestorIds: readonly string[];
  readonly version: string;
}

export function treeGroupView(row: TreeGroupRecord): TreeGroupView {
  return {
    ...archivableFields(row),
    name: row.name,
    parentId: row.parentId,
    ancestorIds: row.ancestorIds,
    version: versionOf(row.revision),
  };
}

export function versionedTreeGroup(row: TreeGroupRecord): Versioned<TreeGroupView> {
  return { resource: treeGroupView(row), revision: row.revision };
}

/** The writable attributes of a group (all optional here; create requires the name). */
export const treeGroupAttributes = {
  name: z.string().trim().min(1).max(200).optional(),
  parentId: z.string().max(64).nullable().optional(),
};
