import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { V1_SCOPES } from '@workcell/credentials';
import { v1Operations } from '@workcell/registry';
import { useTestEnvironment } from '@workcell/testing';
import { startV1Cell, type V1Cell } from './support/cell.js';
import { assertProblem, assertShape, callApi, errorOf } from './support/v1.js';

/**
 * The workspace family beyond GET /v1/workspace (issue 6): the compare-and-set settings projection,
 * capabilities read off the served operations, entitlements with live usage; and project sharing (atomic,
 * compare-and-set replacement of a project's access-control entries, audited).
 */

const env = useTestEnvironment();

type Settings = { name: string; locale: string; timeZone: string; weekStart: string; defaultCurrency: string; dateFormat: string; version: string; updatedAt: string };
type Sharing = { projectId: string; entries: { principalType: string; principalId: string; access: string }[]; version: string };

describe('v1 workspace settings, capabilities, entitlements and project sharing', () => {
  let cell: V1Cell;
  let admin: string;

  const call = <T = unknown>(method: string, path: string, token: string, body?: unknown, headers: Record<string, string> = {}, app = cell.v1) => callApi<T>(app, method, path, token, body, headers);
  const settings = async () => (await call<{ data: Settings }>('GET', '/v1/workspace/settings', admin)).body.data;
  const audits = (action: string) => cell.database.prisma.auditEvent.findMany({ where: { workspaceId: cell.workspaceId, action }, orderBy: { id: 'asc' } });

  beforeAll(async () => {
    cell = await startV1Cell(env);
    admin = await cell.mint(V1_SCOPES);
  });
  afterAll(() => cell?.close());

  describe('settings', () => {
    it('reads the six-field projection with its version as a strong ETag', async () => {
      const reply = await call<{ data: Settings }>('GET', '/v1/workspace/settings', admin);
      assert.equal(reply.status, 200);
      assertShape('getWorkspaceSettings', reply.body.data);
      assert.equal(reply.headers.get('etag'), `"${reply.body.data.version}"`);
      const workspace = await cell.database.prisma.workspace.findUniqueOrThrow({ where: { id: cell.workspaceId } });
      assert.equal(reply.body.data.name, workspace.name);
    });

    it('compare-and-sets the sent fields: a stale version is 409 and changes nothing; the change is audited', async () => {
      const current = await settings();
      const reply = await call<{ data: Settings }>('PATCH', '/v1/workspace/settings', admin, {
        expectedVersion: current.version,
        timeZone: 'Europe/Berlin',
        weekStart: 'sunday',
        defaultCurrency: 'CHF',
        name: 'Renamed workspace',
      });
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      const updated = reply.body.data;
      assertShape('updateWorkspaceSettings', updated);
      assert.deepEqual([updated.timeZone, updated.weekStart, updated.defaultCurrency, updated.name, updated.locale], ['Europe/Berlin', 'sunday', 'CHF', 'Renamed workspace', current.locale]);
      assert.notEqual(updated.version, current.version);
      assert.equal((await call<{ data: { name: string } }>('GET', '/v1/workspace', admin)).body.data.name, 'Renamed workspace');

      assertProblem(await call('PATCH', '/v1/workspace/settings', admin, { expectedVersion: current.version, locale: 'fr' }), 409, 'version_conflict');
      assert.deepEqual(await settings(), updated);

      const [event] = (await audits('workspace.settings_updated')).slice(-1);
      assert.ok(event);
      assert.equal(event.requestId, reply.headers.get('x-request-id'));
      assert.deepEqual((event.metadata as { changed: string[] }).changed.sort(), ['defaultCurrency', 'name', 'timeZone', 'weekStart']);
      assert.equal((await cell.outbox(cell.workspaceId, 'workspace.settings_updated')).length >= 1, true);
    });

    it('refuses invalid values with a pointer, unknown or missing fields, and writes nothing', async () => {
      const current = await settings();
      const cases: [unknown, string | undefined][] = [
        [{ expectedVersion: current.version, timeZone: 'Mars/Olympus' }, '/timeZone'],
        [{ expectedVersion: current.version, locale: 'english' }, '/locale'],
        [{ expectedVersion: current.version, defaultCurrency: 'eur' }, '/defaultCurrency'],
        [{ expectedVersion: current.version, dateFormat: 'D/M/Y' }, '/dateFormat'],
        [{ expectedVersion: current.version, weekStart: 'friday' }, '/weekStart'],
        [{ expectedVersion: current.version, plan: 'enterprise' }, undefined],
        [{ expectedVersion: current.version }, undefined],
        [{ locale: 'de' }, undefined],
      ];
      for (const [body, pointer] of cases) assertProblem(await call('PATCH', '/v1/workspace/settings', admin, body), 400, 'validation_failed', pointer);
      assert.deepEqual(await settings(), current);
    });

    it('of 10 concurrent updates from one version exactly one wins, the others get 409', async () => {
      const current = await settings();
      const replies = await Promise.all(
        Array.from({ length: 10 }, (_, i) => call('PATCH', '/v1/workspace/settings', admin, { expectedVersion: current.version, name: `Concurrent ${i}` }, {}, i % 2 ? cell.v1 : cell.v1b)),
      );
      assert.deepEqual(replies.map((r) => r.status).sort(), [200, ...Array(9).fill(409)]);
      assert.equal(Number((await settings()).version), Number(current.version) + 1);
    });

    it('needs workspace-settings:read / :write', async () => {
      const reader = await cell.mint(['workspace-settings:read']);
      const none = await cell.mint(['workspace:read']);
      assert.equal((await call('GET', '/v1/workspace/settings', reader)).status, 200);
      assertProblem(await call('PATCH', '/v1/workspace/settings', reader, { expectedVersion: '1', locale: 'de' }), 403, 'insufficient_scope');
      assert.match(errorOf(await call('GET', '/v1/workspace/settings', none)).detail, /workspace-settings:read/);
    });
  });

  describe('capabilities and entitlements', () => {
    it('lists every registry family once, enabled exactly when all of its operations are served', async () => {
      const reply = await call<{ data: { capabilities: { key: string; enabled: boolean }[] } }>('GET', '/v1/workspace/capabilities', await cell.mint(['workspace:read']));
      assert.equal(reply.status, 200);
      assertShape('getWorkspaceCapabilities', reply.body.data);
      const byKey = new Map(reply.body.data.capabilities.map((c) => [c.key, c.enabled]));
      assert.deepEqual([...byKey.keys()].sort(), [...new Set(v1Operations.map((o) => o.family))].sort());
      assert.equal(byKey.get('tags'), true);
      assert.equal(byKey.get('workspace'), true);
      assert.equal(byKey.get('automations'), true);
      // Families whose operations still answer 501 are not offered as capabilities.
      const unserved = (await call('GET', '/v1/changes', admin)).status === 501;
      assert.equal(byKey.get('changes'), !unserved);
    });

    it('reports the plan, configured limits and live usage', async () => {
      type Ent = { plan: string; entitlements: { key: string; limit: number | null; used: number | null }[] };
      const read = async () => (await call<{ data: Ent }>('GET', '/v1/workspace/entitlements', admin)).body.data;
      const before = await read();
      assertShape('getWorkspaceEntitlements', before);
      const of = (e: Ent, key: string) => e.entitlements.find((x) => x.key === key);
      assert.equal(of(before, 'apiV1.readRequestsPerMinute')?.limit, cell.config.v1RateLimits.read);
      assert.equal(of(before, 'apiV0.requestsPerMinutePerPath')?.limit, 100);
      assert.equal(of(before, 'apiV1.maxPageSize')?.limit, 200);
      assert.equal((await call('POST', '/v1/projects', admin, { name: 'Counted' })).status, 201);
      assert.equal(of(await read(), 'projects')?.used, of(before, 'projects')!.used! + 1);
    });
  });

  describe('strong ETags on every single-resource read', () => {
    it('resources without a revision get a digest of their representation; If-None-Match answers 304', async () => {
      const paths = ['/v1/workspace/capabilities', '/v1/workspace/entitlements', `/v1/users/${cell.ownerMemberId}`, `/v1/members/${cell.ownerMemberId}`, '/v1/auth/context'];
      for (const path of paths) {
        const first = await call('GET', path, admin);
        assert.equal(first.status, 200, path);
        const etag = first.headers.get('etag');
        assert.match(etag ?? '', /^"[A-Za-z0-9_-]+"$/, `${path} sends a strong ETag`);
        const again = await call('GET', path, admin, undefined, { 'if-none-match': etag! });
        assert.equal(again.status, 304, `${path} If-None-Match`);
        assert.equal(again.body, undefined);
        assert.equal((await call('GET', path, admin, undefined, { 'if-none-match': '"other"' })).status, 200);
      }
      // Revisioned resources keep their revision as the ETag (the validator If-Match compares).
      const settings = await call<{ data: Settings }>('GET', '/v1/workspace/settings', admin);
      assert.equal(settings.headers.get('etag'), `"${settings.body.data.version}"`);
      const projectId = (await call<{ data: { id: string } }>('POST', '/v1/projects', admin, { name: 'Etagged' })).body.data.id;
      const project = await call('GET', `/v1/projects/${projectId}`, admin);
      assert.equal(project.headers.get('etag'), '"1"');
      assert.equal((await call('GET', `/v1/projects/${projectId}`, admin, undefined, { 'if-none-match': '"1"' })).status, 304);
    });
  });

  describe('project sharing', () => {
    let projectId: string;
    let groupId: string;
    let serviceAccountId: string;
    const path = () => `/v1/projects/${projectId}/sharing`;

    beforeAll(async () => {
      projectId = (await call<{ data: { id: string } }>('POST', '/v1/projects', admin, { name: 'Shared project' })).body.data.id;
      groupId = (await cell.database.prisma.group.create({ data: { workspaceId: cell.workspaceId, name: 'Sharing group' } })).id;
      serviceAccountId = (await cell.serviceAccount(['projects:read'], [])).serviceAccountId;
    });

    it('starts empty and replaces the whole list atomically with compare-and-set, audited, the project ETag untouched', async () => {
      const initial = await call<{ data: Sharing }>('GET', path(), admin);
      assert.equal(initial.status, 200);
      assertShape('getProjectSharing', initial.body.data);
      assert.deepEqual(initial.body.data.entries, []);
      const projectEtag = (await call('GET', `/v1/projects/${projectId}`, admin)).headers.get('etag');
      const entries = [
        { principalType: 'member', principalId: cell.ownerMemberId, access: 'manager' },
        { principalType: 'group', principalId: groupId, access: 'viewer' },
        { principalType: 'service-account', principalId: serviceAccountId, access: 'editor' },
      ];
      const reply = await call<{ data: Sharing }>('PUT', path(), admin, { expectedVersion: initial.body.data.version, entries });
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      assertShape('replaceProjectSharing', reply.body.data);
      const key = (e: { principalType: string; principalId: string; access: string }) => `${e.principalType}:${e.principalId}:${e.access}`;
      assert.deepEqual(reply.body.data.entries.map(key).sort(), entries.map(key).sort());
      assert.deepEqual((await call<{ data: Sharing }>('GET', path(), admin)).body.data, reply.body.data);
      assert.equal((await call('GET', `/v1/projects/${projectId}`, admin)).headers.get('etag'), projectEtag, 'sharing has its own version');

      assertProblem(await call('PUT', path(), admin, { expectedVersion: initial.body.data.version, entries: [] }), 409, 'version_conflict');
      assert.equal((await call<{ data: Sharing }>('GET', path(), admin)).body.data.entries.length, 3);
      const [event] = (await audits('project.sharing_replaced')).slice(-1);
      assert.equal(event?.targetId, projectId);
      assert.equal((event?.metadata as { entries: unknown[] }).entries.length, 3);
      assert.equal((await cell.outbox(projectId, 'project.sharing_replaced')).length, 1);
    });

    it('validates every entry first: unknown, foreign and duplicate principals are 400 with pointers; nothing changes', async () => {
      const current = (await call<{ data: Sharing }>('GET', path(), admin)).body.data;
      const foreign = await cell.database.prisma.workspace.create({ data: { name: 'Foreign', region: cell.config.region, cell: cell.config.cell } });
      const foreignGroup = await cell.database.prisma.group.create({ data: { workspaceId: foreign.id, name: 'Foreign group' } });
      const reply = await call('PUT', path(), admin, {
        expectedVersion: current.version,
        entries: [
          { principalType: 'member', principalId: randomUUID(), access: 'viewer' },
          { principalType: 'group', principalId: foreignGroup.id, access: 'viewer' },
          { principalType: 'member', principalId: cell.ownerMemberId, access: 'viewer' },
          { principalType: 'member', principalId: cell.ownerMemberId, access: 'editor' },
          { principalType: 'service-account', principalId: 'nope', access: 'viewer' },
        ],
      });
      assertProblem(reply, 400, 'validation_failed');
      const pointers = (reply.body as { errors: { source?: { pointer?: string } }[] }).errors.map((e) => e.source?.pointer).sort();
      assert.deepEqual(pointers, ['/entries/0/principalId', '/entries/1/principalId', '/entries/3/principalId', '/entries/4/principalId']);
      assertProblem(
        await call('PUT', path(), admin, { expectedVersion: current.version, entries: [{ principalType: 'robot', principalId: cell.ownerMemberId, access: 'viewer' }] }),
        400,
        'validation_failed',
        '/entries/0/principalType',
      );
      assert.deepEqual((await call<{ data: Sharing }>('GET', path(), admin)).body.data, current);
    });

    it('another workspace’s project answers 404; projects:sharing is required', async () => {
      const foreign = await cell.database.prisma.workspace.create({ data: { name: 'Other', region: cell.config.region, cell: cell.config.cell } });
      const foreignProject = await cell.database.prisma.project.create({ data: { workspaceId: foreign.id, name: 'Not yours' } });
      for (const id of [foreignProject.id, randomUUID(), 'x']) {
        assertProblem(await call('GET', `/v1/projects/${id}/sharing`, admin), 404, 'not_found');
        assertProblem(await call('PUT', `/v1/projects/${id}/sharing`, admin, { expectedVersion: '1', entries: [] }), 404, 'not_found');
      }
      const noSharing = await cell.mint(V1_SCOPES.filter((s) => s !== 'projects:sharing'));
      assertProblem(await call('GET', path(), noSharing), 403, 'insufficient_scope');
      assertProblem(await call('PUT', path(), noSharing, { expectedVersion: '1', entries: [] }), 403, 'insufficient_scope');
    });
  });
});
