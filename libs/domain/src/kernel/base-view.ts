/** What every stored resource row has: its id and its creation and last-change instants. */
interface StoredRow {
  readonly id: string;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** The fields every resource view starts with, as the registry's resources name them (ISO 8601 instants). */
export function baseFields(row: StoredRow): { id: string; createdAt: string; updatedAt: string } {
  return { id: row.id, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() };
}

/** baseFields and `archivedAt` (null while live), for the resources that archive instead of deleting. */
export function archivableFields(row: StoredRow & { readonly archivedAt?: Date | null }): { id: string; createdAt: string; updatedAt: string; archivedAt: string | null } {
  return { ...baseFields(row), archivedAt: row.archivedAt?.toISOString() ?? null };
}
