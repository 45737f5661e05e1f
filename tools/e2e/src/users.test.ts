import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { AppConfig } from '@workcell/config';
import { V1_SCOPES } from '@workcell/credentials';
import type { Database } from '@workcell/db';
import { type RunningApp, useTestEnvironment } from '@workcell/testing';
import { startV1Cell, type V1Cell } from './support/cell.js';
import { assertProblem, assertShape, callApi, errorOf, listAllPages, type ListBody } from './support/v1.js';

/**
 * v1 users (users:read), end to end: a user is the directory view of a membership, addressed by the membership
 * id (the `userId` of time entries), showing the display name and active/inactive, never email or phone
 * (members:pii:read data of the members family); removed members and other workspaces' people are 404.
 */

const env = useTestEnvironment();

type User = { id: string; createdAt: string; updatedAt: string; name: string; status: 'active' | 'inactive' };

describe('v1 users', () => {
  let cell: V1Cell;
  let database: Database;
  let workspaceId: string;
  let config: AppConfig;
  let v1: RunningApp;
  let reader: string;
  let seq = 0;
  const other = { workspaceId: '', memberId: '' };

  const call = <T = unknown>(method: string, path: string, token: string, body?: unknown) => callApi<T>(v1, method, path, token, body);
  const addMember = async (status: 'active' | 'disabled' = 'active', ws = workspaceId) => {
    const n = ++seq;
    const user = await database.prisma.user.create({ data: { email: `user-${n}-${randomUUID()}@users.test`, name: `Person ${n}` } });
    const member = await database.prisma.workspaceMember.create({ data: { workspaceId: ws, userId: user.id, status } });
    return { memberId: member.id, userId: user.id, name: user.name, email: user.email };
  };

  beforeAll(async () => {
    cell = await startV1Cell(env);
    ({ database, workspaceId, config, v1 } = cell);
    reader = await cell.mint(['users:read']);
    const ws = await database.prisma.workspace.create({ data: { name: 'Elsewhere', region: config.region, cell: config.cell } });
    other.workspaceId = ws.id;
    other.memberId = (await addMember('active', ws.id)).memberId;
  });

  afterAll(() => cell?.close());

  it('listUsers and getUser answer 403 insufficient_scope naming users:read without it', async () => {
    const token = await cell.mint(V1_SCOPES.filter((s) => s !== 'users:read'));
    for (const path of ['/v1/users', `/v1/users/${cell.ownerMemberId}`]) {
      const reply = await call('GET', path, token);
      assertProblem(reply, 403, 'insufficient_scope');
      assert.match(errorOf(reply).detail, /users:read/);
    }
  });

  it('GET /v1/users/{id}: the member id addresses the user; name and status only, no personal data even with members:pii:read', async () => {
    const person = await addMember();
    for (const token of [reader, await cell.mint(['users:read', 'members:pii:read'])]) {
      const reply = await call<{ data: User }>('GET', `/v1/users/${person.memberId}`, token);
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      assertShape('getUser', reply.body.data);
      assert.equal(reply.body.data.id, person.memberId);
      assert.equal(reply.body.data.name, person.name);
      assert.equal(reply.body.data.status, 'active');
      assert.ok(!JSON.stringify(reply.body).includes(person.email), 'no email');
      assert.ok(!JSON.stringify(reply.body).includes(person.userId), 'the global user id is never shown');
    }
  });

  it('a deactivated member is an inactive user; a renamed person shows the new name', async () => {
    const person = await addMember('disabled');
    const reply = await call<{ data: User }>('GET', `/v1/users/${person.memberId}`, reader);
    assert.equal(reply.body.data.status, 'inactive');
    await database.prisma.user.update({ where: { id: person.userId }, data: { name: 'Renamed Person' } });
    const renamed = await call<{ data: User }>('GET', `/v1/users/${person.memberId}`, reader);
    assert.equal(renamed.body.data.name, 'Renamed Person');
    assert.ok(renamed.body.data.updatedAt >= reply.body.data.updatedAt);
  });

  it("unknown, malformed, removed and other workspaces' users are 404", async () => {
    const removed = await addMember();
    await database.changeAuthorization(workspaceId, () =>
      database.prisma.workspaceMember.update({ where: { workspaceId_id: { workspaceId, id: removed.memberId } }, data: { removedAt: new Date(), status: 'disabled' } }),
    );
    for (const id of [randomUUID(), 'not-a-uuid', removed.memberId, other.memberId]) {
      assertProblem(await call('GET', `/v1/users/${id}`, reader), 404, 'not_found');
    }
  });

  it("GET /v1/users lists the workspace's users in id order across pages, filters by status, never removed or foreign ones", async () => {
    const active = await addMember();
    const inactive = await addMember('disabled');
    const removed = await addMember();
    await database.changeAuthorization(workspaceId, () =>
      database.prisma.workspaceMember.update({ where: { workspaceId_id: { workspaceId, id: removed.memberId } }, data: { removedAt: new Date() } }),
    );
    const first = await call<ListBody<User>>('GET', '/v1/users?limit=1', reader);
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(first.body.data.length, 1);
    assert.ok(first.body.meta.nextCursor);
    first.body.data.forEach((u) => assertShape('listUsers', u));
    const all = await listAllPages<User>(v1, '/v1/users?limit=2', reader);
    const ids = all.map((u) => u.id);
    assert.deepEqual(ids, [...ids].sort());
    const expected = await database.prisma.workspaceMember.findMany({ where: { workspaceId, removedAt: null }, orderBy: { id: 'asc' }, select: { id: true } });
    assert.deepEqual(
      ids,
      expected.map((m) => m.id),
    );
    assert.ok(ids.includes(active.memberId) && ids.includes(inactive.memberId) && ids.includes(cell.ownerMemberId));
    assert.ok(!ids.includes(removed.memberId) && !ids.includes(other.memberId));
    const onlyInactive = await listAllPages<User>(v1, '/v1/users?status=inactive', reader);
    assert.ok(onlyInactive.length > 0 && onlyInactive.every((u) => u.status === 'inactive'));
    assert.ok(onlyInactive.some((u) => u.id === inactive.memberId));
    const onlyActive = await listAllPages<User>(v1, '/v1/users?status=active', reader);
    assert.ok(onlyActive.every((u) => u.status === 'active') && !onlyActive.some((u) => u.id === inactive.memberId));
  });

  it('GET /v1/users validates its query (400 naming the parameter) and refuses a cursor of another filter', async () => {
    for (const query of ['status=gone', 'limit=0', 'limit=x', 'cursor=garbage']) {
      const reply = await call('GET', `/v1/users?${query}`, reader);
      assert.equal(reply.status, 400, `${query}: ${JSON.stringify(reply.body)}`);
    }
    const page = await call<ListBody<User>>('GET', '/v1/users?limit=1', reader);
    const cursor = page.body.meta.nextCursor!;
    assert.equal((await call('GET', `/v1/users?limit=1&status=active&cursor=${encodeURIComponent(cursor)}`, reader)).status, 400);
  });

  it('a user id is the userId a time entry carries', async () => {
    const token = await cell.mint(V1_SCOPES);
    const entry = await call<{ data: { userId: string } }>('POST', '/v1/time-entries', token, { startedAt: '2026-01-05T09:00:00Z', durationSeconds: 600 });
    assert.equal(entry.status, 201, JSON.stringify(entry.body));
    const user = await call<{ data: User }>('GET', `/v1/users/${entry.body.data.userId}`, reader);
    assert.equal(user.status, 200);
    assert.equal(user.body.data.id, cell.ownerMemberId);
  });
});
