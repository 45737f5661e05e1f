import { z } from 'zod';
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

/** A time-zone name the runtime's IANA database knows (what every date computation here will use). */
export function isKnownTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

export const settingsAttributes = {
  name: z.string().trim().min(1).max(200).optional(),
  locale: z.string().regex(/^[a-z]{2}(-[A-Z]{2})?$/).optional(),
  timeZone: z.string().min(1).max(64).refine(isKnownTimeZone, 'an IANA time-zone name, e.g. Europe/Berlin').optional(),
  weekStart: z.enum(['monday', 'sunday']).optional(),
  defaultCurrency: z.string().regex(/^[A-Z]{3}$/).optional(),
  dateFormat: z.enum(['YYYY-MM-DD', 'DD.MM.YYYY', 'DD/MM/YYYY', 'MM/DD/YYYY']).optional(),
};
