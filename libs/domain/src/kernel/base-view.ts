import type { archivableFields as archivableSchema, baseFields as baseSchema } from '@workcell/registry';
import type { z } from 'zod';

/** What every stored resource row has: its id and its creation and last-change instants. */
interface StoredRow {
  readonly id: string;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** The view's type of registry fields (a zod shape): each field's output, read-only. */
type ViewOfFields<F extends Readonly<Record<string, z.ZodType>>> = { readonly [K in keyof F]: z.output<F[K]> };

/** The fields every resource view starts with, as the registry's `baseFields` declare them (id, ISO 8601 instants). */
export type BaseView = ViewOfFields<typeof baseSchema>;

/** BaseView and `archivedAt`, as the registry's `archivableFields` declare them (null while live). */
export type ArchivableView = ViewOfFields<typeof archivableSchema>;

/** A row's BaseView: its id and its instants in ISO 8601. */
export function baseFields(row: StoredRow): BaseView {
  return { id: row.id, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() };
}

/** baseFields and `archivedAt` (null while live), for the resources that archive instead of deleting. */
export function archivableFields(row: StoredRow & { readonly archivedAt?: Date | null }): ArchivableView {
  return { ...baseFields(row), archivedAt: row.archivedAt?.toISOString() ?? null };
}
