import { z } from 'zod';
import { archivableFields, casPatchOf, ExpectedVersion, Money, RateInput, ResourceId, ShortText, Timestamp, Version } from '../schemas/common.js';
import type { OperationDefinition } from '../types.js';
import { family } from './builders.js';

const f = family('time-entries');

export const TimeEntryBillingState = z
  .object({ billable: z.boolean(), billingRate: Money.nullable() })
  .meta({ id: 'TimeEntryBillingState', description: 'Billing overlay; present only with time-entries:billing.' });

export const TimeEntry = z
  .object({
    ...archivableFields,
    taskId: ResourceId.nullable(),
    projectId: ResourceId.nullable(),
    userId: ResourceId,
    startedAt: Timestamp,
    endedAt: Timestamp.nullable().describe('null while the timer runs.'),
    durationSeconds: z.number().int().min(0),
    note: z.string().nullable(),
    billing: TimeEntryBillingState.optional(),
    version: Version,
  })
  .meta({ id: 'TimeEntry', description: 'A time entry. `billing` is revealed only with time-entries:billing.' });

/** The longest time entry: a year, in seconds (the domain checks every range against it too). */
export const MAX_DURATION_SECONDS = 31_536_000;

const timeEntryFields = z.strictObject({
  taskId: ResourceId.nullable().optional(),
  projectId: ResourceId.nullable().optional(),
  userId: ResourceId.optional().describe('Defaults to the acting user.'),
  startedAt: Timestamp,
  endedAt: Timestamp.nullable().optional(),
  durationSeconds: z.number().int().min(0).max(MAX_DURATION_SECONDS).optional(),
  note: ShortText.nullable().optional(),
});
export const TimeEntryCreate = timeEntryFields.meta({ id: 'TimeEntryCreate', description: 'Attributes of a new time entry.' });
export const TimeEntryUpdate = casPatchOf(timeEntryFields, 'TimeEntryUpdate', 'Compare-and-set of time-entry attributes (billing state has its own operation).');

export const TimeEntryBilling = z
  .object({ timeEntryId: ResourceId, billable: z.boolean(), billingRate: Money.nullable(), version: Version })
  .meta({ id: 'TimeEntryBilling', description: 'Billable state and billing rate of a time entry.' });

export const TimeEntryBillingSet = z
  .strictObject({ expectedVersion: ExpectedVersion, billable: z.boolean(), billingRate: RateInput.nullable() })
  .meta({ id: 'TimeEntryBillingSet', description: 'Compare-and-set of billable state and billing rate.' });

const timeEntryFilters = {
  taskId: ResourceId.optional(),
  projectId: ResourceId.optional(),
  userId: ResourceId.optional(),
  startedFrom: Timestamp.optional(),
  startedTo: Timestamp.optional(),
};

const billingOverlay = ['time-entries:billing'] as const;

export const timeEntryOperations = [
  f.list('listTimeEntries', '/v1/time-entries', {
    scopes: ['time-entries:read'],
    overlayScopes: billingOverlay,
    query: timeEntryFilters,
    item: TimeEntry,
  }),
  f.create('createTimeEntry', '/v1/time-entries', { scopes: ['time-entries:write'], body: TimeEntryCreate, data: TimeEntry }),
  f.get('getTimeEntry', '/v1/time-entries/{id}', {
    scopes: ['time-entries:read'],
    overlayScopes: billingOverlay,
    data: TimeEntry,
  }),
  f.update('updateTimeEntry', '/v1/time-entries/{id}', {
    scopes: ['time-entries:write'],
    concurrency: 'cas',
    body: TimeEntryUpdate,
    data: TimeEntry,
  }),
  f.archive('archiveTimeEntry', '/v1/time-entries/{id}', { scopes: ['time-entries:write'] }),
  f.restore('restoreTimeEntry', '/v1/time-entries/{id}/restore', { scopes: ['time-entries:write'], data: TimeEntry }),
  f.get('getTimeEntryBilling', '/v1/time-entries/{id}/billing', {
    scopes: ['time-entries:billing'],
    data: TimeEntryBilling,
  }),
  f.replace('setTimeEntryBilling', '/v1/time-entries/{id}/billing', {
    summary: 'Compare-and-set the billable state and billing rate of a time entry',
    scopes: ['time-entries:billing'],
    concurrency: 'cas',
    body: TimeEntryBillingSet,
    data: TimeEntryBilling,
  }),
] satisfies readonly OperationDefinition[];
