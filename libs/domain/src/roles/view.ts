import type { RoleRecord } from '@workcell/db';
import { versionOf } from '../kernel/cas.js';
import { type BaseView, withBaseFields } from '../kernel/base-view.js';

/** A role as the registry's Role. */
export interface RoleView extends BaseView {
  readonly name: string;
  readonly description: string | null;
  readonly builtIn: boolean;
  readonly permissions: readonly string[];
  readonly version: string;
}

export function roleView(row: RoleRecord): RoleView {
  return withBaseFields(row, {
    name: row.name,
    description: row.description,
    builtIn: row.isSystem,
    permissions: row.permissions,
    version: versionOf(row.revision),
  });
}
