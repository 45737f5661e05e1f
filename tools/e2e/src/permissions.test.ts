import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { AppConfig } from '@workcell/config';
import { PERMISSION_KEYS, V1_SCOPES } from '@workcell/credentials';
import { type Database, issueCredential, inTransaction } from '@workcell/db';
import { type RunningApp, useTestEnvironment } from '@workcell/testing';
import { startV1Cell, type V1Cell } from './support/cell.js';
import { callApi, errorOf, type ListBody, type Reply } from './support/v1.js';

/**
 * The permission model of members, roles and groups (issue 4), end to end against the running services:
 * scopes, the members:pii:read overlay, permission-key validation, compare-and-set and concurrent writers,
 * all-or-nothing replacements, immediacy on two api-v1 instances, the lock-out and escalation guards,
 * tenancy, audit events and cursor pagination.
 */

const env = useTestEnvironment();

type Member = {
  id: string;
  userId: string;
  displayName?: string;
  email?: string;
  phone?: string | null;
  status: 'active' | 'deactivated';
  roleIds: string[];
  groupIds: string[];
  joinedAt: string;
  createdAt: string;
  updatedAt: string;
  version: string;
};
type Role = { id: string; name: string; description: string | null; builtIn: boolean; permissions: string[]; version: string };
type Group = { id: string; name: string; description: string | null; memberCount: number; version: string };
type GroupMember = { memberId: string; addedAt: string };

