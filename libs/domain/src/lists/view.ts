import { findList, type ListKindValue, type ListRecord, setListArchived } from '@workcell/db';
import { z } from 'zod';
import { archivable } from '../kernel/archival.js';
import type { Versioned } from '../kernel/versioned.js';
import { type ArchivableView, withArchivableFields } from '../kernel/base-view.js';

/** The registry's list kinds (plural) and the stored ones (singular). */
export type ListKind = 'projects' | 'tasks';
export const listKindInput = z.enum(['projects', 'tasks']);
export const storedListKind = (kind: ListKind): ListKindValue => (kind === 'projects' ? 'project' : 'task');

/** A list as the registry's List. */
export interface ListView extends ArchivableView {
  readonly name: string;
  readonly kind: ListKind;
  readonly position: number;
  readonly color: string | null;
}

export function listView(row: ListRecord): ListView {
  return withArchivableFields(row, {
    name: row.name,
    kind: row.kind === 'project' ? 'projects' : 'tasks',
    position: row.position,
    color: row.color,
  });
}

export function versionedList(row: ListRecord): Versioned<ListView> {
  return { resource: listView(row), revision: row.revision };
}

/** How a list is archived and restored (kernel/archival.ts). */
export const archivableList = archivable({ type: 'list', find: findList, setArchived: setListArchived, answer: versionedList });
