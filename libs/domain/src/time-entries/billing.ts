import type { TimeEntryRow } from '@workcell/db';
import { versionOf } from '../kernel/cas.js';
import type { Versioned } from '../kernel/versioned.js';
import { billingOf, type Money } from './view.js';

/** A time entry's billing state as the registry's TimeEntryBilling (version: the entry's revision). */
export interface TimeEntryBillingResource {
  readonly timeEntryId: string;
  readonly billable: boolean;
  readonly billingRate: Money | null;
  readonly version: string;
}

export function versionedBilling(row: TimeEntryRow): Versioned<TimeEntryBillingResource> {
  return { resource: { timeEntryId: row.id, ...billingOf(row), version: versionOf(row.revision) }, revision: row.revision };
}
