import type { TreeGroupRecord } from '@workcell/db';
import { versionOf } from './cas.js';
import type { Versioned } from './versioned.js';
import { type ArchivableView, withArchivableFields } from './base-view.js';

/** A group of a hierarchical family (the registry's ContactGroup and ProductGroup have this one shape). */
export interface TreeGroupView extends ArchivableView {
  readonly name: string;
  readonly parentId: string | null;
  readonly ancestorIds: readonly string[];
  readonly version: string;
}

export function treeGroupView(row: TreeGroupRecord): TreeGroupView {
  return withArchivableFields(row, {
    name: row.name,
    parentId: row.parentId,
    ancestorIds: row.ancestorIds,
    version: versionOf(row.revision),
  });
}

export function versionedTreeGroup(row: TreeGroupRecord): Versioned<TreeGroupView> {
  return { resource: treeGroupView(row), revision: row.revision };
}
