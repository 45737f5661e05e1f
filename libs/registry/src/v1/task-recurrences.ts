import { z } from 'zod';
import { archivableFields, casPatchOf, DateOnly, ResourceId, Timestamp, TimeZone, Version } from '../schemas/common.js';
import type { OperationDefinition } from '../types.js';
import { family } from './builders.js';

const f = family('task-recurrences');

export const RecurrenceRule = z
  .strictObject({
    frequency: z
      .enum(['daily', 'weekly', 'monthly', 'yearly', 'external'])
      .describe(
        'RRULE FREQ (DAILY, WEEKLY, MONTHLY, YEARLY). `external`: no schedule; occurrences are created by submitted external events (submitTaskRecurrenceEvent) and no other rule part is accepted.',
      ),
    interval: z.number().int().min(1).max(366).optional().describe('RRULE INTERVAL (default 1).'),
    byWeekday: z
      .array(z.enum(['mo', 'tu', 'we', 'th', 'fr', 'sa', 'su']))
      .max(7)
      .optional()
      .describe('RRULE BYDAY without ordinals (each weekday at most once).'),
    byMonthDay: z
      .array(z.number().int().min(-31).max(31))
      .max(31)
      .optional()
      .describe('RRULE BYMONTHDAY (not 0; -1 is the last day of the month). Per RFC 5545 a day a month does not have is skipped: 31 produces nothing in April, June, September, November or February.'),
    bySetPosition: z
      .array(z.number().int().min(-366).max(366))
      .max(10)
      .optional()
      .describe(
        "RRULE BYSETPOS (not 0): keeps the n-th of each period's candidates, e.g. byWeekday mo..fr with bySetPosition [-1] is the last weekday of the month. Needs byWeekday or byMonthDay. A position no period has that many candidates for (a week has its byWeekday, a month its byMonthDay or five of each weekday, a year twelve of each month day or 53 of each weekday, a day one) is 400 at its pointer.",
      ),
    count: z.number().int().min(1).max(10_000).optional().describe('RRULE COUNT; not with `until`.'),
    until: DateOnly.optional().describe("Last local day (inclusive) in the series' time zone; not with `count`."),
  })
  .meta({
    id: 'RecurrenceRule',
    description:
      "When a series creates task occurrences: the RFC 5545 RRULE subset FREQ, INTERVAL, BYDAY (no ordinals), BYMONTHDAY, BYSETPOS, COUNT and UNTIL, expanded from local midnight of `startsOn` in the series' IANA time zone (rrule-temporal), so every occurrence is local midnight of its day, across daylight-saving changes. Anything else is 400 `validation_failed` with a pointer to the offending member, and so is a rule that can never make an instant (its parts exclude each other: `/rule`, or the set position's own pointer). Instants lie in 0001-01-01T00:00:00Z–9999-12-31T23:59:59.999Z (UTC), like every date of the API: a series reaching 9999-12-31 ends there (`ended`), an until past it is taken as it. An expansion looks at most 10,000 of the rule's periods (from the first day with `count`) and 10,000 instants; finding none there is the end of the series, never an error.",
  });

export const TaskRecurrence = z
  .object({
    ...archivableFields,
    templateTaskId: ResourceId.describe('Task copied for every occurrence.'),
    rule: RecurrenceRule,
    startsOn: DateOnly,
    timeZone: TimeZone,
    status: z.enum(['active', 'paused', 'ended']),
    nextOccurrenceAt: Timestamp.nullable(),
    lastCheckedAt: Timestamp.nullable(),
    version: Version,
  })
  .meta({ id: 'TaskRecurrence', description: 'A recurring task series.' });

const recurrenceFields = z.strictObject({
  rule: RecurrenceRule,
  startsOn: DateOnly,
  timeZone: TimeZone,
  status: z.enum(['active', 'paused']).optional(),
});
export const TaskRecurrenceCreate = recurrenceFields.extend({ templateTaskId: ResourceId }).meta({ id: 'TaskRecurrenceCreate', description: 'A new series for an existing template task.' });
export const TaskRecurrenceUpdate = casPatchOf(recurrenceFields, 'TaskRecurrenceUpdate', 'Compare-and-set of series attributes.');

export const TaskRecurrencePreviewRequest = z
  .strictObject({
    rule: RecurrenceRule.optional().describe('Draft rule to preview instead of the stored one.'),
    startsOn: DateOnly.optional(),
    timeZone: TimeZone.optional(),
    count: z.number().int().min(1).max(100).optional(),
  })
  .meta({ id: 'TaskRecurrencePreviewRequest', description: 'Preview options; nothing is stored.' });

export const TaskRecurrencePreview = z
  .object({ recurrenceId: ResourceId, occurrences: z.array(Timestamp) })
  .meta({ id: 'TaskRecurrencePreview', description: 'The next occurrences the (draft) rule would create.' });

export const TaskOccurrence = z
  .object({
    id: ResourceId,
    recurrenceId: ResourceId,
    taskId: ResourceId.nullable(),
    scheduledFor: Timestamp,
    source: z.enum(['schedule', 'external-event', 'recheck']),
    status: z.enum(['scheduled', 'created', 'skipped', 'failed']),
  })
  .meta({ id: 'TaskOccurrence', description: 'One occurrence of a series.' });

