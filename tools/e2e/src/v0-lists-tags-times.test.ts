import assert from 'node:assert/strict';
import { V1_SCOPES } from '@workcell/credentials';
import { type RunningApp, useTestEnvironment } from '@workcell/testing';
import { assertDeprecated as assertV0Deprecated, assertLegacyError, callV0, type LegacyReply as Reply, useV0Cell } from './support/v0.js';

/**
 * v0 lists, tags, times and users over the v1 procedures, end to end against api-v0 (and api-v1 to see the same
 * rows): success and error paths of every operation, the deprecated body aliases, page/limit validation, the
 * token's team on every write, no billing overlay on v0 times and no personal data beyond the name on v0 users.
 */

const env = useTestEnvironment();

type Legacy = { _id: string } & Record<string, unknown>;
const UNKNOWN = '0190a0b0-0000-7000-8000-000000000001';

describe('v0 lists, tags, times and users', () => {
  const cell = useV0Cell(env, { v1: true });
  const { teamToken } = cell;
  let pat: string;
  const other = { workspaceId: '', listId: '', tagId: '', timeId: '', memberId: '' };
  let seq = 0;

  const call = <T = unknown>(app: RunningApp, method: string, path: string, token: string | undefined, body?: unknown) => callV0<T>(app, method, path, token, body);
  const assertDeprecated = (reply: Reply, v1Path: string) => assertV0Deprecated(reply, cell.config, v1Path);
  const foreignTeam = () => ({ team: other.workspaceId, teamId: other.workspaceId, workspaceId: other.workspaceId, _team: other.workspaceId });
  /** page/limit are validated (400) on every read that takes them. */
  const assertPagingValidated = async (token: string, path: string) => {
    for (const query of ['page=0', 'page=x', 'limit=0', 'limit=501', 'limit=1.5']) assertLegacyError(await call(cell.v0, 'GET', `${path}?${query}`, token), 400, 'invalid_request');
  };
  const assertPaged = async (token: string, path: string) => {
    const all = await call<Legacy[]>(cell.v0, 'GET', `${path}?limit=500`, token);
    assert.equal(all.status, 200, all.text);
    assert.ok(all.body.length >= 3, `${path} needs three items`);
    assert.ok(all.body.every((item) => typeof item._id === 'string' && !('id' in item)));
    const page2 = await call<Legacy[]>(cell.v0, 'GET', `${path}?page=2&limit=1`, token);
    assert.deepEqual(
      page2.body.map((i) => i._id),
      [all.body[1]!._id],
    );
    assert.deepEqual((await call(cell.v0, 'GET', `${path}?page=1000&limit=500`, token)).body, []);
    return all.body;
  };

  beforeAll(async () => {
    pat = await cell.mint(V1_SCOPES);
    other.workspaceId = await cell.otherWorkspace();
    const user = await cell.database.prisma.user.create({ data: { email: 'foreign@v0-times.test', name: 'Foreign Person' } });
    other.memberId = (await cell.database.prisma.workspaceMember.create({ data: { workspaceId: other.workspaceId, userId: user.id } })).id;
    other.listId = (await cell.database.prisma.list.create({ data: { workspaceId: other.workspaceId, name: 'Foreign list', kind: 'task' } })).id;
    other.tagId = (await cell.database.prisma.tag.create({ data: { workspaceId: other.workspaceId, name: 'Foreign tag' } })).id;
    other.timeId = (
      await cell.database.prisma.timeEntry.create({
        data: {
          workspaceId: other.workspaceId,
          memberId: other.memberId,
          startedAt: new Date('2026-01-01T08:00:00Z'),
          stoppedAt: new Date('2026-01-01T09:00:00Z'),
          durationSeconds: 3600,
          description: 'Foreign',
        },
      })
    ).id;
  });

  it('every operation of the four resources needs a team token (401 in the legacy shape)', async () => {
    for (const [method, path] of [
      ['GET', '/lists'],
      ['POST', '/lists'],
      ['GET', `/lists/${UNKNOWN}`],
      ['PUT', `/lists/${UNKNOWN}`],
      ['DELETE', `/lists/${UNKNOWN}`],
      ['PUT', '/lists'],
      ['DELETE', '/lists'],
      ['GET', '/tags'],
      ['GET', `/tags/${UNKNOWN}`],
      ['GET', '/times'],
      ['POST', '/times'],
      ['GET', `/times/${UNKNOWN}`],
      ['PUT', `/times/${UNKNOWN}`],
      ['DELETE', `/times/${UNKNOWN}`],
      ['PUT', '/times'],
      ['DELETE', '/times'],
      ['GET', '/users'],
    ] as const) {
      assertLegacyError(await call(cell.v0, method, path, undefined, method === 'POST' || method === 'PUT' ? { name: 'x' } : undefined), 401, 'unauthorized');
    }
  });

  describe('lists', () => {
    const createList = async (token: string, body: Record<string, unknown> = {}) => {
      const reply = await call<Legacy>(cell.v0, 'POST', '/lists', token, { name: `List ${++seq}`, kind: 'tasks', ...body });
      assert.equal(reply.status, 201, reply.text);
      return reply.body;
    };
    const listRow = (id: string) => cell.database.prisma.list.findUnique({ where: { workspaceId_id: { workspaceId: cell.workspaceId, id } } });

    it("POST /lists creates (201) in the token's team whatever team the body names; v1 reads the same list", async () => {
      const token = await teamToken();
      const reply = await call<Legacy>(cell.v0, 'POST', '/lists', token, { name: 'Backlog', kind: 'projects', color: '#aabbcc', position: 3, ...foreignTeam(), unknown: 1 });
      assert.equal(reply.status, 201, reply.text);
      assert.deepEqual([reply.body['name'], reply.body['kind'], reply.body['color'], reply.body['position']], ['Backlog', 'projects', '#aabbcc', 3]);
      assert.equal(reply.body['id'], undefined);
      assert.equal((await listRow(reply.body._id))?.workspaceId, cell.workspaceId);
      const read = await call<{ data: { id: string; name: string } }>(cell.v1, 'GET', `/v1/lists/${reply.body._id}`, pat);
      assert.equal(read.body.data.name, 'Backlog');
    });

    it('POST /lists refuses invalid bodies with 400, writing nothing', async () => {
      const token = await teamToken();
      const before = await cell.database.prisma.list.count({ where: { workspaceId: cell.workspaceId } });
      for (const body of [{}, { name: 'x' }, { name: '', kind: 'tasks' }, { name: 'x', kind: 'people' }, { name: 'x', kind: 'tasks', color: 'red' }, '[1]']) {
        assertLegacyError(await call(cell.v0, 'POST', '/lists', token, body), 400, 'invalid_request');
      }
      assert.equal(await cell.database.prisma.list.count({ where: { workspaceId: cell.workspaceId } }), before);
    });

    it('GET /lists pages with page/limit (400 when invalid) and leaves archived and foreign lists out', async () => {
      const token = await teamToken();
      for (let i = 0; i < 3; i++) await createList(token);
      const archived = await createList(token);
      assert.equal((await call(cell.v0, 'DELETE', `/lists/${archived._id}`, token)).status, 204);
      const all = await assertPaged(token, '/lists');
      assert.ok(!all.some((l) => l._id === archived._id || l._id === other.listId));
      await assertPagingValidated(token, '/lists');
    });

    it('GET /lists/{_id} reads one list; unknown, malformed and foreign ids are 404', async () => {
      const token = await teamToken();
      const list = await createList(token);
      const reply = await call<Legacy>(cell.v0, 'GET', `/lists/${list._id}`, token);
      assert.equal(reply.status, 200);
      assert.deepEqual(reply.body, list);
      for (const id of [UNKNOWN, 'nope', other.listId]) assertLegacyError(await call(cell.v0, 'GET', `/lists/${id}`, token), 404, 'not_found');
      await assertPagingValidated(token, `/lists/${list._id}`);
    });

    it('PUT /lists/{_id} changes the declared attributes only (kind and team are ignored); bad values 400, foreign 404 unchanged', async () => {
      const token = await teamToken();
      const list = await createList(token);
      const reply = await call<Legacy>(cell.v0, 'PUT', `/lists/${list._id}`, token, { name: 'Renamed', kind: 'projects', ...foreignTeam() });
      assert.equal(reply.status, 200, reply.text);
      assert.deepEqual([reply.body._id, reply.body['name'], reply.body['kind']], [list._id, 'Renamed', 'tasks']);
      for (const body of [{ name: '' }, {}, { kind: 'projects' }, { color: 'red' }]) assertLegacyError(await call(cell.v0, 'PUT', `/lists/${list._id}`, token, body), 400, 'invalid_request');
      assert.deepEqual([(await listRow(list._id))?.name, (await listRow(list._id))?.revision], ['Renamed', 2]);
      assertLegacyError(await call(cell.v0, 'PUT', `/lists/${other.listId}`, token, { name: 'Hijacked' }), 404, 'not_found');
      assert.equal((await cell.database.prisma.list.findUnique({ where: { workspaceId_id: { workspaceId: other.workspaceId, id: other.listId } } }))?.name, 'Foreign list');
    });

    it('PUT /lists and DELETE /lists (deprecated aliases) take _id from the body (400 without) and carry Deprecation and Link', async () => {
      const token = await teamToken();
      const list = await createList(token);
      const put = await call<Legacy>(cell.v0, 'PUT', '/lists', token, { _id: list._id, name: 'Via alias' });
      assert.equal(put.status, 200, put.text);
      assert.equal(put.body['name'], 'Via alias');
      assertDeprecated(put, `/v1/lists/${list._id}`);
      assertDeprecated(assertLegacyErrorReply(await call(cell.v0, 'PUT', '/lists', token, { name: 'x' }), 400), '/v1/lists/{id}');
      assertDeprecated(assertLegacyErrorReply(await call(cell.v0, 'DELETE', '/lists', token, {}), 400), '/v1/lists/{id}');
      const del = await call(cell.v0, 'DELETE', '/lists', token, { _id: list._id });
      assert.equal(del.status, 204, del.text);
      assertDeprecated(del, `/v1/lists/${list._id}`);
      assert.ok((await listRow(list._id))?.archivedAt);
    });

    it('DELETE /lists/{_id} archives (204; v1 shows it archived, v0 404); again, unknown or foreign is 404', async () => {
      const token = await teamToken();
      const list = await createList(token);
      const reply = await call(cell.v0, 'DELETE', `/lists/${list._id}`, token);
      assert.equal(reply.status, 204, reply.text);
      assertLegacyError(await call(cell.v0, 'GET', `/lists/${list._id}`, token), 404);
      assert.ok((await call<{ data: { archivedAt: string | null } }>(cell.v1, 'GET', `/v1/lists/${list._id}`, pat)).body.data.archivedAt);
      for (const id of [list._id, UNKNOWN, other.listId]) assertLegacyError(await call(cell.v0, 'DELETE', `/lists/${id}`, token), 404, 'not_found');
      assert.equal((await cell.database.prisma.list.findUnique({ where: { workspaceId_id: { workspaceId: other.workspaceId, id: other.listId } } }))?.archivedAt, null);
    });
  });

  /** Same as assertLegacyError, returning the reply for header checks. */
  const assertLegacyErrorReply = (reply: Reply, status: number): Reply => {
    assertLegacyError(reply, status);
    return reply;
  };

  describe('tags', () => {
    it("GET /tags lists the team's unarchived tags paged (400 on bad page/limit); GET /tags/{_id} reads one, archived and foreign 404", async () => {
      const token = await teamToken();
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) {
        const created = await call<{ data: { id: string } }>(cell.v1, 'POST', '/v1/tags', pat, { name: `Tag ${++seq}` });
        assert.equal(created.status, 201);
        ids.push(created.body.data.id);
      }
      assert.equal((await call(cell.v1, 'DELETE', `/v1/tags/${ids[2]}`, pat)).status, 204);
      await call(cell.v1, 'POST', '/v1/tags', pat, { name: `Tag ${++seq}` });
      const all = await assertPaged(token, '/tags');
      assert.ok(all.some((t) => t._id === ids[0]));
      assert.ok(!all.some((t) => t._id === ids[2] || t._id === other.tagId));
      await assertPagingValidated(token, '/tags');
      const one = await call<Legacy>(cell.v0, 'GET', `/tags/${ids[0]}`, token);
      assert.equal(one.status, 200, one.text);
      assert.equal(one.body._id, ids[0]);
      for (const id of [ids[2]!, UNKNOWN, other.tagId, 'x']) assertLegacyError(await call(cell.v0, 'GET', `/tags/${id}`, token), 404, 'not_found');
      await assertPagingValidated(token, `/tags/${ids[0]}`);
    });
  });

  describe('times', () => {
    const createTime = async (token: string, body: Record<string, unknown> = {}) => {
      const reply = await call<Legacy>(cell.v0, 'POST', '/times', token, { startedAt: '2026-02-02T09:00:00Z', durationSeconds: 1800, note: `Work ${++seq}`, ...body });
      assert.equal(reply.status, 201, reply.text);
      return reply.body;
    };
    const timeRow = (id: string, ws = cell.workspaceId) => cell.database.prisma.timeEntry.findUnique({ where: { workspaceId_id: { workspaceId: ws, id } } });

    it("POST /times creates (201) an entry of the token's member in the token's team; no billing overlay; v1 reads it", async () => {
      const token = await teamToken();
      const entry = await createTime(token, { ...foreignTeam(), billable: true, billing: { billable: true } });
      assert.deepEqual([entry['userId'], entry['durationSeconds'], entry['endedAt']], [cell.ownerMemberId, 1800, '2026-02-02T09:30:00.000Z']);
      assert.equal(entry['billing'], undefined);
      assert.equal((await timeRow(entry._id))?.workspaceId, cell.workspaceId);
      assert.equal((await timeRow(entry._id))?.billable, false, 'billing is not writable through v0');
      const read = await call<{ data: { id: string; note: string } }>(cell.v1, 'GET', `/v1/time-entries/${entry._id}`, pat);
      assert.equal(read.body.data.note, entry['note']);
    });

    it('v0 never shows billing, even for a billable entry with a rate', async () => {
      const token = await teamToken();
      const entry = await createTime(token);
      await cell.database.prisma.timeEntry.update({
        where: { workspaceId_id: { workspaceId: cell.workspaceId, id: entry._id } },
        data: { billable: true, billingRate: '95.00', billingCurrency: 'EUR' },
      });
      const one = await call<Legacy>(cell.v0, 'GET', `/times/${entry._id}`, token);
      const all = await call<Legacy[]>(cell.v0, 'GET', '/times?limit=500', token);
      for (const text of [one.text, JSON.stringify(all.body)]) {
        assert.ok(!text.includes('billing') && !text.includes('95.00') && !text.includes('billable'), text.slice(0, 300));
      }
    });

    it('POST /times refuses invalid entries with 400, writing nothing; a token without a member must name userId', async () => {
      const token = await teamToken();
      const before = await cell.database.prisma.timeEntry.count({ where: { workspaceId: cell.workspaceId } });
      for (const body of [
        {},
        { startedAt: 'yesterday' },
        { startedAt: '2026-02-02T09:00:00Z', endedAt: '2026-02-02T08:00:00Z' },
        { startedAt: '2026-02-02T09:00:00Z', durationSeconds: -1 },
        { startedAt: '2026-02-02T09:00:00Z', durationSeconds: 60, userId: other.memberId },
        { startedAt: '2026-02-02T09:00:00Z', durationSeconds: 60, taskId: UNKNOWN },
      ]) {
        assertLegacyError(await call(cell.v0, 'POST', '/times', token, body), 400, 'invalid_request');
      }
      const memberless = await teamToken(null);
      const error = assertLegacyError(await call(cell.v0, 'POST', '/times', memberless, { startedAt: '2026-02-02T09:00:00Z', durationSeconds: 60 }), 400, 'invalid_request');
      assert.match(error.message, /userId/);
      assert.equal(await cell.database.prisma.timeEntry.count({ where: { workspaceId: cell.workspaceId } }), before);
      const named = await createTime(memberless, { userId: cell.ownerMemberId });
      assert.equal(named['userId'], cell.ownerMemberId);
      // Who the events name (docs/comments-and-activity.md "Actors"): a memberless token acts as nobody (the
      // platform), a member's token as that member.
      const actorOf = async (id: string) => {
        const event = await cell.database.prisma.outboxEvent.findFirstOrThrow({ where: { workspaceId: cell.workspaceId, aggregateId: id, eventType: 'time_entry.created' } });
        return { type: event.actorType, id: event.actorId };
      };
      assert.deepEqual(await actorOf(named._id), { type: null, id: null });
      assert.deepEqual(await actorOf((await createTime(await teamToken()))._id), { type: 'member', id: cell.ownerMemberId });
    });

    it('GET /times pages with page/limit (400 when invalid), without archived or foreign entries; GET /times/{_id} reads one (404 otherwise)', async () => {
      const token = await teamToken();
      const entries = [await createTime(token), await createTime(token), await createTime(token)];
      assert.equal((await call(cell.v0, 'DELETE', `/times/${entries[2]!._id}`, token)).status, 204);
      await createTime(token);
      const all = await assertPaged(token, '/times');
      assert.ok(all.some((t) => t._id === entries[0]!._id));
      assert.ok(!all.some((t) => t._id === entries[2]!._id || t._id === other.timeId));
      await assertPagingValidated(token, '/times');
      const one = await call<Legacy>(cell.v0, 'GET', `/times/${entries[0]!._id}`, token);
      assert.equal(one.status, 200);
      assert.equal(one.body['note'], entries[0]!['note']);
      for (const id of [entries[2]!._id, UNKNOWN, other.timeId, 'x']) assertLegacyError(await call(cell.v0, 'GET', `/times/${id}`, token), 404, 'not_found');
      await assertPagingValidated(token, `/times/${entries[0]!._id}`);
    });

    it('PUT /times/{_id} is last-writer-wins over the v1 compare-and-set; invalid 400 unchanged; foreign 404 unchanged', async () => {
      const token = await teamToken();
      const entry = await createTime(token);
      const reply = await call<Legacy>(cell.v0, 'PUT', `/times/${entry._id}`, token, { note: 'Edited', version: 'stale', ...foreignTeam() });
      assert.equal(reply.status, 200, reply.text);
      assert.deepEqual([reply.body._id, reply.body['note'], reply.body['durationSeconds']], [entry._id, 'Edited', 1800]);
      const again = await call<Legacy>(cell.v0, 'PUT', `/times/${entry._id}`, token, { durationSeconds: 600 });
      assert.deepEqual([again.body['note'], again.body['durationSeconds']], ['Edited', 600]);
      for (const body of [{ endedAt: '2020-01-01T00:00:00Z' }, {}, { billable: true }, { durationSeconds: -5 }])
        assertLegacyError(await call(cell.v0, 'PUT', `/times/${entry._id}`, token, body), 400, 'invalid_request');
      assert.deepEqual([(await timeRow(entry._id))?.durationSeconds, (await timeRow(entry._id))?.revision], [600, 3]);
      assertLegacyError(await call(cell.v0, 'PUT', `/times/${other.timeId}`, token, { note: 'Hijacked' }), 404, 'not_found');
      assert.equal((await timeRow(other.timeId, other.workspaceId))?.description, 'Foreign');
    });

    it('PUT /times and DELETE /times (deprecated aliases) take _id from the body (400 without) with Deprecation and Link', async () => {
      const token = await teamToken();
      const entry = await createTime(token);
      const put = await call<Legacy>(cell.v0, 'PUT', '/times', token, { _id: entry._id, note: 'Via alias' });
      assert.equal(put.status, 200, put.text);
      assert.equal(put.body['note'], 'Via alias');
      assertDeprecated(put, `/v1/time-entries/${entry._id}`);
      assertDeprecated(assertLegacyErrorReply(await call(cell.v0, 'PUT', '/times', token, { note: 'x' }), 400), '/v1/time-entries/{id}');
      assertDeprecated(assertLegacyErrorReply(await call(cell.v0, 'DELETE', '/times', token, {}), 400), '/v1/time-entries/{id}');
      const del = await call(cell.v0, 'DELETE', '/times', token, { _id: entry._id });
      assert.equal(del.status, 204, del.text);
      assertDeprecated(del, `/v1/time-entries/${entry._id}`);
      assert.ok((await timeRow(entry._id))?.archivedAt);
    });

    it('DELETE /times/{_id} archives (204, event written); again, unknown or foreign is 404', async () => {
      const token = await teamToken();
      const entry = await createTime(token);
      assert.equal((await call(cell.v0, 'DELETE', `/times/${entry._id}`, token)).status, 204);
      assert.ok((await timeRow(entry._id))?.archivedAt);
      assert.equal(await cell.database.prisma.outboxEvent.count({ where: { workspaceId: cell.workspaceId, aggregateId: entry._id, eventType: 'time_entry.archived' } }), 1);
      for (const id of [entry._id, UNKNOWN, other.timeId]) assertLegacyError(await call(cell.v0, 'DELETE', `/times/${id}`, token), 404, 'not_found');
      assert.equal((await timeRow(other.timeId, other.workspaceId))?.archivedAt, null);
    });
  });

  describe('users', () => {
    it("GET /users lists the team's users in the legacy shape (name and status, no email), paged; removed and foreign people never", async () => {
      const token = await teamToken();
      const people: string[] = [];
      for (let i = 0; i < 3; i++) {
        const user = await cell.database.prisma.user.create({ data: { email: `v0-user-${++seq}@v0-users.test`, name: `V0 Person ${seq}` } });
        people.push((await cell.database.prisma.workspaceMember.create({ data: { workspaceId: cell.workspaceId, userId: user.id } })).id);
      }
      await cell.database.changeAuthorization(cell.workspaceId, () =>
        cell.database.prisma.workspaceMember.update({ where: { workspaceId_id: { workspaceId: cell.workspaceId, id: people[2]! } }, data: { removedAt: new Date(), status: 'disabled' } }),
      );
      const all = await assertPaged(token, '/users');
      const owner = all.find((u) => u._id === cell.ownerMemberId);
      assert.ok(owner);
      assert.deepEqual(Object.keys(owner).sort(), ['_id', 'createdAt', 'name', 'status', 'updatedAt']);
      assert.ok(all.some((u) => u._id === people[0]));
      assert.ok(!all.some((u) => u._id === people[2] || u._id === other.memberId));
      assert.ok(!JSON.stringify(all).includes('@'), 'no email address');
      await assertPagingValidated(token, '/users');
    });
  });
});
