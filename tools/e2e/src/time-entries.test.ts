import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { useTestEnvironment } from '@workcell/testing';
import { useV1Cell } from './support/cell.js';
import { assertProblem, assertShape, type ListBody, type Schema } from './support/v1.js';

/**
 * v1 time entries (issue 6), end to end against the running services: scopes, tenancy (404 for foreign
 * entries, 400 with a pointer for foreign references), range validation (running timers included),
 * compare-and-set with concurrent writers, the billing overlay and billing compare-and-set, archive/restore
 * and list exclusion, filters and cursor pagination, outbox events and idempotent creates.
 */

const env = useTestEnvironment();

type Entry = Schema<'TimeEntry'>;
type Billing = Schema<'TimeEntryBilling'>;

describe('v1 time entries', () => {
  const cell = useV1Cell(env);
  const { call, listAll, mint, outbox } = cell;
  const other = { workspaceId: '', entryId: '', memberId: '', projectId: '', taskId: '' };
  const mine = { projectId: '', taskId: '', otherProjectId: '', secondMemberId: '' };
  let seq = 0;

  const hourAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();
  /** A stopped manual entry of the owner, one hour long, started `h` hours ago. */
  const createEntry = async (body: Record<string, unknown> = {}, token = cell.admin) => {
    const reply = await call<{ data: Entry }>('POST', '/v1/time-entries', token, { startedAt: hourAgo(48), durationSeconds: 3600, note: `entry ${++seq}`, ...body });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    return reply.body.data;
  };
  const getEntry = async (id: string, token = cell.admin) => (await call<{ data: Entry }>('GET', `/v1/time-entries/${id}`, token)).body.data;
  const newMember = async (ws: string) => {
    const user = await cell.database.prisma.user.create({ data: { email: `m${randomUUID()}@example.com`, name: 'Member' } });
    return (await cell.database.prisma.workspaceMember.create({ data: { workspaceId: ws, userId: user.id } })).id;
  };

  beforeAll(async () => {
    // The demo seed may leave the owner a running timer: stop it so the tests own the timer state.
    await cell.database.prisma.timeEntry.updateMany({ where: { workspaceId: cell.workspaceId, memberId: cell.ownerMemberId, stoppedAt: null }, data: { stoppedAt: new Date(), durationSeconds: 0 } });
    mine.projectId = (await cell.database.prisma.project.create({ data: { workspaceId: cell.workspaceId, name: 'Timed project' } })).id;
    mine.otherProjectId = (await cell.database.prisma.project.create({ data: { workspaceId: cell.workspaceId, name: 'Other project' } })).id;
    mine.taskId = (await cell.database.prisma.task.create({ data: { workspaceId: cell.workspaceId, title: 'Timed task', projectId: mine.projectId } })).id;
    mine.secondMemberId = await newMember(cell.workspaceId);
    other.workspaceId = await cell.otherWorkspace();
    other.memberId = await newMember(other.workspaceId);
    other.projectId = (await cell.database.prisma.project.create({ data: { workspaceId: other.workspaceId, name: 'Foreign project' } })).id;
    other.taskId = (await cell.database.prisma.task.create({ data: { workspaceId: other.workspaceId, title: 'Foreign task' } })).id;
    other.entryId = (
      await cell.database.prisma.timeEntry.create({
        data: { workspaceId: other.workspaceId, memberId: other.memberId, startedAt: new Date(Date.now() - 7_200_000), stoppedAt: new Date(), durationSeconds: 7200 },
      })
    ).id;
  });

  describe('scopes and the billing overlay', () => {
    it('billing appears on every embedded entry only with time-entries:billing', async () => {
      const plain = await mint(['time-entries:read', 'time-entries:write']);
      const created = await createEntry({}, plain);
      assert.ok(!('billing' in created), 'create without the overlay');
      assert.ok(!('billing' in (await getEntry(created.id, plain))), 'get without the overlay');
      const listed = await listAll<Entry>(`/v1/time-entries?projectId=${mine.projectId}&limit=200`, plain);
      assert.ok(listed.length === 0 || listed.every((e) => !('billing' in e)));
      assert.ok(!('billing' in (await listAll<Entry>('/v1/time-entries?limit=200', plain)).find((e) => e.id === created.id)!));
      const updated = await call<{ data: Entry }>('PATCH', `/v1/time-entries/${created.id}`, plain, { expectedVersion: created.version, note: 'x' });
      assert.ok(!('billing' in updated.body.data), 'update without the overlay');
      const withBilling = await getEntry(created.id);
      assert.deepEqual(withBilling.billing, { billable: false, billingRate: null });
      assertShape('getTimeEntry', withBilling);
      const outboxPayloads = (await outbox(created.id)).map((e) => JSON.stringify(e.payload));
      assert.ok(
        outboxPayloads.every((p) => !p.includes('"billing"')),
        'the change feed carries no billing overlay',
      );
    });
  });

  describe('tenancy', () => {
    it('another workspace’s entry answers exactly like a missing one (404) and is never changed', async () => {
      for (const id of [other.entryId, randomUUID(), 'nope']) {
        assertProblem(await call('GET', `/v1/time-entries/${id}`, cell.admin), 404, 'not_found');
        assertProblem(await call('PATCH', `/v1/time-entries/${id}`, cell.admin, { expectedVersion: '1', note: 'x' }), 404, 'not_found');
        assertProblem(await call('DELETE', `/v1/time-entries/${id}`, cell.admin), 404, 'not_found');
        assertProblem(await call('POST', `/v1/time-entries/${id}/restore`, cell.admin), 404, 'not_found');
        assertProblem(await call('GET', `/v1/time-entries/${id}/billing`, cell.admin), 404, 'not_found');
        assertProblem(await call('PUT', `/v1/time-entries/${id}/billing`, cell.admin, { expectedVersion: '1', billable: true, billingRate: null }), 404, 'not_found');
      }
      const foreign = await cell.database.prisma.timeEntry.findFirstOrThrow({ where: { workspaceId: other.workspaceId, id: other.entryId } });
      assert.deepEqual([foreign.revision, foreign.archivedAt, foreign.billable], [1, null, false]);
      assert.ok(!(await listAll<Entry>('/v1/time-entries?limit=200')).some((e) => e.id === other.entryId));
    });

    it('foreign or unknown references in bodies are 400 with a pointer and write nothing', async () => {
      const before = await cell.database.prisma.timeEntry.count({ where: { workspaceId: cell.workspaceId } });
      assertProblem(await call('POST', '/v1/time-entries', cell.admin, { startedAt: hourAgo(2), durationSeconds: 60, taskId: other.taskId }), 400, 'validation_failed', '/taskId');
      assertProblem(await call('POST', '/v1/time-entries', cell.admin, { startedAt: hourAgo(2), durationSeconds: 60, projectId: other.projectId }), 400, 'validation_failed', '/projectId');
      assertProblem(await call('POST', '/v1/time-entries', cell.admin, { startedAt: hourAgo(2), durationSeconds: 60, userId: other.memberId }), 400, 'validation_failed', '/userId');
      assertProblem(
        await call('POST', '/v1/time-entries', cell.admin, { startedAt: hourAgo(2), durationSeconds: 60, taskId: mine.taskId, projectId: mine.otherProjectId }),
        400,
        'validation_failed',
        '/projectId',
      );
      const e = await createEntry();
      assertProblem(await call('PATCH', `/v1/time-entries/${e.id}`, cell.admin, { expectedVersion: e.version, taskId: other.taskId }), 400, 'validation_failed', '/taskId');
      assert.equal(await cell.database.prisma.timeEntry.count({ where: { workspaceId: cell.workspaceId } }), before + 1);
      assert.equal((await getEntry(e.id)).version, e.version);
    });
  });

  describe('time entries', () => {
    it('creates a manual entry: 201, Location, ETag, the registry shape, the task’s project, time_entry.created', async () => {
      const startedAt = '2026-01-05T09:00:00.000Z';
      const reply = await call<{ data: Entry }>('POST', '/v1/time-entries', cell.admin, { startedAt, endedAt: '2026-01-05T10:30:00.000Z', taskId: mine.taskId, note: 'Design review' });
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
      const e = reply.body.data;
      assert.equal(reply.headers.get('location'), `/v1/time-entries/${e.id}`);
      assert.equal(reply.headers.get('etag'), '"1"');
      assertShape('createTimeEntry', e);
      assert.deepEqual(
        { taskId: e.taskId, projectId: e.projectId, userId: e.userId, startedAt: e.startedAt, endedAt: e.endedAt, durationSeconds: e.durationSeconds, note: e.note, version: e.version },
        { taskId: mine.taskId, projectId: mine.projectId, userId: cell.ownerMemberId, startedAt, endedAt: '2026-01-05T10:30:00.000Z', durationSeconds: 5400, note: 'Design review', version: '1' },
      );
      assert.deepEqual(
        (await outbox(e.id)).map((x) => [x.eventType, x.aggregateType]),
        [['time_entry.created', 'time_entry']],
      );
      const got = await call<{ data: Entry }>('GET', `/v1/time-entries/${e.id}`, cell.admin);
      assert.equal(got.headers.get('etag'), '"1"');
      assert.deepEqual(got.body.data, e);
      const byDuration = await createEntry({ startedAt, durationSeconds: 900, userId: mine.secondMemberId });
      assert.deepEqual([byDuration.endedAt, byDuration.userId], ['2026-01-05T09:15:00.000Z', mine.secondMemberId]);
    });

    it('refuses inconsistent ranges and invalid bodies with 400 and a pointer', async () => {
      const before = await cell.database.prisma.timeEntry.count({ where: { workspaceId: cell.workspaceId } });
      assertProblem(await call('POST', '/v1/time-entries', cell.admin, { startedAt: hourAgo(1), endedAt: hourAgo(2) }), 400, 'validation_failed', '/endedAt');
      assertProblem(await call('POST', '/v1/time-entries', cell.admin, { startedAt: hourAgo(2), endedAt: hourAgo(1), durationSeconds: 5 }), 400, 'validation_failed', '/durationSeconds');
      assertProblem(await call('POST', '/v1/time-entries', cell.admin, { startedAt: hourAgo(-1) }), 400, 'validation_failed', '/startedAt');
      assertProblem(await call('POST', '/v1/time-entries', cell.admin, { startedAt: '2020-01-01T00:00:00Z', endedAt: '2022-01-01T00:00:00Z' }), 400, 'validation_failed', '/endedAt');
      assertProblem(await call('POST', '/v1/time-entries', cell.admin, { endedAt: hourAgo(1) }), 400, 'validation_failed', '/startedAt');
      assertProblem(await call('POST', '/v1/time-entries', cell.admin, { startedAt: 'yesterday' }), 400, 'validation_failed', '/startedAt');
      assertProblem(await call('POST', '/v1/time-entries', cell.admin, { startedAt: hourAgo(2), durationSeconds: -1 }), 400, 'validation_failed', '/durationSeconds');
      assertProblem(await call('POST', '/v1/time-entries', cell.admin, { startedAt: hourAgo(2), durationSeconds: 1, billable: true }), 400, 'validation_failed');
      assert.equal(await cell.database.prisma.timeEntry.count({ where: { workspaceId: cell.workspaceId } }), before);
    });

    it('a running timer: one per member (409), cannot be edited into an invalid range, endedAt stops it, never restarts', async () => {
      const started = hourAgo(1);
      const running = await createEntry({ startedAt: started, durationSeconds: undefined, taskId: mine.taskId });
      assert.equal(running.endedAt, null);
      assert.ok(running.durationSeconds >= 3599 && running.durationSeconds < 3700, String(running.durationSeconds));
      assertProblem(await call('POST', '/v1/time-entries', cell.admin, { startedAt: hourAgo(0.5) }), 409, 'timer_already_running');
      const concurrent = await Promise.all(
        [0, 1, 2, 3].map((i) => call('POST', '/v1/time-entries', cell.admin, { startedAt: hourAgo(0.5), userId: mine.secondMemberId }, {}, i % 2 ? cell.v1b : cell.v1)),
      );
      assert.deepEqual(concurrent.map((r) => r.status).sort(), [201, 409, 409, 409]);
      assertProblem(await call('PATCH', `/v1/time-entries/${running.id}`, cell.admin, { expectedVersion: running.version, startedAt: hourAgo(-2) }), 400, 'validation_failed', '/startedAt');
      assertProblem(await call('PATCH', `/v1/time-entries/${running.id}`, cell.admin, { expectedVersion: running.version, endedAt: hourAgo(3) }), 400, 'validation_failed', '/endedAt');
      assertProblem(await call('PATCH', `/v1/time-entries/${running.id}`, cell.admin, { expectedVersion: running.version, userId: mine.secondMemberId }), 400, 'validation_failed', '/userId');
      const moved = await call<{ data: Entry }>('PATCH', `/v1/time-entries/${running.id}`, cell.admin, { expectedVersion: running.version, startedAt: hourAgo(2) });
      assert.equal(moved.status, 200, JSON.stringify(moved.body));
      assert.equal(moved.body.data.endedAt, null);
      const stoppedAt = new Date().toISOString();
      const stopped = await call<{ data: Entry }>('PATCH', `/v1/time-entries/${running.id}`, cell.admin, { expectedVersion: moved.body.data.version, endedAt: stoppedAt });
      assert.equal(stopped.status, 200, JSON.stringify(stopped.body));
      assert.equal(stopped.body.data.endedAt, stoppedAt);
      assertProblem(await call('PATCH', `/v1/time-entries/${running.id}`, cell.admin, { expectedVersion: stopped.body.data.version, endedAt: null }), 400, 'validation_failed', '/endedAt');
      assertProblem(await call('PATCH', `/v1/time-entries/${running.id}`, cell.admin, { expectedVersion: stopped.body.data.version, startedAt: hourAgo(-1) }), 400, 'validation_failed', '/startedAt');
      const again = await createEntry({ startedAt: hourAgo(0.1), durationSeconds: undefined });
      assert.equal(again.endedAt, null, 'a new timer may start once the previous one stopped');
      await cell.database.prisma.timeEntry.updateMany({ where: { workspaceId: cell.workspaceId, stoppedAt: null }, data: { stoppedAt: new Date(), durationSeconds: 1 } });
    });

    it('updates by compare-and-set: stale is 409 version_conflict and changes nothing', async () => {
      const e = await createEntry();
      const first = await call<{ data: Entry }>('PATCH', `/v1/time-entries/${e.id}`, cell.admin, { expectedVersion: e.version, note: 'first', durationSeconds: 1800 });
      assert.equal(first.status, 200, JSON.stringify(first.body));
      assertShape('updateTimeEntry', first.body.data);
      assert.equal(first.headers.get('etag'), '"2"');
      assert.deepEqual([first.body.data.note, first.body.data.durationSeconds, first.body.data.version], ['first', 1800, '2']);
      assertProblem(await call('PATCH', `/v1/time-entries/${e.id}`, cell.admin, { expectedVersion: e.version, note: 'second' }), 409, 'version_conflict');
      assertProblem(await call('PATCH', `/v1/time-entries/${e.id}`, cell.admin, { expectedVersion: 'garbage', note: 'third' }), 409, 'version_conflict');
      assertProblem(await call('PATCH', `/v1/time-entries/${e.id}`, cell.admin, { note: 'x' }), 400, 'validation_failed', '/expectedVersion');
      assertProblem(await call('PATCH', `/v1/time-entries/${e.id}`, cell.admin, { expectedVersion: '2', colour: 'x' }), 400, 'validation_failed');
      assert.equal((await getEntry(e.id)).note, 'first');
      assert.deepEqual(
        (await outbox(e.id)).map((x) => x.eventType),
        ['time_entry.created', 'time_entry.updated'],
      );
    });

    it('of N concurrent updates with the same expectedVersion exactly one wins (two instances)', async () => {
      const e = await createEntry();
      const replies = await Promise.all(
        Array.from({ length: 8 }, (_, i) => call('PATCH', `/v1/time-entries/${e.id}`, cell.admin, { expectedVersion: e.version, note: `writer ${i}` }, {}, i % 2 ? cell.v1b : cell.v1)),
      );
      const statuses = replies.map((r) => r.status);
      assert.equal(statuses.filter((s) => s === 200).length, 1, JSON.stringify(statuses));
      assert.equal(statuses.filter((s) => s === 409).length, 7, JSON.stringify(statuses));
      const winner = replies.findIndex((r) => r.status === 200);
      assert.equal((await getEntry(e.id)).note, `writer ${winner}`);
      assert.equal((await outbox(e.id, 'time_entry.updated')).length, 1);
    });

    it('billing: read and compare-and-set (stale 409, parallel writers, invalid rates 400), the entry version moves on', async () => {
      const e = await createEntry();
      const got = await call<{ data: Billing }>('GET', `/v1/time-entries/${e.id}/billing`, cell.admin);
      assert.equal(got.status, 200);
      assert.equal(got.headers.get('etag'), '"1"');
      assertShape('getTimeEntryBilling', got.body.data);
      assert.deepEqual(got.body.data, { timeEntryId: e.id, billable: false, billingRate: null, version: '1' });
      const set = await call<{ data: Billing }>('PUT', `/v1/time-entries/${e.id}/billing`, cell.admin, { expectedVersion: '1', billable: true, billingRate: { amount: '85.5', currency: 'EUR' } });
      assert.equal(set.status, 200, JSON.stringify(set.body));
      assertShape('setTimeEntryBilling', set.body.data);
      assert.deepEqual(set.body.data, { timeEntryId: e.id, billable: true, billingRate: { amount: '85.5', currency: 'EUR' }, version: '2' });
      assert.deepEqual((await getEntry(e.id)).billing, { billable: true, billingRate: { amount: '85.5', currency: 'EUR' } });
      assertProblem(await call('PUT', `/v1/time-entries/${e.id}/billing`, cell.admin, { expectedVersion: '1', billable: false, billingRate: null }), 409, 'version_conflict');
      assertProblem(await call('PATCH', `/v1/time-entries/${e.id}`, cell.admin, { expectedVersion: '1', note: 'late' }), 409, 'version_conflict');
      assertProblem(
        await call('PUT', `/v1/time-entries/${e.id}/billing`, cell.admin, { expectedVersion: '2', billable: true, billingRate: { amount: '-1', currency: 'EUR' } }),
        400,
        'validation_failed',
        '/billingRate/amount',
      );
      assertProblem(
        await call('PUT', `/v1/time-entries/${e.id}/billing`, cell.admin, { expectedVersion: '2', billable: true, billingRate: { amount: '1', currency: 'euro' } }),
        400,
        'validation_failed',
        '/billingRate/currency',
      );
      assertProblem(await call('PUT', `/v1/time-entries/${e.id}/billing`, cell.admin, { expectedVersion: '2', billable: true }), 400, 'validation_failed', '/billingRate');
      const replies = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          call('PUT', `/v1/time-entries/${e.id}/billing`, cell.admin, { expectedVersion: '2', billable: i % 2 === 0, billingRate: null }, {}, i % 2 ? cell.v1b : cell.v1),
        ),
      );
      assert.deepEqual(replies.map((r) => r.status).sort(), [200, 409, 409, 409, 409, 409]);
      assert.deepEqual(
        (await outbox(e.id)).map((x) => x.eventType),
        ['time_entry.created', 'time_entry.billing_set', 'time_entry.billing_set'],
      );
    });

    it('replays an idempotent create with the same key and creates once', async () => {
      const key = `entry-${randomUUID()}`;
      const body = { startedAt: '2026-02-01T08:00:00Z', durationSeconds: 60, note: 'Idempotent entry' };
      const first = await call<{ data: Entry }>('POST', '/v1/time-entries', cell.admin, body, { 'idempotency-key': key });
      const second = await call<{ data: Entry }>('POST', '/v1/time-entries', cell.admin, body, { 'idempotency-key': key });
      assert.equal(first.status, 201);
      assert.equal(second.status, 201);
      assert.equal(second.headers.get('idempotency-replayed'), 'true');
      assert.equal(second.body.data.id, first.body.data.id);
      assert.equal(await cell.database.prisma.timeEntry.count({ where: { workspaceId: cell.workspaceId, description: 'Idempotent entry' } }), 1);
      assertProblem(await call('POST', '/v1/time-entries', cell.admin, { ...body, note: 'Other' }, { 'idempotency-key': key }), 409, 'idempotency_key_reused');
    });

    it('archive never deletes: 204, left out of lists, still readable; restore brings it back; events for both', async () => {
      const e = await createEntry();
      const archived = await call('DELETE', `/v1/time-entries/${e.id}`, cell.admin);
      assert.equal(archived.status, 204);
      assert.ok(!(await listAll<Entry>('/v1/time-entries?limit=200')).some((x) => x.id === e.id));
      assert.ok((await getEntry(e.id)).archivedAt !== null);
      assert.equal((await call('DELETE', `/v1/time-entries/${e.id}`, cell.admin)).status, 204, 'archiving again is fine');
      const restored = await call<{ data: Entry }>('POST', `/v1/time-entries/${e.id}/restore`, cell.admin);
      assert.equal(restored.status, 200);
      assertShape('restoreTimeEntry', restored.body.data);
      assert.equal(restored.body.data.archivedAt, null);
      assert.equal(restored.headers.get('etag'), `"${restored.body.data.version}"`);
      assert.ok((await listAll<Entry>('/v1/time-entries?limit=200')).some((x) => x.id === e.id));
      assert.deepEqual(
        (await outbox(e.id)).map((x) => x.eventType),
        ['time_entry.created', 'time_entry.archived', 'time_entry.restored'],
      );
    });

    it('filters by task, project, user and start range, and pages with a cursor without gaps or repeats', async () => {
      const task = (await cell.database.prisma.task.create({ data: { workspaceId: cell.workspaceId, title: 'Filter task', projectId: mine.otherProjectId } })).id;
      const created: Entry[] = [];
      for (let i = 0; i < 5; i++) created.push(await createEntry({ taskId: task, startedAt: `2025-03-0${i + 1}T08:00:00Z`, userId: i % 2 ? mine.secondMemberId : cell.ownerMemberId }));
      const first = await call<ListBody<Entry>>('GET', `/v1/time-entries?taskId=${task}&limit=2`, cell.admin);
      assert.equal(first.status, 200);
      assert.equal(first.body.data.length, 2);
      assert.ok(first.body.meta.nextCursor);
      for (const item of first.body.data) assertShape('listTimeEntries', item);
      assert.deepEqual(
        (await listAll<Entry>(`/v1/time-entries?taskId=${task}&limit=2`)).map((e) => e.id),
        created.map((e) => e.id),
      );
      assert.deepEqual(
        (await listAll<Entry>(`/v1/time-entries?projectId=${mine.otherProjectId}&userId=${mine.secondMemberId}&limit=1`)).map((e) => e.id),
        [created[1]!.id, created[3]!.id],
      );
      const ranged = await listAll<Entry>(`/v1/time-entries?taskId=${task}&startedFrom=2025-03-02T00:00:00Z&startedTo=2025-03-04T08:00:00Z`);
      assert.deepEqual(
        ranged.map((e) => e.id),
        [created[1]!.id, created[2]!.id],
      );
      assert.deepEqual(await listAll<Entry>(`/v1/time-entries?taskId=${other.taskId}`), []);
      assertProblem(await call('GET', `/v1/time-entries?taskId=${task}&cursor=${first.body.meta.nextCursor}x`, cell.admin), 400, 'validation_failed');
      assertProblem(await call('GET', `/v1/time-entries?userId=${cell.ownerMemberId}&cursor=${first.body.meta.nextCursor}`, cell.admin), 400, 'validation_failed');
      assert.equal((await call('GET', '/v1/time-entries?limit=0', cell.admin)).status, 400);
      assert.equal((await call('GET', '/v1/time-entries?startedFrom=soon', cell.admin)).status, 400);
      assert.equal((await call('GET', '/v1/time-entries?unknown=1', cell.admin)).status, 400);
    });
  });
});
