import type { WorkspaceSettingsRecord } from '@workcell/db';
import { versionOf } from '../kernel/cas.js';
import type { Versioned } from '../kernel/versioned.js';

/** The six-field safe settings projection (contract 5.3), as the registry's WorkspaceSettings. */
export interface WorkspaceSettingsView {
  readonly name: string;
  readonly locale: string;
  readonly timeZone: string;
  readonly weekStart: 'monday' | 'sunday';
  readonly defaultCurrency: string;
  readonly dateFormat: string;
  readonly version: string;
  readonly updatedAt: string;
}

export function versionedSettings(row: WorkspaceSettingsRecord): Versioned<WorkspaceSettingsView> {
  return {
    resource: {
      name: row.name,
      locale: row.locale,
      timeZone: row.timezone,
      weekStart: row.weekStartDay === 0 ? 'sunday' : 'monday',
      defaultCurrency: row.currency,
      dateFormat: row.dateFormat,
      version: versionOf(row.revision),
      updatedAt: row.updatedAt.toISOString(),
    },
    revision: row.revision,
  };
}
