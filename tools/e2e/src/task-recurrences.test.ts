import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { V1_SCOPES } from '@workcell/credentials';
import { createDatabase, type Database } from '@workcell/db';
import { invoke, materialiseDueTaskRecurrences, type ProcedureContext } from '@workcell/domain';
import { JobQueues } from '@workcell/jobs';
import { useTestEnvironment } from '@workcell/testing';
import { useV1Cell } from './support/cell.js';
import { assertProblem, assertShape, callApi, listAllPages, type Reply } from './support/v1.js';

/**
 * v1 task recurrences end to end against the running auth, worker and api-v1 with real PostgreSQL and Redis: the
 * RRULE subset (validation pointers), time zones across daylight-saving changes (checked against Intl, not the
 * expander), month-end rules, preview without writes, recheck, external events, compare-and-set, archive/restore,
 * scopes with their paired task scopes, tenancy, resource grants, and exactly-once materialisation with two workers
 * at once and with a run that dies mid-materialisation and is run again by a fresh process.
 */

const env = useTestEnvironment();

type Rule = Record<string, unknown>;
type Recurrence = {
  id: string;
  templateTaskId: string;
  rule: Rule;
  startsOn: string;
  timeZone: string;
  status: 'active' | 'paused' | 'ended';
  nextOccurrenceAt: string | null;
  lastCheckedAt: string | null;
  archivedAt: string | null;
  version: string;
};
type Occurrence = { id: string; recurrenceId: string; taskId: string | null; scheduledFor: string; source: string; status: string };
type Operation = { id: string; kind: string; status: string; resourceType: string; resourceId: string; completedAt: string | null };
type Task = { id: string; title: string; dueAt: string | null; projectId: string | null; priority: string };

const MANAGE = ['task-recurrences:read', 'task-recurrences:write', 'tasks:read', 'tasks:write'];

/** The UTC instant of local midnight of `date` in `timeZone`, computed with Intl alone (independent of the expander). */
function localMidnight(date: string, timeZone: string): string {
  const offsetAt = (ms: number): number => {
    const parts = Object.fromEntries(
      new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' })
        .formatToParts(new Date(ms))
        .map((p) => [p.type, p.value]),
    );
    return Date.UTC(+parts.year!, +parts.month! - 1, +parts.day!, +parts.hour!, +parts.minute!, +parts.second!) - ms;
  };
  const wall = Date.parse(`${date}T00:00:00Z`);
  let instant = wall - offsetAt(wall);
  instant = wall - offsetAt(instant);
  return new Date(instant).toISOString();
}

