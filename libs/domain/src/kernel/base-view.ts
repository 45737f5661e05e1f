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

/**
 * A row's view: its BaseView (id, instants in ISO 8601) first, then the resource's own fields, in that order.
 * Built by assignment onto a literal, not as `{ ...baseFields(row), own }`: Node 20's V8 adds each key that follows
 * an object spread through a slow path (about 1.3 µs a key), which made a task's view 4 µs, 100 of them on a page
 * (docs/performance.md, "Object spread on the read path").
 */
export function withBaseFields<Own extends object>(row: StoredRow, own: Own): BaseView & Own {
  return Object.assign({ id: row.id, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() }, own);
}

/** withBaseFields and `archivedAt` (null while live), for the resources that archive instead of deleting. */
export function withArchivableFields<Own extends object>(row: StoredRow & { readonly archivedAt?: Date | null }, own: Own): ArchivableView & Own {
  return Object.assign({ id: row.id, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString(), archivedAt: row.archivedAt?.toISOString() ?? null }, own);
}
