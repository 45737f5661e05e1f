import { findTag, setTagArchived, type TagRecord } from '@workcell/db';
import { archivable } from '../kernel/archival.js';
import type { Versioned } from '../kernel/versioned.js';
import { type ArchivableView, withArchivableFields } from '../kernel/base-view.js';

/** A tag as the registry's Tag. */
export interface TagView extends ArchivableView {
  readonly name: string;
  readonly color: string | null;
}

export function tagView(row: TagRecord): TagView {
  return withArchivableFields(row, {
    name: row.name,
    color: row.color,
  });
}

export function versionedTag(row: TagRecord): Versioned<TagView> {
  return { resource: tagView(row), revision: row.revision };
}

/** How a tag is archived and restored (kernel/archival.ts). */
export const archivableTag = archivable({ type: 'tag', find: findTag, setArchived: setTagArchived, answer: versionedTag });