export const TaskRecurrenceEvent = z
  .strictObject({
    externalEventId: z.string().min(1).max(200).describe('Caller-side id; duplicates are ignored.'),
    eventType: z.string().min(1).max(100),
    occurredAt: Timestamp,
    attributes: z.record(z.string().max(100), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
  })
  .meta({ id: 'TaskRecurrenceEvent', description: 'An external event that can trigger an occurrence.' });

const read = ['task-recurrences:read', 'tasks:read'] as const;
const manage = ['task-recurrences:write', 'tasks:read', 'tasks:write'] as const;

export const taskRecurrenceOperations = [
  f.list('listTaskRecurrences', '/v1/task-recurrences', {
    description: "The workspace's unarchived series, oldest first, optionally of one template task and/or in one status. A service account sees the series of the tasks its resource grants cover.",
    scopes: read,
    query: { templateTaskId: ResourceId.optional(), status: z.enum(['active', 'paused', 'ended']).optional() },
    item: TaskRecurrence,
  }),
  f.get('getTaskRecurrence', '/v1/task-recurrences/{id}', {
    description:
      'One series, archived or not. `nextOccurrenceAt` is the first instant not yet materialised (null for an ended or external series); `lastCheckedAt` the last materialisation run or recheck.',
    scopes: read,
    data: TaskRecurrence,
  }),
  f.list('listTaskRecurrenceOccurrences', '/v1/task-recurrences/{id}/occurrences', {
    description: 'The occurrences a series has made, in the order they were made: `created` with the task made for it, or `skipped` (no task) when the template task was archived at the time.',
    scopes: read,
    item: TaskOccurrence,
  }),
  f.create('createTaskRecurrence', '/v1/task-recurrences', {
    description:
      "A new series of an unarchived task of the workspace (400 /templateTaskId otherwise). Every occurrence is a copy of the template (title, description, priority, project, list, assignee, estimate, tags), open and due at the occurrence: local midnight of its day in `timeZone`. The worker materialises due occurrences every minute, exactly once each, from the series' creation on: instants of a start in the past are made by a recheck only. A rule with no instant left (count or until used up, or none before 9999-12-31) makes an `ended` series; one that can never make an instant is 400 (RecurrenceRule).",
    scopes: manage,
    body: TaskRecurrenceCreate,
    data: TaskRecurrence,
  }),
  f.update('updateTaskRecurrence', '/v1/task-recurrences/{id}', {
    description:
      "Compare-and-set of the rule, first day, time zone or status (`active`, `paused`; `ended` is the schedule's to set). A changed schedule, and resuming a paused series, continue from now on after the last occurrence made (what fell due while paused is made by a recheck only). An archived series is 409 until restored.",
    scopes: manage,
    concurrency: 'cas',
    body: TaskRecurrenceUpdate,
    data: TaskRecurrence,
  }),
  f.archive('archiveTaskRecurrence', '/v1/task-recurrences/{id}', { description: 'Archives the series (no physical deletion): it materialises nothing more; the tasks it made stay.', scopes: manage }),
  f.restore('restoreTaskRecurrence', '/v1/task-recurrences/{id}/restore', { description: 'Restores an archived series; the worker continues from its cursor.', scopes: manage, data: TaskRecurrence }),
  f.action('POST', 'previewTaskRecurrence', '/v1/task-recurrences/{id}/preview', {
    summary: 'Preview the next occurrences of a series',
    description:
      'The next `count` (default 10, at most 100) instants of the stored schedule, or of a draft (rule, startsOn and timeZone in the body replace the stored ones), from now or from the first day if later, up to 9999-12-31T23:59:59.999Z and within 10,000 periods of the rule (fewer then); an external series has none. A schedule that can never make an instant is 400. Nothing is written.',
    scopes: manage,
    body: TaskRecurrencePreviewRequest,
    data: TaskRecurrencePreview,
  }),
  f.action('POST', 'recheckTaskRecurrence', '/v1/task-recurrences/{id}/recheck', {
    summary: 'Re-evaluate a series and create missing occurrences',
    description:
      "Re-evaluates the series now: every instant of its schedule from its first day up to now without an occurrence gets one (source `recheck`, at most 100 per request, oldest first, within 10,000 periods of the first day; recheck again for the rest), then the cursor moves past now (a schedule that has no further instant, or that cannot be expanded, ends the series). Done within the request: the 202 operation has succeeded and `Location` names the series' occurrences. A paused or archived series is 409, and so is one the worker or another recheck is materialising at that moment (retry).",
    scopes: manage,
    async: true,
  }),
  f.action('POST', 'submitTaskRecurrenceEvent', '/v1/task-recurrences/{id}/events', {
    summary: 'Submit an external event to a series',
    description:
      "For a series with frequency `external`: the event creates one occurrence task due at `occurredAt` (source `external-event`). `externalEventId` is the caller's key: the same id again creates nothing and answers the same operation (its id is the occurrence's). `eventType` and `attributes` are passed on in the task_recurrence.event_received event. Done within the request: the 202 operation has succeeded and `Location` names the series' occurrences. A scheduled, paused, ended or archived series is 409.",
    scopes: ['task-recurrences:run', 'tasks:write'],
    async: true,
    body: TaskRecurrenceEvent,
  }),
] satisfies readonly OperationDefinition[];
