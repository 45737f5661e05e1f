import assert from 'node:assert/strict';
import { useTestEnvironment } from '@workcell/testing';
import { useV1Cell } from './support/cell.js';
import { namedFamily } from './support/named-family.js';
import { assertProblem, assertShape, type Schema } from './support/v1.js';

/**
 * v1 lists (issue 6), end to end against the running services: scopes, tenancy, validation with JSON
 * pointers, last-writer-wins updates (the registry declares no precondition), archive/restore and list
 * exclusion, cursor pagination, outbox events written with the change, idempotent creates and the
 * registry's response shapes.
 */

const env = useTestEnvironment();

type List = Schema<'List'>;

describe('v1 lists', () => {
  const cell = useV1Cell(env);
  const { call, listAll, outbox } = cell;
  const lists = namedFamily<List>(cell, {
    plural: 'lists',
    singular: 'list',
    required: { kind: 'tasks' },
    count: (where) => cell.database.prisma.list.count({ where }),
    row: (workspaceId, id) => cell.database.prisma.list.findFirstOrThrow({ where: { workspaceId, id } }),
    insert: async (workspaceId, name) => (await cell.database.prisma.list.create({ data: { workspaceId, name, kind: 'task' } })).id,
  });

  describe('scopes', () => {
    lists.itReadsButDoesNotWriteWithTheReadScope();
  });

  describe('tenancy', () => {
    lists.itAnswersAnotherWorkspacesLikeAMissingOne();
  });

  describe('lists', () => {
    it('creates a list: 201, Location, strong ETag, the registry shape and list.created in the outbox', async () => {
      const reply = await call<{ data: List }>('POST', '/v1/lists', cell.admin, { name: '  Backlog ', kind: 'projects', position: 3, color: '#FF0000' });
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
      const t = reply.body.data;
      assert.equal(reply.headers.get('location'), `/v1/lists/${t.id}`);
      assert.equal(reply.headers.get('etag'), '"1"');
      assertShape('createList', t);
      assert.deepEqual(
        { name: t.name, kind: t.kind, position: t.position, color: t.color, archivedAt: t.archivedAt },
        { name: 'Backlog', kind: 'projects', position: 3, color: '#FF0000', archivedAt: null },
      );
      assert.equal((await cell.database.prisma.list.findFirstOrThrow({ where: { workspaceId: cell.workspaceId, id: t.id } })).kind, 'project');
      assert.deepEqual(
        (await outbox(t.id)).map((e) => [e.eventType, e.aggregateType]),
        [['list.created', 'list']],
      );
      const got = await call<{ data: List }>('GET', `/v1/lists/${t.id}`, cell.admin);
      assert.equal(got.status, 200);
      assert.equal(got.headers.get('etag'), '"1"');
      assertShape('getList', got.body.data);
      assert.deepEqual(got.body.data, t);
      const plain = await lists.create({ name: 'No colour' });
      assert.deepEqual([plain.kind, plain.position, plain.color], ['tasks', 0, null]);
    });

    it('refuses invalid bodies with 400 and a pointer, unknown attributes included, and writes nothing', async () => {
      const before = await cell.database.prisma.list.count({ where: { workspaceId: cell.workspaceId } });
      assertProblem(await call('POST', '/v1/lists', cell.admin, { kind: 'tasks' }), 400, 'validation_failed', '/name');
      assertProblem(await call('POST', '/v1/lists', cell.admin, { name: 'No kind' }), 400, 'validation_failed', '/kind');
      assertProblem(await call('POST', '/v1/lists', cell.admin, { name: 'Bad kind', kind: 'task' }), 400, 'validation_failed', '/kind');
      assertProblem(await call('POST', '/v1/lists', cell.admin, { name: 'Bad position', kind: 'tasks', position: -1 }), 400, 'validation_failed', '/position');
      assertProblem(await call('POST', '/v1/lists', cell.admin, { name: 'Bad position', kind: 'tasks', position: 1.5 }), 400, 'validation_failed', '/position');
      assertProblem(await call('POST', '/v1/lists', cell.admin, { name: '   ', kind: 'tasks' }), 400, 'validation_failed', '/name');
      assertProblem(await call('POST', '/v1/lists', cell.admin, { name: 'x'.repeat(201), kind: 'tasks' }), 400, 'validation_failed', '/name');
      assertProblem(await call('POST', '/v1/lists', cell.admin, { name: 'Bad colour', kind: 'tasks', color: 'red' }), 400, 'validation_failed', '/color');
      assertProblem(await call('POST', '/v1/lists', cell.admin, { name: 'Extra', kind: 'tasks', weight: 3 }), 400, 'validation_failed');
      assert.equal(await cell.database.prisma.list.count({ where: { workspaceId: cell.workspaceId } }), before);
    });

    lists.itReplaysAnIdempotentCreate();
    lists.itUpdatesLastWriterWins({ name: 'Renamed', position: 7, color: null }, { name: 'Renamed', position: 7, color: null, kind: 'tasks' });
    lists.itRefusesInvalidUpdates([[{ kind: 'projects' }], [{ position: -2 }, '/position']]);
    lists.itArchivesAndRestores();
    lists.itPages(
      (i) => ({ kind: i % 2 ? 'projects' : 'tasks' }),
      async (created, first) => {
        const projects = await listAll<List>('/v1/lists?kind=projects&limit=1');
        assert.ok(projects.every((l) => l.kind === 'projects'));
        assert.deepEqual(
          projects.filter((t) => created.some((c) => c.id === t.id)).map((t) => t.id),
          [created[1]!.id, created[3]!.id],
        );
        assertProblem(await call('GET', `/v1/lists?kind=projects&cursor=${first.meta.nextCursor}`, cell.admin), 400, 'validation_failed');
        assert.equal((await call('GET', '/v1/lists?kind=task', cell.admin)).status, 400);
      },
    );
  });
});
