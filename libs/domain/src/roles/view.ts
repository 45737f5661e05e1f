import type { RoleRecord } from '@workcell/db';
import { versionOf } from '../kernel/cas.js';

/** A role as the registry's Role. */
export interface RoleView {
  readonly id: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly name: string;
  readonly description: string | null;
  readonly builtIn: boolean;
  readonly permissions: readonly string[];
  readonly version: string;
}

export function roleView(row: RoleRecord): RoleView {
  return {
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    name: row.name,
    description: row.description,
    builtIn: row.isSystem,
    permissions: row.permissions,
    version: versionOf(row.revision),
  };
}