describe('v1 task recurrences', () => {
  const cell = useV1Cell(env);
  let admin: string;
  let seq = 0;
  const other = { workspaceId: '', taskId: '', recurrenceId: '' };

  const call = <T = unknown>(method: string, path: string, token: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply<T>> =>
    callApi<T>(cell.v1, method, path, token, body, headers);
  const task = async (body: Record<string, unknown> = {}) => {
    const reply = await call<{ data: Task }>('POST', '/v1/tasks', admin, { title: `Template ${++seq}`, ...body });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    return reply.body.data.id;
  };
  const create = async (body: Record<string, unknown>, token = admin) => {
    const templateTaskId = (body.templateTaskId as string | undefined) ?? (await task());
    const reply = await call<{ data: Recurrence }>('POST', '/v1/task-recurrences', token, { startsOn: '2030-01-01', timeZone: 'UTC', ...body, templateTaskId });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    return reply.body.data;
  };
  const get = async (id: string) => (await call<{ data: Recurrence }>('GET', `/v1/task-recurrences/${id}`, admin)).body.data;
  const occurrences = (id: string, token = admin) => listAllPages<Occurrence>(cell.v1, `/v1/task-recurrences/${id}/occurrences`, token);
  const recheck = async (id: string, token = admin) => {
    const reply = await call<{ data: Operation }>('POST', `/v1/task-recurrences/${id}/recheck`, token);
    assert.equal(reply.status, 202, JSON.stringify(reply.body));
    assert.equal(reply.headers.get('location'), `/v1/task-recurrences/${id}/occurrences`);
    return reply.body.data;
  };
  const preview = async (id: string, body: Record<string, unknown> = {}) => {
    const reply = await call<{ data: { recurrenceId: string; occurrences: string[] } }>('POST', `/v1/task-recurrences/${id}/preview`, admin, body);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    return reply.body.data.occurrences;
  };
  /** The scheduled instants of a series' occurrences, sorted. */
  const instants = async (id: string) => (await occurrences(id)).map((o) => o.scheduledFor).sort();
  /** Makes a series' past instants due, as if it had been created before them (the worker does not backfill). */
  const dueSince = (id: string, instant: string) =>
    cell.database.prisma.taskRecurrence.update({ where: { workspaceId_id: { workspaceId: cell.workspaceId, id } }, data: { state: 'active', nextOccurrenceAt: new Date(instant) } });
  const tasksMadeBy = (recurrenceId: string) => cell.database.prisma.taskOccurrence.count({ where: { workspaceId: cell.workspaceId, recurrenceId, taskId: { not: null } } });

  beforeAll(async () => {
    admin = await cell.mint(V1_SCOPES);
    other.workspaceId = await cell.otherWorkspace();
    other.taskId = (await cell.database.prisma.task.create({ data: { workspaceId: other.workspaceId, title: 'Foreign' } })).id;
    other.recurrenceId = (
      await cell.database.prisma.taskRecurrence.create({
        data: { workspaceId: other.workspaceId, taskId: other.taskId, rule: { frequency: 'daily' }, startsOn: new Date('2026-01-01'), timezone: 'UTC', nextOccurrenceAt: new Date('2026-01-01') },
      })
    ).id;
  });

  describe('create, read, list', () => {
    it('creates a series: 201, Location, ETag, the shape, the cursor at the first instant, and task_recurrence.created', async () => {
      const templateTaskId = await task();
      const reply = await call<{ data: Recurrence }>('POST', '/v1/task-recurrences', admin, {
        templateTaskId,
        rule: { frequency: 'weekly', byWeekday: ['mo', 'we'] },
        startsOn: '2030-01-02',
        timeZone: 'Europe/Berlin',
      });
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
      const r = reply.body.data;
      assertShape('createTaskRecurrence', r);
      assert.equal(reply.headers.get('location'), `/v1/task-recurrences/${r.id}`);
      assert.equal(reply.headers.get('etag'), '"1"');
      assert.deepEqual([r.templateTaskId, r.status, r.version, r.startsOn, r.timeZone, r.lastCheckedAt], [templateTaskId, 'active', '1', '2030-01-02', 'Europe/Berlin', null]);
      assert.equal(r.nextOccurrenceAt, localMidnight('2030-01-02', 'Europe/Berlin'));
      assert.deepEqual(await get(r.id), r);
      const events = await cell.outbox(r.id, 'task_recurrence.created');
      assert.equal(events.length, 1);
      assert.equal((events[0]!.payload as { taskRecurrence: Recurrence }).taskRecurrence.id, r.id);
      const listed = await listAllPages<Recurrence>(cell.v1, `/v1/task-recurrences?templateTaskId=${templateTaskId}`, admin);
      assert.deepEqual(
        listed.map((x) => x.id),
        [r.id],
      );
      assert.deepEqual(await listAllPages<Recurrence>(cell.v1, `/v1/task-recurrences?templateTaskId=${randomUUID()}`, admin), []);
      assert.ok((await listAllPages<Recurrence>(cell.v1, '/v1/task-recurrences?status=active&limit=2', admin)).some((x) => x.id === r.id));
      assert.ok(!(await listAllPages<Recurrence>(cell.v1, '/v1/task-recurrences?status=paused', admin)).some((x) => x.id === r.id));
    });

    it('a start in the past makes nothing before the series’ creation: the cursor is the first instant from now on', async () => {
      const r = await create({ rule: { frequency: 'daily' }, startsOn: '2026-01-01', timeZone: 'Pacific/Auckland' });
      const next = Date.parse(r.nextOccurrenceAt!);
      assert.ok(next >= Date.now() - 60_000 && next <= Date.now() + 86_400_000, r.nextOccurrenceAt!);
      const localDay = new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Auckland' }).format(new Date(next));
      assert.equal(r.nextOccurrenceAt, localMidnight(localDay, 'Pacific/Auckland'));
      assert.equal(r.status, 'active');
      assert.deepEqual(await occurrences(r.id), []);
      const past = await create({ rule: { frequency: 'daily', count: 3 }, startsOn: '2026-01-01' });
      assert.deepEqual([past.status, past.nextOccurrenceAt], ['ended', null]);
    });

    it('a rule with no instant is an ended series; an external one has no cursor', async () => {
      const ended = await create({ rule: { frequency: 'monthly', byMonthDay: [31], until: '2030-02-28' }, startsOn: '2030-02-01' });
      assert.deepEqual([ended.status, ended.nextOccurrenceAt], ['ended', null]);
      const external = await create({ rule: { frequency: 'external' } });
      assert.deepEqual([external.status, external.nextOccurrenceAt], ['active', null]);
    });

    it('refuses what the RRULE subset does not take, with a pointer per issue, and writes nothing', async () => {
      const templateTaskId = await task();
      const before = await cell.database.prisma.taskRecurrence.count({ where: { workspaceId: cell.workspaceId } });
      const base = { templateTaskId, startsOn: '2030-01-01', timeZone: 'UTC' };
      const cases: [Record<string, unknown>, string][] = [
        [{ ...base, rule: { frequency: 'monthly', byMonthDay: [1, 0] } }, '/rule/byMonthDay/1'],
        [{ ...base, rule: { frequency: 'monthly', byMonthDay: [32] } }, '/rule/byMonthDay/0'],
        [{ ...base, rule: { frequency: 'monthly', byWeekday: ['mo'], bySetPosition: [0] } }, '/rule/bySetPosition/0'],
        [{ ...base, rule: { frequency: 'monthly', bySetPosition: [-1] } }, '/rule/bySetPosition'],
        [{ ...base, rule: { frequency: 'daily', count: 3, until: '2030-02-01' } }, '/rule/until'],
        [{ ...base, rule: { frequency: 'daily', until: '2029-12-31' } }, '/rule/until'],
        [{ ...base, rule: { frequency: 'weekly', byMonthDay: [1] } }, '/rule/byMonthDay'],
        [{ ...base, rule: { frequency: 'weekly', byWeekday: ['mo', 'mo'] } }, '/rule/byWeekday/1'],
        [{ ...base, rule: { frequency: 'external', interval: 2 } }, '/rule/interval'],
        [{ ...base, rule: { frequency: 'hourly' } }, '/rule/frequency'],
        [{ ...base, rule: { frequency: 'daily', byHour: [9] } }, '/rule'],
        [{ ...base, rule: { frequency: 'daily' }, timeZone: 'Mars/Olympus' }, '/timeZone'],
        [{ ...base, rule: { frequency: 'daily' }, startsOn: '2030-02-30' }, '/startsOn'],
        [{ ...base, rule: { frequency: 'daily' }, templateTaskId: randomUUID() }, '/templateTaskId'],
        [{ ...base, rule: { frequency: 'daily' }, templateTaskId: other.taskId }, '/templateTaskId'],
      ];
      for (const [body, pointer] of cases) assertProblem(await call('POST', '/v1/task-recurrences', admin, body), 400, 'validation_failed', pointer);
      const archived = await task();
      assert.equal((await call('DELETE', `/v1/tasks/${archived}`, admin, undefined, { 'if-match': '"1"' })).status < 300, true);
      assertProblem(await call('POST', '/v1/task-recurrences', admin, { ...base, rule: { frequency: 'daily' }, templateTaskId: archived }), 400, 'validation_failed', '/templateTaskId');
      assert.equal(await cell.database.prisma.taskRecurrence.count({ where: { workspaceId: cell.workspaceId } }), before);
    });
  });

  describe('schedules', () => {
    it('daylight-saving changes: occurrences stay at local midnight (spring forward in Berlin, fall back in New York), their tasks copy the template', async () => {
      const projectId = (await call<{ data: { id: string } }>('POST', '/v1/projects', admin, { name: 'Recurring' })).body.data.id;
      const templateTaskId = await task({ title: 'Water the plants', priority: 'high', projectId });
      const berlin = await create({ templateTaskId, rule: { frequency: 'daily', count: 4 }, startsOn: '2026-03-27', timeZone: 'Europe/Berlin' });
      await recheck(berlin.id);
      const expected = ['2026-03-27', '2026-03-28', '2026-03-29', '2026-03-30'].map((d) => localMidnight(d, 'Europe/Berlin'));
      assert.deepEqual(await instants(berlin.id), expected);
      assert.deepEqual(expected, ['2026-03-26T23:00:00.000Z', '2026-03-27T23:00:00.000Z', '2026-03-28T23:00:00.000Z', '2026-03-29T22:00:00.000Z']);
      for (const o of await occurrences(berlin.id)) {
        assert.equal(o.status, 'created');
        const t = (await call<{ data: Task }>('GET', `/v1/tasks/${o.taskId}`, admin)).body.data;
        assert.deepEqual([t.title, t.priority, t.projectId, t.dueAt], ['Water the plants', 'high', projectId, o.scheduledFor]);
        assert.equal((await cell.outbox(t.id, 'task.created')).length, 1);
      }
      const ended = await get(berlin.id);
      assert.deepEqual([ended.status, ended.nextOccurrenceAt], ['ended', null]);
      assert.ok(ended.lastCheckedAt !== null);

      const newYork = await create({ rule: { frequency: 'daily', count: 3 }, startsOn: '2026-10-31', timeZone: 'America/New_York' });
      await recheck(newYork.id);
      assert.deepEqual(await instants(newYork.id), ['2026-10-31T04:00:00.000Z', '2026-11-01T04:00:00.000Z', '2026-11-02T05:00:00.000Z']);
      assert.deepEqual(
        await instants(newYork.id),
        ['2026-10-31', '2026-11-01', '2026-11-02'].map((d) => localMidnight(d, 'America/New_York')),
      );
    });

    it('month ends: day 31 skips the short months (RFC 5545), -1 is each last day, and mo..fr with bySetPosition -1 the last weekday', async () => {
      const thirtyFirst = await create({ rule: { frequency: 'monthly', byMonthDay: [31], until: '2026-08-15' }, startsOn: '2026-01-01' });
      await recheck(thirtyFirst.id);
      assert.deepEqual(
        await instants(thirtyFirst.id),
        ['2026-01-31', '2026-03-31', '2026-05-31', '2026-07-31'].map((d) => `${d}T00:00:00.000Z`),
      );
      const last = await create({ rule: { frequency: 'monthly', byMonthDay: [-1], count: 4 }, startsOn: '2026-01-01', timeZone: 'Asia/Tokyo' });
      await recheck(last.id);
      assert.deepEqual(
        await instants(last.id),
        ['2026-01-31', '2026-02-28', '2026-03-31', '2026-04-30'].map((d) => localMidnight(d, 'Asia/Tokyo')),
      );
      const weekday = await create({ rule: { frequency: 'monthly', byWeekday: ['mo', 'tu', 'we', 'th', 'fr'], bySetPosition: [-1], count: 5 }, startsOn: '2026-01-01', timeZone: 'America/New_York' });
      await recheck(weekday.id);
      assert.deepEqual(
        await instants(weekday.id),
        ['2026-01-30', '2026-02-27', '2026-03-31', '2026-04-30', '2026-05-29'].map((d) => localMidnight(d, 'America/New_York')),
      );
    });

    it('preview shows the next instants of the stored rule or of a draft and writes nothing', async () => {
      const r = await create({ rule: { frequency: 'daily' }, startsOn: '2027-03-26', timeZone: 'Europe/Berlin' });
      assert.deepEqual(
        await preview(r.id, { count: 4 }),
        ['2027-03-26', '2027-03-27', '2027-03-28', '2027-03-29'].map((d) => localMidnight(d, 'Europe/Berlin')),
      );
      assert.equal((await preview(r.id)).length, 10);
      assert.deepEqual(await preview(r.id, { rule: { frequency: 'weekly', byWeekday: ['fr'], interval: 2 }, count: 2 }), [
        localMidnight('2027-03-26', 'Europe/Berlin'),
        localMidnight('2027-04-09', 'Europe/Berlin'),
      ]);
      assert.deepEqual(await preview(r.id, { timeZone: 'UTC', startsOn: '2028-02-28', count: 3 }), ['2028-02-28T00:00:00.000Z', '2028-02-29T00:00:00.000Z', '2028-03-01T00:00:00.000Z']);
      const reply = await call<{ data: { recurrenceId: string; occurrences: string[] } }>('POST', `/v1/task-recurrences/${r.id}/preview`, admin, {});
      assertShape('previewTaskRecurrence', reply.body.data);
      assertProblem(await call('POST', `/v1/task-recurrences/${r.id}/preview`, admin, { rule: { frequency: 'monthly', byMonthDay: [0] } }), 400, 'validation_failed', '/rule/byMonthDay/0');
      assertProblem(await call('POST', `/v1/task-recurrences/${r.id}/preview`, admin, { count: 101 }), 400, 'validation_failed', '/count');
      assert.deepEqual(await preview((await create({ rule: { frequency: 'external' } })).id), []);
      const after = await get(r.id);
      assert.deepEqual([after.version, after.nextOccurrenceAt], [r.version, r.nextOccurrenceAt]);
      assert.deepEqual(
        (await cell.outbox(r.id)).map((e) => e.eventType),
        ['task_recurrence.created'],
      );
      assert.equal(await cell.database.prisma.taskOccurrence.count({ where: { workspaceId: cell.workspaceId, recurrenceId: r.id } }), 0);
    });
  });

  describe('rules the expander cannot finish, and the 0001–9999 bound (issue 25)', () => {
    /** Every instant a reply carries lies in 0001–9999 (JavaScript writes later years as `+010000-…`). */
    const inSupportedYears = (instants: readonly string[]) =>
      assert.ok(
        instants.every((i) => /^\d{4}-/.test(i) && i >= '0001-01-01'),
        JSON.stringify(instants),
      );

    it('a rule that can never make an instant is 400 at its pointer on create, update and preview, and nothing changes', async () => {
      const r = await create({ rule: { frequency: 'daily' } });
      const cases: [Rule, string, string][] = [
        // A week of one Monday has no second day; a month's "1st" no second one; a day no second anything.
        [{ frequency: 'weekly', byWeekday: ['mo'], bySetPosition: [2] }, '2030-01-01', '/rule/bySetPosition/0'],
        [{ frequency: 'monthly', byMonthDay: [1], bySetPosition: [2] }, '2030-01-01', '/rule/bySetPosition/0'],
        [{ frequency: 'monthly', byMonthDay: [1, 15], bySetPosition: [1, -3] }, '2030-01-01', '/rule/bySetPosition/1'],
        [{ frequency: 'daily', byWeekday: ['mo', 'tu'], bySetPosition: [2] }, '2030-01-01', '/rule/bySetPosition/0'],
        // Days that are both a listed weekday and a listed month day, counted over every kind of month and year (issue
        // 25: the yearly one expanded 10,000 years, 16 s with the event loop blocked): one Monday among a month's first
        // seven days; at most 24 Tuesdays, Wednesdays or Fridays a year on the 1st, 9th, 28th, 8th- or 23rd-last.
        [{ frequency: 'monthly', byWeekday: ['mo'], byMonthDay: [1, 2, 3, 4, 5, 6, 7], bySetPosition: [2] }, '2030-01-01', '/rule/bySetPosition/0'],
        [{ frequency: 'yearly', byWeekday: ['we', 'fr', 'tu'], byMonthDay: [9, 1, -8, -23, 28], bySetPosition: [53] }, '2028-05-03', '/rule/bySetPosition/0'],
        [{ frequency: 'yearly', byWeekday: ['we', 'fr', 'tu'], byMonthDay: [9, 1, -8, -23, 28], bySetPosition: [25] }, '2028-05-03', '/rule/bySetPosition/0'],
        // Every twelfth month from February is a February, which has no 30th: the expander finds nothing (its iteration cap).
        [{ frequency: 'monthly', interval: 12, byMonthDay: [30], bySetPosition: [1] }, '2030-02-01', '/rule'],
        [{ frequency: 'monthly', interval: 12, byMonthDay: [30] }, '2030-02-01', '/rule'],
      ];
      for (const [rule, startsOn, pointer] of cases) {
        const body = { rule, startsOn, timeZone: 'UTC' };
        assertProblem(await call('POST', '/v1/task-recurrences', admin, { ...body, templateTaskId: r.templateTaskId }), 400, 'validation_failed', pointer);
        assertProblem(await call('PATCH', `/v1/task-recurrences/${r.id}`, admin, { ...body, expectedVersion: r.version }), 400, 'validation_failed', pointer);
        assertProblem(await call('POST', `/v1/task-recurrences/${r.id}/preview`, admin, body), 400, 'validation_failed', pointer);
      }
      assert.deepEqual(await get(r.id), r);
      assert.deepEqual(await cell.database.prisma.taskRecurrence.count({ where: { workspaceId: cell.workspaceId, taskId: r.templateTaskId } }), 1);
      // The month's 30th as its first candidate is a rule like any other: February has none, the other months do.
      const thirtieth = await create({ rule: { frequency: 'monthly', byMonthDay: [30], bySetPosition: [1] }, startsOn: '2030-02-01' });
      assert.deepEqual(
        await preview(thirtieth.id, { count: 3 }),
        ['2030-03-30', '2030-04-30', '2030-05-30'].map((d) => `${d}T00:00:00.000Z`),
      );
      const updated = await call<{ data: Recurrence }>('PATCH', `/v1/task-recurrences/${r.id}`, admin, {
        expectedVersion: r.version,
        rule: { frequency: 'monthly', byMonthDay: [30], bySetPosition: [1] },
        startsOn: '2030-02-01',
      });
      assert.equal(updated.status, 200, JSON.stringify(updated.body));
      assert.equal(updated.body.data.nextOccurrenceAt, '2030-03-30T00:00:00.000Z');
    });

    it('a series reaching 9999-12-31 ends there: create, update and preview answer no instant past it', async () => {
      // until 9999-12-31 in Pago Pago (UTC-11) ends after 9999-12-31T23:59:59Z: the RRULE's UNTIL is capped at the bound.
      const pago = await create({ rule: { frequency: 'daily', until: '9999-12-31' }, startsOn: '9999-12-29', timeZone: 'Pacific/Pago_Pago' });
      assert.deepEqual([pago.status, pago.nextOccurrenceAt], ['active', '9999-12-29T11:00:00.000Z']);
      assert.deepEqual(await preview(pago.id), ['9999-12-29T11:00:00.000Z', '9999-12-30T11:00:00.000Z', '9999-12-31T11:00:00.000Z']);
      const last = await create({ rule: { frequency: 'daily' }, startsOn: '9999-12-31' });
      assert.deepEqual([last.status, last.nextOccurrenceAt], ['active', '9999-12-31T00:00:00.000Z']);
      assert.deepEqual(await preview(last.id), ['9999-12-31T00:00:00.000Z']);
      // A first instant past the bound: the series has none (ended), as one whose until has passed.
      const beyond = await create({ rule: { frequency: 'monthly', byMonthDay: [31], interval: 2 }, startsOn: '9999-11-01' });
      assert.deepEqual([beyond.status, beyond.nextOccurrenceAt], ['ended', null]);
      assert.deepEqual(await preview(beyond.id), []);
      for (const timeZone of ['UTC', 'Pacific/Pago_Pago', 'Pacific/Kiritimati', 'America/New_York']) {
        for (const rule of [
          { frequency: 'daily' },
          { frequency: 'weekly', byWeekday: ['mo', 'fr'] },
          { frequency: 'monthly', byMonthDay: [-1] },
          { frequency: 'yearly' },
          { frequency: 'daily', until: '9999-12-31' },
        ]) {
          const body = { rule, startsOn: '9999-12-31', timeZone };
          const instants = await preview(last.id, { ...body, count: 100 });
          inSupportedYears(instants);
          // The bound is the UTC instant's: Kiritimati's (UTC+14) local midnight of 10000-01-01 is 9999-12-31T10:00Z.
          assert.ok(instants.length <= (timeZone === 'Pacific/Kiritimati' ? 2 : 1), JSON.stringify(instants));
          const made = await create(body);
          inSupportedYears([made.nextOccurrenceAt ?? '9999-12-31']);
          const updated = await call<{ data: Recurrence }>('PATCH', `/v1/task-recurrences/${pago.id}`, admin, { ...body, expectedVersion: (await get(pago.id)).version });
          assert.equal(updated.status, 200, JSON.stringify(updated.body));
          inSupportedYears([updated.body.data.nextOccurrenceAt ?? '9999-12-31']);
        }
      }
    });

    it('a start before 0001-01-01T00:00Z (local midnight east of UTC) begins at the first instant inside the bound', async () => {
      // Tokyo's local mean time in year 1 is UTC+09:18:59: its midnight of 0001-01-01 is in year 0.
      const r = await create({ rule: { frequency: 'daily', count: 3 }, startsOn: '0001-01-01', timeZone: 'Asia/Tokyo' });
      await recheck(r.id);
      const made = await instants(r.id);
      assert.deepEqual(made, ['0001-01-01T14:41:01.000Z', '0001-01-02T14:41:01.000Z']);
      inSupportedYears(made);
    });

    it('a stored rule the expander cannot finish (from before this validation) ends its series on recheck and in the worker, never a 500', async () => {
      const stored = async (rule: { frequency: string; interval?: number; byWeekday?: string[]; byMonthDay?: number[]; bySetPosition?: number[] }) => {
        const taskId = await task();
        const row = await cell.database.prisma.taskRecurrence.create({
          data: { workspaceId: cell.workspaceId, taskId, rule, startsOn: new Date('2026-02-01'), timezone: 'UTC', nextOccurrenceAt: new Date('2026-02-02') },
        });
        return row.id;
      };
      const rechecked = await stored({ frequency: 'weekly', byWeekday: ['mo'], bySetPosition: [2] });
      await recheck(rechecked);
      assert.deepEqual([(await get(rechecked)).status, (await get(rechecked)).nextOccurrenceAt], ['ended', null]);
      assertProblem(await call('POST', `/v1/task-recurrences/${rechecked}/preview`, admin, {}), 400, 'validation_failed', '/rule/bySetPosition/0');
      const due = await stored({ frequency: 'monthly', interval: 12, byMonthDay: [30] });
      const worker = createDatabase(cell.config, { poolSize: 2 });
      try {
        const run = await invoke(materialiseDueTaskRecurrences, { database: worker, config: cell.config, now: () => new Date() }, {});
        assert.ok(!run.failed.includes(due), JSON.stringify(run));
      } finally {
        await worker.close();
      }
      assert.deepEqual([(await get(due)).status, (await get(due)).nextOccurrenceAt], ['ended', null]);
      assert.deepEqual(await occurrences(due), []);
    });

    it('the worker materialises a series up to 9999-12-31 and ends it there', async () => {
      const s = await create({ rule: { frequency: 'daily' }, startsOn: '9999-12-29', timeZone: 'Pacific/Pago_Pago' });
      // Only this series is active for the run whose clock reads the bound (the file's others would all be due then).
      const others = (await cell.database.prisma.taskRecurrence.findMany({ where: { state: 'active', id: { not: s.id } }, select: { id: true } })).map((x) => x.id);
      await cell.database.prisma.taskRecurrence.updateMany({ where: { id: { in: others } }, data: { state: 'paused' } });
      const worker = createDatabase(cell.config, { poolSize: 2 });
      try {
        const atTheBound = { database: worker, config: cell.config, now: () => new Date('9999-12-31T23:59:59.999Z') };
        const run = await invoke(materialiseDueTaskRecurrences, atTheBound, {});
        assert.deepEqual([run.series, run.occurrences, run.failed], [1, 3, []]);
        assert.deepEqual((await invoke(materialiseDueTaskRecurrences, atTheBound, {})).series, 0);
      } finally {
        await worker.close();
        await cell.database.prisma.taskRecurrence.updateMany({ where: { id: { in: others } }, data: { state: 'active' } });
      }
      assert.deepEqual(await instants(s.id), ['9999-12-29T11:00:00.000Z', '9999-12-30T11:00:00.000Z', '9999-12-31T11:00:00.000Z']);
      const after = await get(s.id);
      assert.deepEqual([after.status, after.nextOccurrenceAt], ['ended', null]);
      assert.equal(await tasksMadeBy(s.id), 3);
    });
  });

  describe('recheck', () => {
    it('answers a succeeded operation, fills a missing occurrence and never duplicates one', async () => {
      const r = await create({ rule: { frequency: 'daily', count: 3 }, startsOn: '2026-05-01' });
      const op = await recheck(r.id);
      assertShape('recheckTaskRecurrence', op);
      assert.deepEqual([op.kind, op.status, op.resourceType, op.resourceId], ['task-recurrence.recheck', 'succeeded', 'task-recurrences', r.id]);
      assert.equal(await tasksMadeBy(r.id), 3);
      // A lost occurrence (removed behind the service's back) is made again; the others are left alone.
      const [first] = await occurrences(r.id);
      await cell.database.prisma.taskOccurrence.delete({ where: { workspaceId_id: { workspaceId: cell.workspaceId, id: first!.id } } });
      await recheck(r.id);
      await recheck(r.id);
      assert.deepEqual(
        await instants(r.id),
        ['2026-05-01', '2026-05-02', '2026-05-03'].map((d) => `${d}T00:00:00.000Z`),
      );
      assert.equal((await cell.outbox(r.id, 'task_recurrence.rechecked')).length, 3);
    });

    it('a recheck of a series another transaction holds answers 409 at once instead of waiting', async () => {
      const r = await create({ rule: { frequency: 'daily', count: 2 }, startsOn: '2026-06-01' });
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let locked!: () => void;
      const taken = new Promise<void>((resolve) => (locked = resolve));
      const holder = cell.database.prisma.$transaction(async (tx) => {
        await tx.$queryRawUnsafe(`SELECT 1 FROM task_recurrences WHERE id = '${r.id}' FOR UPDATE`);
        locked();
        await held;
      });
      await taken;
      try {
        assertProblem(await call('POST', `/v1/task-recurrences/${r.id}/recheck`, admin), 409, 'conflict');
      } finally {
        release();
        await holder;
      }
      await recheck(r.id);
      assert.equal(await tasksMadeBy(r.id), 2);
    });

    it('a paused or archived series is 409 and makes nothing', async () => {
      const r = await create({ rule: { frequency: 'daily', count: 2 }, startsOn: '2030-06-01', status: 'paused' });
      assert.equal(r.status, 'paused');
      assertProblem(await call('POST', `/v1/task-recurrences/${r.id}/recheck`, admin), 409, 'conflict');
      assert.equal((await call('DELETE', `/v1/task-recurrences/${r.id}`, admin)).status, 204);
      assertProblem(await call('POST', `/v1/task-recurrences/${r.id}/recheck`, admin), 409, 'conflict');
      assert.equal(await cell.database.prisma.taskOccurrence.count({ where: { workspaceId: cell.workspaceId, recurrenceId: r.id } }), 0);
    });
  });

  describe('external events', () => {
    it('an event makes one occurrence task due at occurredAt; the same externalEventId again makes nothing and answers the same operation', async () => {
      const r = await create({ rule: { frequency: 'external' } });
      const body = { externalEventId: 'invoice-42', eventType: 'invoice.paid', occurredAt: '2026-11-02T10:30:00Z', attributes: { amount: 12, paid: true } };
      const first = await call<{ data: Operation }>('POST', `/v1/task-recurrences/${r.id}/events`, admin, body);
      assert.equal(first.status, 202, JSON.stringify(first.body));
      assertShape('submitTaskRecurrenceEvent', first.body.data);
      assert.equal(first.headers.get('location'), `/v1/task-recurrences/${r.id}/occurrences`);
      assert.deepEqual([first.body.data.kind, first.body.data.status], ['task-recurrence.event', 'succeeded']);
      const again = await call<{ data: Operation }>('POST', `/v1/task-recurrences/${r.id}/events`, admin, { ...body, occurredAt: '2026-11-03T00:00:00Z' });
      assert.equal(again.status, 202);
      assert.equal(again.body.data.id, first.body.data.id);
      const list = await occurrences(r.id);
      assert.equal(list.length, 1);
      assert.deepEqual([list[0]!.id, list[0]!.source, list[0]!.status, list[0]!.scheduledFor], [first.body.data.id, 'external-event', 'created', '2026-11-02T10:30:00.000Z']);
      assert.equal((await call<{ data: Task }>('GET', `/v1/tasks/${list[0]!.taskId}`, admin)).body.data.dueAt, '2026-11-02T10:30:00.000Z');
      await call('POST', `/v1/task-recurrences/${r.id}/events`, admin, { ...body, externalEventId: 'invoice-43' });
      assert.equal(await tasksMadeBy(r.id), 2);
      const received = await cell.outbox(r.id, 'task_recurrence.event_received');
      assert.deepEqual(
        received.map((e) => (e.payload as { duplicate: boolean }).duplicate),
        [false, true, false],
      );
      assert.deepEqual((received[0]!.payload as { attributes: unknown }).attributes, { amount: 12, paid: true });
    });

    it('a scheduled, paused or archived series takes no events (409); the body is validated with pointers', async () => {
      const scheduled = await create({ rule: { frequency: 'daily' } });
      const body = { externalEventId: 'e-1', eventType: 'x', occurredAt: '2026-11-02T10:30:00Z' };
      assertProblem(await call('POST', `/v1/task-recurrences/${scheduled.id}/events`, admin, body), 409, 'conflict');
      const paused = await create({ rule: { frequency: 'external' }, status: 'paused' });
      assertProblem(await call('POST', `/v1/task-recurrences/${paused.id}/events`, admin, body), 409, 'conflict');
      const external = await create({ rule: { frequency: 'external' } });
      assertProblem(await call('POST', `/v1/task-recurrences/${external.id}/events`, admin, { ...body, externalEventId: '' }), 400, 'validation_failed', '/externalEventId');
      assertProblem(await call('POST', `/v1/task-recurrences/${external.id}/events`, admin, { ...body, occurredAt: 'yesterday' }), 400, 'validation_failed', '/occurredAt');
      assertProblem(await call('POST', `/v1/task-recurrences/${external.id}/events`, admin, { ...body, attributes: { nested: { a: 1 } } }), 400, 'validation_failed', '/attributes/nested');
      assert.equal((await call('DELETE', `/v1/task-recurrences/${external.id}`, admin)).status, 204);
      assertProblem(await call('POST', `/v1/task-recurrences/${external.id}/events`, admin, body), 409, 'conflict');
      assert.equal(await cell.database.prisma.taskOccurrence.count({ where: { workspaceId: cell.workspaceId, recurrenceId: { in: [scheduled.id, paused.id, external.id] } } }), 0);
    });
  });

  describe('updates, archive, restore', () => {
    it('compare-and-set: 200 with the new version, 409 when stale, 400 without expectedVersion or attributes; a new rule moves the cursor', async () => {
      const r = await create({ rule: { frequency: 'daily' }, startsOn: '2030-01-01' });
      const reply = await call<{ data: Recurrence }>('PATCH', `/v1/task-recurrences/${r.id}`, admin, { expectedVersion: r.version, rule: { frequency: 'monthly', byMonthDay: [-1] } });
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      assert.deepEqual([reply.body.data.version, reply.body.data.nextOccurrenceAt], ['2', '2030-01-31T00:00:00.000Z']);
      assertProblem(await call('PATCH', `/v1/task-recurrences/${r.id}`, admin, { expectedVersion: r.version, status: 'paused' }), 409, 'version_conflict');
      assertProblem(await call('PATCH', `/v1/task-recurrences/${r.id}`, admin, { status: 'paused' }), 400, 'validation_failed', '/expectedVersion');
      assertProblem(await call('PATCH', `/v1/task-recurrences/${r.id}`, admin, { expectedVersion: '2' }), 400, 'validation_failed');
      assertProblem(await call('PATCH', `/v1/task-recurrences/${r.id}`, admin, { expectedVersion: '2', status: 'ended' }), 400, 'validation_failed', '/status');
      assertProblem(
        await call('PATCH', `/v1/task-recurrences/${r.id}`, admin, { expectedVersion: '2', rule: { frequency: 'daily', count: 1, until: '2031-01-01' } }),
        400,
        'validation_failed',
        '/rule/until',
      );
      const paused = await call<{ data: Recurrence }>('PATCH', `/v1/task-recurrences/${r.id}`, admin, { expectedVersion: '2', status: 'paused' });
      assert.equal(paused.body.data.status, 'paused');
      assert.equal((await cell.outbox(r.id, 'task_recurrence.updated')).length, 2);
    });

    it('of two concurrent updates with one version exactly one wins', async () => {
      const r = await create({ rule: { frequency: 'daily' } });
      const replies = await Promise.all(
        ['mo', 'tu', 'we', 'th'].map((d) => call('PATCH', `/v1/task-recurrences/${r.id}`, admin, { expectedVersion: r.version, rule: { frequency: 'weekly', byWeekday: [d] } })),
      );
      assert.deepEqual(replies.map((x) => x.status).sort(), [200, 409, 409, 409]);
      assert.equal((await get(r.id)).version, '2');
    });

    it('archive hides a series from lists and stops it; restore brings it back; an archived series refuses updates', async () => {
      const r = await create({ rule: { frequency: 'daily' } });
      assert.equal((await call('DELETE', `/v1/task-recurrences/${r.id}`, admin)).status, 204);
      assert.equal((await call('DELETE', `/v1/task-recurrences/${r.id}`, admin)).status, 204);
      const archived = await get(r.id);
      assert.ok(archived.archivedAt !== null);
      assert.ok(!(await listAllPages<Recurrence>(cell.v1, '/v1/task-recurrences?limit=200', admin)).some((x) => x.id === r.id));
      assertProblem(await call('PATCH', `/v1/task-recurrences/${r.id}`, admin, { expectedVersion: archived.version, status: 'paused' }), 409, 'conflict');
      const restored = await call<{ data: Recurrence }>('POST', `/v1/task-recurrences/${r.id}/restore`, admin);
      assert.equal(restored.status, 200);
      assert.equal(restored.body.data.archivedAt, null);
      assert.deepEqual(
        (await cell.outbox(r.id)).map((e) => e.eventType),
        ['task_recurrence.created', 'task_recurrence.archived', 'task_recurrence.restored'],
      );
    });
  });

  describe('exactly once', () => {
    const procedureContext = (database: Database): ProcedureContext => ({ database, config: cell.config, now: () => new Date() });

    it('two workers materialising at once (and a recheck racing them) create every occurrence once', async () => {
      const series = await Promise.all([0, 1, 2].map(() => create({ rule: { frequency: 'daily', count: 20 }, startsOn: '2026-02-01', timeZone: 'Europe/Berlin' })));
      for (const x of series) await dueSince(x.id, localMidnight('2026-02-01', 'Europe/Berlin'));
      const workers = [createDatabase(cell.config, { poolSize: 2 }), createDatabase(cell.config, { poolSize: 2 })];
      try {
        // A recheck finding the series held by a worker is refused (409, retry) rather than queued on the lock.
        const racing = series.map((s) => call('POST', `/v1/task-recurrences/${s.id}/recheck`, admin));
        await Promise.all(workers.map((db) => invoke(materialiseDueTaskRecurrences, procedureContext(db), {})));
        for (const reply of await Promise.all(racing)) assert.ok([202, 409].includes(reply.status), JSON.stringify(reply.body));
        await Promise.all(workers.map((db) => invoke(materialiseDueTaskRecurrences, procedureContext(db), {})));
      } finally {
        for (const db of workers) await db.close();
      }
      for (const s of series) {
        const list = await instants(s.id);
        assert.equal(list.length, 20);
        assert.equal(new Set(list).size, 20);
        assert.equal(await tasksMadeBy(s.id), 20);
        assert.equal(await cell.database.prisma.task.count({ where: { workspaceId: cell.workspaceId, id: { in: (await occurrences(s.id)).map((o) => o.taskId!) } } }), 20);
      }
    });

    it('a worker that dies mid-materialisation leaves nothing half done; a fresh worker then creates each occurrence once', async () => {
      const title = `Crash ${randomUUID()}`;
      const templateTaskId = await task({ title });
      // The third occurrence task's insert fails: the run dies after two occurrences and their tasks were written.
      // Installed before the series exists, so no run (the cell's own worker's included) gets past it.
      await cell.database.prisma.$executeRawUnsafe(`
        CREATE OR REPLACE FUNCTION crash_third_occurrence() RETURNS trigger AS $$
        BEGIN
          IF NEW.title = '${title}' AND NEW.due_at = '2026-04-03T00:00:00Z' THEN RAISE EXCEPTION 'worker died'; END IF;
          RETURN NEW;
        END $$ LANGUAGE plpgsql`);
      await cell.database.prisma.$executeRawUnsafe('CREATE TRIGGER crash_third_occurrence BEFORE INSERT ON tasks FOR EACH ROW EXECUTE FUNCTION crash_third_occurrence()');
      const s = await create({ templateTaskId, rule: { frequency: 'daily', count: 6 }, startsOn: '2026-04-01' });
      await dueSince(s.id, '2026-04-01T00:00:00Z');
      const dying = createDatabase(cell.config, { poolSize: 1 });
      try {
        const run = await invoke(materialiseDueTaskRecurrences, procedureContext(dying), {});
        assert.ok(run.failed.includes(s.id), JSON.stringify(run));
        // While the fault stands no run (the cell's own worker's included) can make any of them.
        assert.equal(await cell.database.prisma.taskOccurrence.count({ where: { workspaceId: cell.workspaceId, recurrenceId: s.id } }), 0);
        assert.equal(await cell.database.prisma.task.count({ where: { workspaceId: cell.workspaceId, title, id: { not: templateTaskId } } }), 0);
        assert.equal((await get(s.id)).nextOccurrenceAt, '2026-04-01T00:00:00.000Z');
      } finally {
        await dying.close();
        await cell.database.prisma.$executeRawUnsafe('DROP TRIGGER crash_third_occurrence ON tasks');
        await cell.database.prisma.$executeRawUnsafe('DROP FUNCTION crash_third_occurrence()');
      }
      const fresh = createDatabase(cell.config, { poolSize: 2 });
      try {
        await invoke(materialiseDueTaskRecurrences, procedureContext(fresh), {});
        await invoke(materialiseDueTaskRecurrences, procedureContext(fresh), {});
      } finally {
        await fresh.close();
      }
      assert.deepEqual(
        await instants(s.id),
        ['01', '02', '03', '04', '05', '06'].map((d) => `2026-04-${d}T00:00:00.000Z`),
      );
      assert.equal(await cell.database.prisma.task.count({ where: { workspaceId: cell.workspaceId, title, id: { not: templateTaskId } } }), 6);
      assert.deepEqual([(await get(s.id)).status], ['ended']);
    });

    it('the running worker’s job task-recurrences.materialise makes what fell due and moves the cursor', async () => {
      const s = await create({ rule: { frequency: 'weekly', byWeekday: ['mo', 'th'], count: 5 }, startsOn: '2026-09-01', timeZone: 'America/Sao_Paulo' });
      await dueSince(s.id, localMidnight('2026-09-03', 'America/Sao_Paulo'));
      const queues = new JobQueues(cell.config);
      try {
        await queues.enqueue('task-recurrences.materialise', {});
        const deadline = Date.now() + 30_000;
        while ((await tasksMadeBy(s.id)) < 5) {
          assert.ok(Date.now() < deadline, 'the worker never materialised the series');
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      } finally {
        await queues.close();
      }
      assert.deepEqual(
        await instants(s.id),
        ['2026-09-03', '2026-09-07', '2026-09-10', '2026-09-14', '2026-09-17'].map((d) => localMidnight(d, 'America/Sao_Paulo')),
      );
      assert.ok((await occurrences(s.id)).every((o) => o.source === 'schedule' && o.status === 'created'));
      const after = await get(s.id);
      assert.deepEqual([after.status, after.nextOccurrenceAt, after.version], ['ended', null, s.version]);
      assert.equal((await cell.outbox(s.id, 'task_recurrence.occurrences_created')).length >= 1, true);
    });

    it('an archived template makes skipped occurrences without a task', async () => {
      const templateTaskId = await task();
      const s = await create({ templateTaskId, rule: { frequency: 'daily', count: 2 }, startsOn: '2026-07-01' });
      assert.ok((await call('DELETE', `/v1/tasks/${templateTaskId}`, admin, undefined, { 'if-match': '"1"' })).status < 300);
      await recheck(s.id);
      assert.deepEqual(
        (await occurrences(s.id)).map((o) => [o.status, o.taskId]),
        [
          ['skipped', null],
          ['skipped', null],
        ],
      );
    });
  });

  describe('scopes, tenancy, grants', () => {
    it('reads need tasks:read too; managing needs tasks:read and tasks:write; events need task-recurrences:run and tasks:write', async () => {
      const r = await create({ rule: { frequency: 'external' } });
      const onlyRecurrences = await cell.mint(['task-recurrences:read', 'task-recurrences:write', 'task-recurrences:run']);
      assertProblem(await call('GET', `/v1/task-recurrences/${r.id}`, onlyRecurrences), 403, 'insufficient_scope');
      assertProblem(await call('GET', '/v1/task-recurrences', onlyRecurrences), 403, 'insufficient_scope');
      assertProblem(await call('POST', `/v1/task-recurrences/${r.id}/preview`, onlyRecurrences, {}), 403, 'insufficient_scope');
      const reader = await cell.mint(['task-recurrences:read', 'tasks:read']);
      assert.equal((await call('GET', `/v1/task-recurrences/${r.id}`, reader)).status, 200);
      assert.equal((await call('GET', `/v1/task-recurrences/${r.id}/occurrences`, reader)).status, 200);
      assertProblem(await call('POST', `/v1/task-recurrences/${r.id}/recheck`, reader), 403, 'insufficient_scope');
      const noTaskWrite = await cell.mint(['task-recurrences:read', 'task-recurrences:write', 'tasks:read']);
      assertProblem(await call('PATCH', `/v1/task-recurrences/${r.id}`, noTaskWrite, { expectedVersion: r.version, status: 'paused' }), 403, 'insufficient_scope');
      const body = { externalEventId: 'scoped', eventType: 'x', occurredAt: '2026-11-02T10:30:00Z' };
      assertProblem(await call('POST', `/v1/task-recurrences/${r.id}/events`, await cell.mint(['task-recurrences:run']), body), 403, 'insufficient_scope');
      assertProblem(await call('POST', `/v1/task-recurrences/${r.id}/events`, await cell.mint(['task-recurrences:write', 'tasks:write']), body), 403, 'insufficient_scope');
      const runner = await cell.mint(['task-recurrences:run', 'tasks:write']);
      assert.equal((await call('POST', `/v1/task-recurrences/${r.id}/events`, runner, body)).status, 202);
      const manager = await cell.mint(MANAGE);
      assert.equal((await call('PATCH', `/v1/task-recurrences/${r.id}`, manager, { expectedVersion: r.version, status: 'paused' })).status, 200);
    });

    it('another workspace’s series answers like a missing one (404) and is never changed or listed', async () => {
      for (const id of [other.recurrenceId, randomUUID(), 'not-a-uuid']) {
        assertProblem(await call('GET', `/v1/task-recurrences/${id}`, admin), 404, 'not_found');
        assertProblem(await call('GET', `/v1/task-recurrences/${id}/occurrences`, admin), 404, 'not_found');
        assertProblem(await call('PATCH', `/v1/task-recurrences/${id}`, admin, { expectedVersion: '1', status: 'paused' }), 404, 'not_found');
        assertProblem(await call('DELETE', `/v1/task-recurrences/${id}`, admin), 404, 'not_found');
        assertProblem(await call('POST', `/v1/task-recurrences/${id}/restore`, admin), 404, 'not_found');
        assertProblem(await call('POST', `/v1/task-recurrences/${id}/preview`, admin, {}), 404, 'not_found');
        assertProblem(await call('POST', `/v1/task-recurrences/${id}/recheck`, admin), 404, 'not_found');
        assertProblem(await call('POST', `/v1/task-recurrences/${id}/events`, admin, { externalEventId: 'x', eventType: 'x', occurredAt: '2026-11-02T10:30:00Z' }), 404, 'not_found');
      }
      const foreign = await cell.database.prisma.taskRecurrence.findFirstOrThrow({ where: { workspaceId: other.workspaceId, id: other.recurrenceId } });
      assert.deepEqual([foreign.revision, foreign.archivedAt, foreign.state], [1, null, 'active']);
      assert.ok(!(await listAllPages<Recurrence>(cell.v1, '/v1/task-recurrences?limit=200', admin)).some((x) => x.id === other.recurrenceId));
    });

    it('a service account sees the series of granted tasks only, and needs a type-wide task write grant to change one', async () => {
      const a = await create({ rule: { frequency: 'external' } });
      const b = await create({ rule: { frequency: 'external' } });
      const scopes = [...MANAGE, 'task-recurrences:run'];
      const reader = await cell.serviceAccount(scopes, [{ resourceType: 'task', resourceId: a.templateTaskId, access: 'write' }]);
      assert.equal((await call('GET', `/v1/task-recurrences/${a.id}`, reader.token)).status, 200);
      assertProblem(await call('GET', `/v1/task-recurrences/${b.id}`, reader.token), 404, 'not_found');
      assert.deepEqual(
        (await listAllPages<Recurrence>(cell.v1, '/v1/task-recurrences?limit=200', reader.token)).map((x) => x.id),
        [a.id],
      );
      assertProblem(await call('PATCH', `/v1/task-recurrences/${a.id}`, reader.token, { expectedVersion: a.version, status: 'paused' }), 403, 'insufficient_grant');
      assertProblem(await call('POST', `/v1/task-recurrences/${a.id}/events`, reader.token, { externalEventId: 'g', eventType: 'x', occurredAt: '2026-11-02T10:30:00Z' }), 403, 'insufficient_grant');
      assertProblem(await call('DELETE', `/v1/task-recurrences/${a.id}`, reader.token), 403, 'insufficient_grant');
      assertProblem(await call('POST', `/v1/task-recurrences/${a.id}/restore`, reader.token), 403, 'insufficient_grant');
      assert.equal((await get(a.id)).archivedAt, null);
      const writer = await cell.serviceAccount(scopes, [{ resourceType: 'task', resourceId: null, access: 'write' }]);
      assert.equal((await call('PATCH', `/v1/task-recurrences/${b.id}`, writer.token, { expectedVersion: b.version, status: 'paused' })).status, 200);
    });
  });

  describe('idempotency', () => {
    it('a keyed create replays the first response and makes one series', async () => {
      const templateTaskId = await task();
      const headers = { 'idempotency-key': randomUUID() };
      const body = { templateTaskId, rule: { frequency: 'daily' }, startsOn: '2030-01-01', timeZone: 'UTC' };
      const first = await call<{ data: Recurrence }>('POST', '/v1/task-recurrences', admin, body, headers);
      const second = await call<{ data: Recurrence }>('POST', '/v1/task-recurrences', admin, body, headers);
      assert.deepEqual([first.status, second.status], [201, 201]);
      assert.deepEqual(second.body, first.body);
      assert.equal(await cell.database.prisma.taskRecurrence.count({ where: { workspaceId: cell.workspaceId, taskId: templateTaskId } }), 1);
    });
  });
});