describe('members, roles and groups: the permission model of personal access tokens', () => {
  let cell: V1Cell;
  let database: Database;
  let workspaceId: string;
  let ownerMemberId: string;
  let ownerRoleId: string;
  let config: AppConfig;
  let v1: RunningApp;
  let v1b: RunningApp;
  /** The owner's personal access token with every scope (the owner holds every permission). */
  let admin: string;
  let adminCredentialId: string;
  let seq = 0;

  const mint = async (memberId: string, scopes: readonly string[], name = `pat-${++seq}`) => {
    const { id, token } = await inTransaction(database, (tx) => issueCredential(tx, config, { workspaceId, kind: 'personal_access_token', name, scopes, memberId }));
    return { id, token };
  };

  const call = <T = unknown>(method: string, path: string, token: string, body?: unknown, app: RunningApp = v1) => callApi<T>(app, method, path, token, body);

  /** A role inserted directly (fixtures bypass the API's escalation rule). */
  const addRole = async (permissions: readonly string[], name = `role-${++seq}`) => (await database.prisma.role.create({ data: { workspaceId, name, permissions: [...permissions] } })).id;
  /** A member (with its user) inserted directly, holding the given roles. */
  const addMember = async (roleIds: readonly string[], ws = workspaceId) => {
    const n = ++seq;
    const user = await database.prisma.user.create({ data: { email: `member-${n}@permissions.test`, name: `Member ${n}` } });
    const member = await database.prisma.workspaceMember.create({ data: { workspaceId: ws, userId: user.id } });
    for (const roleId of roleIds) await database.prisma.memberRole.create({ data: { workspaceId: ws, memberId: member.id, roleId } });
    return member.id;
  };
  const getRole = async (id: string) => (await call<{ data: Role }>('GET', `/v1/roles/${id}`, admin)).body.data;
  const getGroup = async (id: string) => (await call<{ data: Group }>('GET', `/v1/groups/${id}`, admin)).body.data;
  const getMember = async (id: string) => (await call<{ data: Member }>('GET', `/v1/members/${id}`, admin)).body.data;
  const groupMemberIds = async (id: string) => (await call<ListBody<GroupMember>>('GET', `/v1/groups/${id}/members?limit=200`, admin)).body.data.map((m) => m.memberId).sort();
  const auditOf = (targetId: string, action?: string) => database.prisma.auditEvent.findMany({ where: { workspaceId, targetId, ...(action ? { action } : {}) }, orderBy: { id: 'asc' } });

  beforeAll(async () => {
    cell = await startV1Cell(env);
    ({ database, workspaceId, ownerMemberId, config, v1, v1b } = cell);
    ownerRoleId = (await database.prisma.role.findFirstOrThrow({ where: { workspaceId, name: 'Owner' } })).id;
    ({ token: admin, id: adminCredentialId } = await mint(ownerMemberId, V1_SCOPES, 'admin'));
  });

  afterAll(() => cell?.close());

  describe('scopes', () => {
    const operations: [string, string, string][] = [
      ['GET', '/v1/members', 'members:read'],
      ['GET', `/v1/members/${randomUUID()}`, 'members:read'],
      ['PATCH', `/v1/members/${randomUUID()}`, 'members:write'],
      ['DELETE', `/v1/members/${randomUUID()}`, 'members:write'],
      ['GET', '/v1/roles', 'roles:read'],
      ['POST', '/v1/roles', 'roles:write'],
      ['GET', `/v1/roles/${randomUUID()}`, 'roles:read'],
      ['PATCH', `/v1/roles/${randomUUID()}`, 'roles:write'],
      ['DELETE', `/v1/roles/${randomUUID()}`, 'roles:write'],
      ['PUT', `/v1/roles/${randomUUID()}/permissions`, 'roles:write'],
      ['GET', '/v1/groups', 'groups:read'],
      ['POST', '/v1/groups', 'groups:write'],
      ['GET', `/v1/groups/${randomUUID()}`, 'groups:read'],
      ['PATCH', `/v1/groups/${randomUUID()}`, 'groups:write'],
      ['DELETE', `/v1/groups/${randomUUID()}`, 'groups:write'],
      ['GET', `/v1/groups/${randomUUID()}/members`, 'groups:read'],
      ['PUT', `/v1/groups/${randomUUID()}/members`, 'groups:write'],
    ];

    it('every operation answers 403 insufficient_scope naming its scope to a credential without it', async () => {
      const { token } = await mint(
        ownerMemberId,
        V1_SCOPES.filter((s) => !/^(members|roles|groups):/.test(s)),
      );
      for (const [method, path, scope] of operations) {
        const reply = await call(method, path, token, method === 'GET' || method === 'DELETE' ? undefined : {});
        assert.equal(reply.status, 403, `${method} ${path}`);
        assert.equal(errorOf(reply).code, 'insufficient_scope');
        assert.match(errorOf(reply).detail, new RegExp(scope), `${method} ${path} names ${scope}`);
      }
    });

    it('a personal token holding the scope is still refused when its member lacks the permission (intersection)', async () => {
      const reader = await addMember([await addRole(['workspace:read'])]);
      const { token } = await mint(reader, ['workspace:read', 'roles:read']);
      assert.equal((await call('GET', '/v1/workspace', token)).status, 200);
      const denied = await call('GET', '/v1/roles', token);
      assert.equal(denied.status, 403);
      assert.match(errorOf(denied).detail, /roles:read/);
    });
  });

  describe('personal data of members (members:pii:read overlay)', () => {
    it('name and email appear only with members:pii:read, in lists, reads and update responses', async () => {
      const member = await addMember([await addRole(['workspace:read'])]);
      const { token: plain } = await mint(ownerMemberId, ['members:read', 'members:write']);
      const { token: pii } = await mint(ownerMemberId, ['members:read', 'members:write', 'members:pii:read']);
      const PII = ['displayName', 'email', 'phone'];

      const without = await call<{ data: Member }>('GET', `/v1/members/${member}`, plain);
      assert.equal(without.status, 200);
      for (const field of PII) assert.ok(!(field in without.body.data), `${field} must be omitted`);
      const listed = await call<ListBody<Member>>('GET', '/v1/members?limit=200', plain);
      for (const m of listed.body.data) for (const field of PII) assert.ok(!(field in m));
      assert.ok(!JSON.stringify(listed.body).includes('@permissions.test'));
      assert.ok(!JSON.stringify(listed.body).includes('owner@demo'));

      const withPii = await call<{ data: Member }>('GET', `/v1/members/${member}`, pii);
      assert.match(withPii.body.data.email ?? '', /^member-\d+@permissions\.test$/);
      assert.match(withPii.body.data.displayName ?? '', /^Member \d+$/);
      assert.equal(withPii.body.data.phone, null);
      const listedPii = await call<ListBody<Member>>('GET', '/v1/members?limit=200', pii);
      assert.ok(listedPii.body.data.every((m) => typeof m.email === 'string' && typeof m.displayName === 'string'));

      const version = withPii.body.data.version;
      const updated = await call<{ data: Member }>('PATCH', `/v1/members/${member}`, plain, { expectedVersion: version, status: 'active' });
      assert.equal(updated.status, 200);
      for (const field of PII) assert.ok(!(field in updated.body.data));
      const updatedPii = await call<{ data: Member }>('PATCH', `/v1/members/${member}`, pii, { expectedVersion: updated.body.data.version, status: 'active' });
      assert.equal(typeof updatedPii.body.data.email, 'string');
    });

    it('the overlay scope counts only when the member holds the permission too', async () => {
      const reader = await addMember([await addRole(['members:read'])]);
      const { token } = await mint(reader, ['members:read', 'members:pii:read']);
      const reply = await call<{ data: Member }>('GET', `/v1/members/${reader}`, token);
      assert.equal(reply.status, 200);
      assert.ok(!('email' in reply.body.data) && !('displayName' in reply.body.data));
    });
  });

  describe('role permissions', () => {
    it('creates a role with known keys (scope names and settings keys) and refuses unknown ones with a JSON pointer', async () => {
      const created = await call<{ data: Role }>('POST', '/v1/roles', admin, { name: 'Tokens', permissions: ['workspace:read', 'settings.api.personalCredentials'] });
      assert.equal(created.status, 201);
      assert.equal(created.headers.get('location'), `/v1/roles/${created.body.data.id}`);
      assert.deepEqual(created.body.data.permissions, ['workspace:read', 'settings.api.personalCredentials']);
      assert.equal(created.body.data.builtIn, false);
      assert.equal(created.body.data.version, '1');

      for (const [permissions, pointer] of [
        [['workspace:read', 'projects:delete'], '/permissions/1'],
        [['settings.api.everything'], '/permissions/0'],
        [['tasks:read', 'Not A Key'], '/permissions/1'],
        [['tasks:read', 'tasks:read'], '/permissions/1'],
      ] as const) {
        const reply = await call('POST', '/v1/roles', admin, { name: `bad-${++seq}`, permissions });
        assert.equal(reply.status, 400, JSON.stringify(permissions));
        assert.equal(errorOf(reply).code, 'validation_failed');
        assert.equal(errorOf(reply).source?.pointer, pointer);
      }
      const duplicate = await call('POST', '/v1/roles', admin, { name: 'Tokens', permissions: [] });
      assert.equal(duplicate.status, 409);
      assert.equal(errorOf(duplicate).source?.pointer, '/name');
    });

    it('an invalid replacement changes nothing (all or nothing)', async () => {
      const roleId = await addRole(['tasks:read', 'tasks:write']);
      const before = await getRole(roleId);
      const reply = await call('PUT', `/v1/roles/${roleId}/permissions`, admin, { expectedVersion: before.version, permissions: ['tasks:read', 'tasks:destroy', 'projects:read'] });
      assert.equal(reply.status, 400);
      assert.equal(errorOf(reply).source?.pointer, '/permissions/1');
      assert.deepEqual(await getRole(roleId), before);
      assert.equal((await auditOf(roleId)).length, 0);
    });

    it('compare-and-set: a stale expectedVersion is 409 version_conflict, a missing role 404', async () => {
      const roleId = await addRole(['tasks:read']);
      const ok = await call<{ data: Role }>('PUT', `/v1/roles/${roleId}/permissions`, admin, { expectedVersion: '1', permissions: ['tasks:read', 'tasks:write'] });
      assert.equal(ok.status, 200);
      assert.equal(ok.body.data.version, '2');
      for (const stale of ['1', '3', 'x']) {
        const conflict = await call('PUT', `/v1/roles/${roleId}/permissions`, admin, { expectedVersion: stale, permissions: [] });
        assert.equal(conflict.status, 409);
        assert.equal(errorOf(conflict).code, 'version_conflict');
      }
      const renamed = await call<{ data: Role }>('PATCH', `/v1/roles/${roleId}`, admin, { expectedVersion: '2', name: 'Renamed', description: 'now described' });
      assert.equal(renamed.status, 200);
      assert.deepEqual([renamed.body.data.name, renamed.body.data.description, renamed.body.data.version], ['Renamed', 'now described', '3']);
      assert.equal((await call('PATCH', `/v1/roles/${roleId}`, admin, { expectedVersion: '2', name: 'Again' })).status, 409);
      assert.deepEqual((await getRole(roleId)).permissions, ['tasks:read', 'tasks:write']);
      const missing = await call('PUT', `/v1/roles/${randomUUID()}/permissions`, admin, { expectedVersion: '1', permissions: [] });
      assert.equal(missing.status, 404);
      assert.equal(errorOf(missing).code, 'not_found');
      assert.equal((await call('GET', '/v1/roles/not-a-uuid', admin)).status, 404);
    });

    it('of N concurrent replacements with the same expectedVersion exactly one wins, on either instance; no lost update', async () => {
      const roleId = await addRole(['tasks:read']);
      const extra = PERMISSION_KEYS.filter((k) => k.includes(':') && k !== 'tasks:read');
      const sets = Array.from({ length: 10 }, (_, i) => [extra[i]!, 'tasks:read']);
      const replies = await Promise.all(
        sets.map((permissions, i) => call<{ data: Role }>('PUT', `/v1/roles/${roleId}/permissions`, admin, { expectedVersion: '1', permissions }, i % 2 === 0 ? v1 : v1b)),
      );
      const winners = replies.filter((r) => r.status === 200);
      assert.equal(winners.length, 1, JSON.stringify(replies.map((r) => r.status)));
      assert.ok(
        replies.every((r) => r.status === 200 || (r.status === 409 && errorOf(r).code === 'version_conflict')),
        JSON.stringify(replies.map((r) => r.body)),
      );
      const role = await getRole(roleId);
      assert.equal(role.version, '2');
      assert.deepEqual(role.permissions, winners[0]!.body.data.permissions);
      assert.equal((await auditOf(roleId, 'role.permissions_replaced')).length, 1);
    });

    it('built-in roles cannot be changed or deleted; a role still assigned cannot be deleted; deletion archives', async () => {
      const owner = await getRole(ownerRoleId);
      assert.equal(owner.builtIn, true);
      for (const [method, path, body] of [
        ['DELETE', `/v1/roles/${ownerRoleId}`, undefined],
        ['PUT', `/v1/roles/${ownerRoleId}/permissions`, { expectedVersion: owner.version, permissions: ['workspace:read'] }],
        ['PATCH', `/v1/roles/${ownerRoleId}`, { expectedVersion: owner.version, name: 'Boss' }],
      ] as const) {
        const reply = await call(method, path, admin, body);
        assert.equal(reply.status, 409, `${method} ${path}`);
        assert.equal(errorOf(reply).code, 'built_in_role');
      }
      assert.deepEqual(await getRole(ownerRoleId), owner);

      const roleId = await addRole(['tasks:read']);
      const holder = await addMember([roleId]);
      const inUse = await call('DELETE', `/v1/roles/${roleId}`, admin);
      assert.equal(inUse.status, 409);
      assert.equal(errorOf(inUse).code, 'role_in_use');
      const keep = await addRole(['tasks:read']);
      const m = await getMember(holder);
      assert.equal((await call('PATCH', `/v1/members/${holder}`, admin, { expectedVersion: m.version, roleIds: [keep] })).status, 200);
      const deleted = await call('DELETE', `/v1/roles/${roleId}`, admin);
      assert.equal(deleted.status, 204);
      assert.equal((await call('GET', `/v1/roles/${roleId}`, admin)).status, 404);
      assert.equal((await call('DELETE', `/v1/roles/${roleId}`, admin)).status, 404);
      const listed = await call<ListBody<Role>>('GET', '/v1/roles?limit=200', admin);
      assert.ok(!listed.body.data.some((r) => r.id === roleId));
      const row = await database.prisma.role.findUniqueOrThrow({ where: { workspaceId_id: { workspaceId, id: roleId } } });
      assert.ok(row.archivedAt, 'archived, not deleted');
      const assign = await call('PATCH', `/v1/members/${holder}`, admin, { expectedVersion: (await getMember(holder)).version, roleIds: [roleId] });
      assert.equal(assign.status, 400, 'an archived role cannot be assigned');
      assert.equal(errorOf(assign).source?.pointer, '/roleIds/0');
    });
  });

  describe('immediacy on every instance', () => {
    it('removing a permission from a role narrows its holders’ tokens on the very next request; disabling the member refuses them', async () => {
      const roleId = await addRole(['workspace:read', 'members:read']);
      const member = await addMember([roleId]);
      const { token } = await mint(member, ['workspace:read', 'members:read']);
      for (const app of [v1, v1b]) assert.equal((await call('GET', '/v1/workspace', token, undefined, app)).status, 200);

      const replaced = await call('PUT', `/v1/roles/${roleId}/permissions`, admin, { expectedVersion: '1', permissions: ['members:read'] }, v1);
      assert.equal(replaced.status, 200);
      for (const app of [v1b, v1]) {
        const denied = await call('GET', '/v1/workspace', token, undefined, app);
        assert.equal(denied.status, 403);
        assert.equal(errorOf(denied).code, 'insufficient_scope');
        assert.match(errorOf(denied).detail, /workspace:read/);
        assert.equal((await call('GET', '/v1/members?limit=1', token, undefined, app)).status, 200, 'the rest of the token still works');
      }

      const current = await getMember(member);
      const disabled = await call<{ data: Member }>('PATCH', `/v1/members/${member}`, admin, { expectedVersion: current.version, status: 'deactivated' }, v1b);
      assert.equal(disabled.status, 200);
      assert.equal(disabled.body.data.status, 'deactivated');
      for (const app of [v1, v1b]) {
        const refused = await call('GET', '/v1/members?limit=1', token, undefined, app);
        assert.equal(refused.status, 401);
        assert.equal(errorOf(refused).code, 'unauthenticated');
      }
      const enabled = await call('PATCH', `/v1/members/${member}`, admin, { expectedVersion: disabled.body.data.version, status: 'active' }, v1);
      assert.equal(enabled.status, 200);
      assert.equal((await call('GET', '/v1/members?limit=1', token, undefined, v1b)).status, 200);
    });

    it('assigning a role widens the member’s tokens at once, within their scopes', async () => {
      const member = await addMember([await addRole(['members:read'])]);
      const { token } = await mint(member, ['members:read', 'groups:read']);
      assert.equal((await call('GET', '/v1/groups', token, undefined, v1b)).status, 403);
      const groupsReader = await addRole(['groups:read']);
      const m = await getMember(member);
      const updated = await call<{ data: Member }>('PATCH', `/v1/members/${member}`, admin, { expectedVersion: m.version, roleIds: [...m.roleIds, groupsReader] }, v1);
      assert.equal(updated.status, 200);
      assert.deepEqual([...updated.body.data.roleIds].sort(), [...m.roleIds, groupsReader].sort());
      assert.equal((await call('GET', '/v1/groups', token, undefined, v1b)).status, 200);
    });
  });

  describe('guard rails', () => {
    it('refuses every change that would leave no active member holding roles:write and members:write (409 last_administrator)', async () => {
      // The owner is the only administrator so far.
      const plainRole = await addRole(['workspace:read']);
      const owner = await getMember(ownerMemberId);
      for (const body of [{ status: 'deactivated' }, { roleIds: [plainRole] }]) {
        const reply = await call('PATCH', `/v1/members/${ownerMemberId}`, admin, { expectedVersion: owner.version, ...body });
        assert.equal(reply.status, 409, JSON.stringify(body));
        assert.equal(errorOf(reply).code, 'last_administrator');
      }
      const remove = await call('DELETE', `/v1/members/${ownerMemberId}`, admin);
      assert.equal(remove.status, 409);
      assert.equal(errorOf(remove).code, 'last_administrator');
      assert.deepEqual(await getMember(ownerMemberId), owner, 'nothing changed');

      // A second administrator through a custom role; then the owner may step down, and that role becomes the last one.
      const adminsScopes = ['roles:read', 'roles:write', 'members:read', 'members:write'];
      const adminsRole = await addRole(adminsScopes);
      const second = await addMember([adminsRole]);
      const { token: secondToken } = await mint(second, adminsScopes);
      const stepDown = await call<{ data: Member }>('PATCH', `/v1/members/${ownerMemberId}`, secondToken, { expectedVersion: owner.version, status: 'deactivated' });
      assert.equal(stepDown.status, 200);
      assert.equal((await call('GET', '/v1/roles', admin)).status, 401, 'the owner’s token stops at once');
      try {
        const strip = await call('PUT', `/v1/roles/${adminsRole}/permissions`, secondToken, { expectedVersion: '1', permissions: ['roles:read', 'members:read', 'members:write'] });
        assert.equal(strip.status, 409);
        assert.equal(errorOf(strip).code, 'last_administrator');
        assert.deepEqual((await database.prisma.role.findUniqueOrThrow({ where: { workspaceId_id: { workspaceId, id: adminsRole } } })).permissions, adminsScopes);
        const secondNow = (await call<{ data: Member }>('GET', `/v1/members/${second}`, secondToken)).body.data;
        const self = await call('PATCH', `/v1/members/${second}`, secondToken, { expectedVersion: secondNow.version, status: 'deactivated' });
        assert.equal(errorOf(self).code, 'last_administrator');
        assert.equal(errorOf(await call('DELETE', `/v1/members/${second}`, secondToken)).code, 'last_administrator');
        assert.equal((await auditOf(adminsRole)).length, 0, 'refused changes are not audited');
      } finally {
        const back = await call('PATCH', `/v1/members/${ownerMemberId}`, secondToken, { expectedVersion: stepDown.body.data.version, status: 'active' });
        assert.equal(back.status, 200);
      }
      assert.equal((await call('GET', '/v1/roles', admin)).status, 200);
      // With the owner back, the second administrator may go.
      const secondNow = await getMember(second);
      assert.equal((await call('PATCH', `/v1/members/${second}`, admin, { expectedVersion: secondNow.version, status: 'deactivated' })).status, 200);
    });

    it('two administrators deactivating each other at the same time cannot both succeed (no write skew)', async () => {
      const adminScopes = ['members:read', 'members:write', 'roles:write'];
      for (let round = 0; round < 5; round++) {
        const ws = (await database.prisma.workspace.create({ data: { name: `Race ${round}`, region: config.region, cell: config.cell } })).id;
        const role = (await database.prisma.role.create({ data: { workspaceId: ws, name: 'Admins', permissions: adminScopes } })).id;
        const [x, y] = [await addMember([role], ws), await addMember([role], ws)];
        const pat = async (memberId: string) =>
          (await inTransaction(database, (tx) => issueCredential(tx, config, { workspaceId: ws, kind: 'personal_access_token', name: 'race', scopes: adminScopes, memberId }))).token;
        const [tx, ty] = [await pat(x), await pat(y)];
        const replies = await Promise.all([
          call('PATCH', `/v1/members/${y}`, tx, { expectedVersion: '1', status: 'deactivated' }, v1),
          call('PATCH', `/v1/members/${x}`, ty, { expectedVersion: '1', status: 'deactivated' }, v1b),
        ]);
        const statuses = replies.map((r) => r.status).sort();
        assert.equal(statuses[0], 200, JSON.stringify(statuses));
        assert.ok(statuses[1] === 401 || (statuses[1] === 409 && errorOf(replies.find((r) => r.status === 409)!).code === 'last_administrator'), JSON.stringify(statuses));
        assert.equal(await database.prisma.workspaceMember.count({ where: { workspaceId: ws, status: 'active' } }), 1);
      }
    });

    it('nobody grants a permission it does not hold itself (403 insufficient_scope with a pointer)', async () => {
      const managerScopes = ['roles:read', 'roles:write', 'members:read', 'members:write'];
      const manager = await addMember([await addRole([...managerScopes, 'tasks:read'])]);
      const { token } = await mint(manager, managerScopes);
      const create = await call('POST', '/v1/roles', token, { name: `esc-${++seq}`, permissions: ['roles:read', 'projects:write'] });
      assert.equal(create.status, 403);
      assert.equal(errorOf(create).code, 'insufficient_scope');
      assert.equal(errorOf(create).source?.pointer, '/permissions/1');
      const settings = await call('POST', '/v1/roles', token, { name: `esc-${++seq}`, permissions: ['settings.api.serviceAccounts.manage'] });
      assert.equal(settings.status, 403);
      assert.equal((await call('POST', '/v1/roles', token, { name: `ok-${++seq}`, permissions: ['roles:read', 'members:read'] })).status, 201);

      const self = await getMember(manager);
      const promote = await call('PATCH', `/v1/members/${manager}`, token, { expectedVersion: self.version, roleIds: [...self.roleIds, ownerRoleId] });
      assert.equal(promote.status, 403);
      assert.equal(errorOf(promote).source?.pointer, `/roleIds/${self.roleIds.length}`);
      assert.deepEqual((await getMember(manager)).roleIds, self.roleIds);

      const widen = await addRole(['roles:read']);
      const replace = await call('PUT', `/v1/roles/${widen}/permissions`, token, { expectedVersion: '1', permissions: ['roles:read', 'tasks:write'] });
      assert.equal(replace.status, 403);
      assert.equal(errorOf(replace).source?.pointer, '/permissions/1');
      // Removing permissions is always allowed.
      assert.equal((await call('PUT', `/v1/roles/${widen}/permissions`, token, { expectedVersion: '1', permissions: [] })).status, 200);
    });
  });

  describe('members', () => {
    it('updateMember replaces the role assignment, validates role ids and is compare-and-set', async () => {
      const [a, b, c] = [await addRole(['tasks:read']), await addRole(['tasks:write']), await addRole(['projects:read'])];
      const member = await addMember([a]);
      const m = await getMember(member);
      assert.deepEqual(m.roleIds, [a]);
      assert.equal(m.status, 'active');
      const updated = await call<{ data: Member }>('PATCH', `/v1/members/${member}`, admin, { expectedVersion: m.version, roleIds: [b, c] });
      assert.equal(updated.status, 200);
      assert.deepEqual(updated.body.data.roleIds, [b, c].sort());
      assert.equal(Number(updated.body.data.version), Number(m.version) + 1);
      const stale = await call('PATCH', `/v1/members/${member}`, admin, { expectedVersion: m.version, roleIds: [a] });
      assert.equal(stale.status, 409);
      assert.equal(errorOf(stale).code, 'version_conflict');

      const unknown = await call('PATCH', `/v1/members/${member}`, admin, { expectedVersion: updated.body.data.version, roleIds: [a, randomUUID()] });
      assert.equal(unknown.status, 400);
      assert.equal(errorOf(unknown).source?.pointer, '/roleIds/1');
      const empty = await call('PATCH', `/v1/members/${member}`, admin, { expectedVersion: updated.body.data.version, roleIds: [] });
      assert.equal(empty.status, 400);
      const nothing = await call('PATCH', `/v1/members/${member}`, admin, { expectedVersion: updated.body.data.version });
      assert.equal(nothing.status, 400);
      assert.deepEqual((await getMember(member)).roleIds, [b, c].sort(), 'refused updates change nothing');
      assert.equal((await call('PATCH', `/v1/members/${randomUUID()}`, admin, { expectedVersion: '1', status: 'active' })).status, 404);
    });

    it('listMembers filters by status and role', async () => {
      const roleId = await addRole(['tasks:read']);
      const [x, y] = [await addMember([roleId]), await addMember([roleId])];
      const yv = await getMember(y);
      assert.equal((await call('PATCH', `/v1/members/${y}`, admin, { expectedVersion: yv.version, status: 'deactivated' })).status, 200);
      const byRole = await call<ListBody<Member>>('GET', `/v1/members?roleId=${roleId}`, admin);
      assert.deepEqual(
        byRole.body.data.map((m) => m.id),
        [x, y],
      );
      const active = await call<ListBody<Member>>('GET', `/v1/members?roleId=${roleId}&status=active`, admin);
      assert.deepEqual(
        active.body.data.map((m) => m.id),
        [x],
      );
      const deactivated = await call<ListBody<Member>>('GET', `/v1/members?status=deactivated&limit=200`, admin);
      assert.ok(deactivated.body.data.some((m) => m.id === y) && deactivated.body.data.every((m) => m.status === 'deactivated'));
      assert.equal((await call('GET', '/v1/members?status=removed', admin)).status, 400);
    });

    it('removeMember disables, unassigns and hides the member (never deletes it); its tokens stop at once', async () => {
      const roleId = await addRole(['workspace:read']);
      const member = await addMember([roleId]);
      const { token } = await mint(member, ['workspace:read']);
      const group = (await call<{ data: Group }>('POST', '/v1/groups', admin, { name: 'Leavers' })).body.data;
      assert.equal((await call('PUT', `/v1/groups/${group.id}/members`, admin, { expectedVersion: group.version, memberIds: [member, ownerMemberId] })).status, 200);
      assert.deepEqual((await getMember(member)).groupIds, [group.id]);
      assert.equal((await call('GET', '/v1/workspace', token, undefined, v1b)).status, 200);

      const removed = await call('DELETE', `/v1/members/${member}`, admin, undefined, v1);
      assert.equal(removed.status, 204);
      assert.equal((await call('GET', '/v1/workspace', token, undefined, v1b)).status, 401);
      assert.equal((await call('GET', `/v1/members/${member}`, admin)).status, 404);
      assert.equal((await call('DELETE', `/v1/members/${member}`, admin)).status, 404);
      assert.equal((await call('PATCH', `/v1/members/${member}`, admin, { expectedVersion: '2', status: 'active' })).status, 404);
      assert.ok(!(await call<ListBody<Member>>('GET', '/v1/members?limit=200', admin)).body.data.some((m) => m.id === member));
      const row = await database.prisma.workspaceMember.findUniqueOrThrow({ where: { workspaceId_id: { workspaceId, id: member } } });
      assert.equal(row.status, 'disabled');
      assert.ok(row.removedAt && row.disabledAt);
      assert.equal(await database.prisma.memberRole.count({ where: { workspaceId, memberId: member } }), 0);
      const after = await getGroup(group.id);
      assert.equal(after.memberCount, 1);
      assert.equal(Number(after.version), Number(group.version) + 2, 'the group’s membership changed, so did its version');
      assert.deepEqual(await groupMemberIds(group.id), [ownerMemberId]);
      const audit = await auditOf(member, 'member.removed');
      assert.equal(audit.length, 1);
      assert.deepEqual(audit[0]?.metadata, { wasActive: true, rolesRemoved: [roleId], groupsLeft: [group.id] });
      // A removed member can no longer be added to a group.
      const readd = await call('PUT', `/v1/groups/${group.id}/members`, admin, { expectedVersion: after.version, memberIds: [member] });
      assert.equal(readd.status, 400);
      assert.equal(errorOf(readd).source?.pointer, '/memberIds/0');
    });
  });

  describe('groups', () => {
    it('create, read, compare-and-set update, archive', async () => {
      const created = await call<{ data: Group }>('POST', '/v1/groups', admin, { name: '  Design  ', description: 'the designers' });
      assert.equal(created.status, 201);
      assert.equal(created.headers.get('location'), `/v1/groups/${created.body.data.id}`);
      const { id: _id, createdAt, updatedAt, ...fields } = created.body.data as Group & { createdAt: string; updatedAt: string };
      assert.deepEqual(fields, { name: 'Design', description: 'the designers', memberCount: 0, version: '1' });
      assert.ok(!Number.isNaN(Date.parse(createdAt)) && !Number.isNaN(Date.parse(updatedAt)));
      const id = created.body.data.id;
      const updated = await call<{ data: Group }>('PATCH', `/v1/groups/${id}`, admin, { expectedVersion: '1', description: null });
      assert.equal(updated.status, 200);
      assert.deepEqual([updated.body.data.name, updated.body.data.description, updated.body.data.version], ['Design', null, '2']);
      const stale = await call('PATCH', `/v1/groups/${id}`, admin, { expectedVersion: '1', name: 'Other' });
      assert.equal(stale.status, 409);
      assert.equal(errorOf(stale).code, 'version_conflict');
      assert.equal((await call('PATCH', `/v1/groups/${id}`, admin, { expectedVersion: '2' })).status, 400, 'nothing to change');

      const member = await addMember([]);
      assert.equal((await call('PUT', `/v1/groups/${id}/members`, admin, { expectedVersion: '2', memberIds: [member] })).status, 200);
      assert.equal((await call('DELETE', `/v1/groups/${id}`, admin)).status, 204);
      for (const [method, path, body] of [
        ['GET', `/v1/groups/${id}`, undefined],
        ['GET', `/v1/groups/${id}/members`, undefined],
        ['PATCH', `/v1/groups/${id}`, { expectedVersion: '4', name: 'x' }],
        ['PUT', `/v1/groups/${id}/members`, { expectedVersion: '4', memberIds: [] }],
        ['DELETE', `/v1/groups/${id}`, undefined],
      ] as const) {
        assert.equal((await call(method, path, admin, body)).status, 404, `${method} ${path} after archiving`);
      }
      assert.deepEqual((await getMember(member)).groupIds, [], 'an archived group is no longer listed on its members');
      assert.ok((await database.prisma.group.findUniqueOrThrow({ where: { workspaceId_id: { workspaceId, id } } })).archivedAt);
      assert.deepEqual(
        (await database.prisma.auditEvent.findMany({ where: { workspaceId, targetId: id }, orderBy: { id: 'asc' } })).map((e) => e.action),
        ['group.created', 'group.updated', 'group.members_replaced', 'group.archived'],
      );
    });

    it('replaceGroupMembers is compare-and-set and all or nothing; members who stay keep addedAt', async () => {
      const group = (await call<{ data: Group }>('POST', '/v1/groups', admin, { name: 'Ops' })).body.data;
      const [a, b, c] = [await addMember([]), await addMember([]), await addMember([])];
      const first = await call<{ data: Group }>('PUT', `/v1/groups/${group.id}/members`, admin, { expectedVersion: '1', memberIds: [a, b] });
      assert.equal(first.status, 200);
      assert.deepEqual([first.body.data.memberCount, first.body.data.version], [2, '2']);
      const addedA = (await call<ListBody<GroupMember>>('GET', `/v1/groups/${group.id}/members`, admin)).body.data.find((m) => m.memberId === a)?.addedAt;

      const invalid = await call('PUT', `/v1/groups/${group.id}/members`, admin, { expectedVersion: '2', memberIds: [c, randomUUID()] });
      assert.equal(invalid.status, 400);
      assert.equal(errorOf(invalid).source?.pointer, '/memberIds/1');
      const dup = await call('PUT', `/v1/groups/${group.id}/members`, admin, { expectedVersion: '2', memberIds: [c, c] });
      assert.equal(dup.status, 400);
      assert.equal(errorOf(dup).source?.pointer, '/memberIds/1');
      assert.deepEqual(await groupMemberIds(group.id), [a, b].sort(), 'unchanged');
      assert.equal((await getGroup(group.id)).version, '2', 'unchanged version');

      const stale = await call('PUT', `/v1/groups/${group.id}/members`, admin, { expectedVersion: '1', memberIds: [c] });
      assert.equal(stale.status, 409);
      assert.equal(errorOf(stale).code, 'version_conflict');

      const second = await call<{ data: Group }>('PUT', `/v1/groups/${group.id}/members`, admin, { expectedVersion: '2', memberIds: [c, a] });
      assert.equal(second.status, 200);
      const listed = (await call<ListBody<GroupMember>>('GET', `/v1/groups/${group.id}/members`, admin)).body.data;
      assert.deepEqual(
        listed.map((m) => m.memberId),
        [a, c],
      );
      assert.equal(listed.find((m) => m.memberId === a)?.addedAt, addedA);
      assert.deepEqual((await getMember(c)).groupIds, [group.id]);
      const audit = await auditOf(group.id, 'group.members_replaced');
      assert.deepEqual(
        audit.map((e) => e.metadata),
        [
          { added: [a, b], removed: [] },
          { added: [c], removed: [b] },
        ],
      );
    });

    it('of N concurrent membership replacements with the same version exactly one wins; no lost update', async () => {
      const group = (await call<{ data: Group }>('POST', '/v1/groups', admin, { name: 'Race' })).body.data;
      const members = await Promise.all(Array.from({ length: 8 }, () => addMember([])));
      const replies = await Promise.all(members.map((m, i) => call<{ data: Group }>('PUT', `/v1/groups/${group.id}/members`, admin, { expectedVersion: '1', memberIds: [m] }, i % 2 === 0 ? v1 : v1b)));
      assert.equal(replies.filter((r) => r.status === 200).length, 1, JSON.stringify(replies.map((r) => r.status)));
      assert.equal(replies.filter((r) => r.status === 409 && errorOf(r).code === 'version_conflict').length, members.length - 1);
      const winner = members[replies.findIndex((r) => r.status === 200)]!;
      assert.deepEqual(await groupMemberIds(group.id), [winner]);
      assert.equal((await getGroup(group.id)).version, '2');
    });
  });

  describe('tenancy', () => {
    it('another workspace’s members, roles and groups answer exactly like missing ones', async () => {
      const other = await database.prisma.workspace.create({ data: { name: 'Elsewhere', region: config.region, cell: config.cell } });
      const otherRole = (await database.prisma.role.create({ data: { workspaceId: other.id, name: 'Theirs', permissions: ['tasks:read'] } })).id;
      const otherMember = await addMember([otherRole], other.id);
      const otherGroup = (await database.prisma.group.create({ data: { workspaceId: other.id, name: 'Their group' } })).id;
      const ownGroup = (await call<{ data: Group }>('POST', '/v1/groups', admin, { name: 'Ours' })).body.data;

      type Request = [string, string, unknown];
      const requests = (id: string, kind: 'member' | 'role' | 'group'): Request[] => {
        const member: Request[] = [
          ['GET', `/v1/members/${id}`, undefined],
          ['PATCH', `/v1/members/${id}`, { expectedVersion: '1', status: 'deactivated' }],
          ['DELETE', `/v1/members/${id}`, undefined],
        ];
        const role: Request[] = [
          ['GET', `/v1/roles/${id}`, undefined],
          ['PATCH', `/v1/roles/${id}`, { expectedVersion: '1', name: 'x' }],
          ['PUT', `/v1/roles/${id}/permissions`, { expectedVersion: '1', permissions: [] }],
          ['DELETE', `/v1/roles/${id}`, undefined],
        ];
        const group: Request[] = [
          ['GET', `/v1/groups/${id}`, undefined],
          ['GET', `/v1/groups/${id}/members`, undefined],
          ['PATCH', `/v1/groups/${id}`, { expectedVersion: '1', name: 'x' }],
          ['PUT', `/v1/groups/${id}/members`, { expectedVersion: '1', memberIds: [] }],
          ['DELETE', `/v1/groups/${id}`, undefined],
        ];
        return { member, role, group }[kind];
      };
      for (const [kind, foreignId] of [
        ['member', otherMember],
        ['role', otherRole],
        ['group', otherGroup],
      ] as const) {
        const foreign = requests(foreignId, kind);
        const missing = requests(randomUUID(), kind);
        for (const [i, [method, path, body]] of foreign.entries()) {
          const a = await call(method, path, admin, body);
          const b = await call(missing[i]![0], missing[i]![1], admin, missing[i]![2]);
          assert.equal(a.status, 404, `${method} ${path}`);
          assert.deepEqual({ ...errorOf(a) }, { ...errorOf(b) }, `${method} ${kind}: same answer as a missing id`);
        }
      }
      const foreignMember = await call('PUT', `/v1/groups/${ownGroup.id}/members`, admin, { expectedVersion: '1', memberIds: [otherMember] });
      assert.equal(foreignMember.status, 400);
      assert.equal(errorOf(foreignMember).source?.pointer, '/memberIds/0');
      const owner = await getMember(ownerMemberId);
      const foreignRole = await call('PATCH', `/v1/members/${ownerMemberId}`, admin, { expectedVersion: owner.version, roleIds: [ownerRoleId, otherRole] });
      assert.equal(foreignRole.status, 400);
      assert.equal(errorOf(foreignRole).source?.pointer, '/roleIds/1');
      for (const [path, foreignId] of [
        ['/v1/members', otherMember],
        ['/v1/roles', otherRole],
        ['/v1/groups', otherGroup],
      ] as const) {
        const listed = await call<ListBody<{ id: string }>>('GET', `${path}?limit=200`, admin);
        assert.ok(!listed.body.data.some((x) => x.id === foreignId), path);
      }
      assert.equal((await call<ListBody<Member>>('GET', `/v1/members?roleId=${otherRole}`, admin)).body.data.length, 0);
      // The other workspace was not touched.
      assert.equal((await database.prisma.role.findUniqueOrThrow({ where: { workspaceId_id: { workspaceId: other.id, id: otherRole } } })).revision, 1);
      assert.equal(await database.prisma.auditEvent.count({ where: { workspaceId: other.id } }), 0);
    });
  });

  describe('audit trail', () => {
    it('every permission change records who did it, in the same transaction', async () => {
      const roleId = await addRole(['tasks:read']);
      const member = await addMember([roleId]);
      const group = (await call<{ data: Group }>('POST', '/v1/groups', admin, { name: 'Audited' })).body.data;
      const changes: [Reply, string, string, unknown][] = [];
      const r1 = await call('PUT', `/v1/roles/${roleId}/permissions`, admin, { expectedVersion: '1', permissions: ['tasks:write'] });
      changes.push([r1, roleId, 'role.permissions_replaced', { added: ['tasks:write'], removed: ['tasks:read'] }]);
      const other = await addRole(['projects:read']);
      const m = await getMember(member);
      const r2 = await call('PATCH', `/v1/members/${member}`, admin, { expectedVersion: m.version, roleIds: [other], status: 'deactivated' });
      changes.push([r2, member, 'member.status_changed', { from: 'active', to: 'disabled' }]);
      changes.push([r2, member, 'member.roles_changed', { rolesAdded: [other], rolesRemoved: [roleId] }]);
      const r3 = await call('PUT', `/v1/groups/${group.id}/members`, admin, { expectedVersion: group.version, memberIds: [member] });
      changes.push([r3, group.id, 'group.members_replaced', { added: [member], removed: [] }]);
      const r4 = await call<{ data: Role }>('POST', '/v1/roles', admin, { name: `audited-${++seq}`, permissions: ['tasks:read'] });
      changes.push([r4, r4.body.data.id, 'role.created', { permissions: ['tasks:read'] }]);
      const r5 = await call('DELETE', `/v1/roles/${r4.body.data.id}`, admin);
      changes.push([r5, r4.body.data.id, 'role.archived', { name: r4.body.data.name, permissions: ['tasks:read'] }]);

      for (const [reply, targetId, action, metadata] of changes) {
        assert.ok(reply.status < 300, `${action}: ${reply.status}`);
        const events = await auditOf(targetId, action);
        assert.equal(events.length, 1, action);
        const event = events[0]!;
        assert.equal(event.actorCredentialId, adminCredentialId);
        assert.equal(event.actorPrincipalType, 'member');
        assert.equal(event.actorPrincipalId, ownerMemberId);
        assert.equal(event.requestId, reply.headers.get('x-request-id'));
        assert.deepEqual(event.metadata, metadata);
        assert.ok(!JSON.stringify(event).includes('@'), 'no personal data in audit events');
      }
      const refused = await call('PUT', `/v1/roles/${roleId}/permissions`, admin, { expectedVersion: '1', permissions: [] });
      assert.equal(refused.status, 409);
      assert.equal((await auditOf(roleId)).length, 1, 'a refused change records nothing');
    });
  });

  describe('cursor pagination', () => {
    it('pages with limit, nextCursor and links.next, without skips or duplicates; bad cursors are 400', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push((await call<{ data: Group }>('POST', '/v1/groups', admin, { name: `page-${i}` })).body.data.id);
      const all = (await call<ListBody<Group>>('GET', '/v1/groups?limit=200', admin)).body.data.map((g) => g.id);
      assert.deepEqual(all.slice(-5), ids, 'oldest first');
      assert.deepEqual([...all].sort(), all, 'id order');

      const seen: string[] = [];
      let path: string | null = '/v1/groups?limit=2';
      let pages = 0;
      while (path) {
        const page: Reply<ListBody<Group>> = await call<ListBody<Group>>('GET', path, admin, undefined, pages % 2 === 0 ? v1 : v1b);
        assert.equal(page.status, 200);
        assert.equal(page.body.meta.limit, 2);
        assert.ok(page.body.data.length <= 2);
        seen.push(...page.body.data.map((g) => g.id));
        assert.equal(page.body.links.next === null, page.body.meta.nextCursor === null);
        if (page.body.links.next) assert.equal(new URL(page.body.links.next, 'http://x.invalid').searchParams.get('cursor'), page.body.meta.nextCursor);
        path = page.body.links.next;
        pages++;
      }
      assert.deepEqual(seen, all);
      assert.equal(pages, Math.ceil(all.length / 2));

      const firstRoles = await call<ListBody<Role>>('GET', '/v1/roles?limit=1', admin);
      const cursor = firstRoles.body.meta.nextCursor;
      assert.ok(cursor);
      const second = await call<ListBody<Role>>('GET', `/v1/roles?limit=1&cursor=${encodeURIComponent(cursor)}`, admin);
      assert.equal(second.status, 200);
      assert.notEqual(second.body.data[0]?.id, firstRoles.body.data[0]?.id);
      for (const bad of [`${cursor.slice(0, -2)}xx`, 'garbage', cursor.replace('.', '')]) {
        const reply = await call('GET', `/v1/roles?cursor=${encodeURIComponent(bad)}`, admin);
        assert.equal(reply.status, 400, bad);
        assert.equal(errorOf(reply).code, 'validation_failed');
        assert.equal(errorOf(reply).source?.parameter, 'cursor');
      }
      assert.equal((await call('GET', `/v1/groups?cursor=${encodeURIComponent(cursor)}`, admin)).status, 400, 'a cursor of another list');
      const members = await call<ListBody<Member>>('GET', '/v1/members?limit=1&status=active', admin);
      assert.ok(members.body.meta.nextCursor);
      assert.equal((await call('GET', `/v1/members?limit=1&cursor=${encodeURIComponent(members.body.meta.nextCursor)}`, admin)).status, 400, 'a cursor of another filter');
      assert.equal((await call('GET', `/v1/members?limit=1&status=active&cursor=${encodeURIComponent(members.body.meta.nextCursor)}`, admin)).status, 200);
      for (const limit of ['0', '201', 'x']) assert.equal((await call('GET', `/v1/roles?limit=${limit}`, admin)).status, 400, `limit=${limit}`);
      assert.equal((await call<ListBody<Role>>('GET', '/v1/roles', admin)).body.meta.limit, 50, 'default limit');

      const group = ids[0]!;
      const groupMembers = await Promise.all([addMember([]), addMember([]), addMember([])]);
      assert.equal((await call('PUT', `/v1/groups/${group}/members`, admin, { expectedVersion: '1', memberIds: groupMembers })).status, 200);
      const p1 = await call<ListBody<GroupMember>>('GET', `/v1/groups/${group}/members?limit=2`, admin);
      assert.equal(p1.body.data.length, 2);
      assert.ok(p1.body.links.next);
      const p2 = await call<ListBody<GroupMember>>('GET', p1.body.links.next, admin);
      assert.equal(p2.body.data.length, 1);
      assert.equal(p2.body.meta.nextCursor, null);
      assert.deepEqual(
        [...p1.body.data, ...p2.body.data].map((m) => m.memberId),
        [...groupMembers].sort(),
      );
      const foreignCursor = await call('GET', `/v1/groups/${ids[1]}/members?cursor=${encodeURIComponent(p1.body.meta.nextCursor ?? '')}`, admin);
      assert.equal(foreignCursor.status, 400, 'a cursor of another group');
    });
  });
});
