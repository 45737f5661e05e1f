import assert from 'node:assert/strict';
import { useTestEnvironment } from '@workcell/testing';
import { useV1Cell } from './support/cell.js';
import { namedFamily } from './support/named-family.js';
import { assertProblem, assertShape, type Schema } from './support/v1.js';

/**
 * v1 tags (issue 6), end to end against the running services: scopes, tenancy, validation with JSON
 * pointers, last-writer-wins updates (the registry declares no precondition), archive/restore and list
 * exclusion, cursor pagination, outbox events written with the change, idempotent creates and the
 * registry's response shapes.
 */

const env = useTestEnvironment();

type Tag = Schema<'Tag'>;

describe('v1 tags', () => {
  const cell = useV1Cell(env);
  const { call, outbox } = cell;
  const tags = namedFamily<Tag>(cell, {
    plural: 'tags',
    singular: 'tag',
    count: (where) => cell.database.prisma.tag.count({ where }),
    row: (workspaceId, id) => cell.database.prisma.tag.findFirstOrThrow({ where: { workspaceId, id } }),
    insert: async (workspaceId, name) => (await cell.database.prisma.tag.create({ data: { workspaceId, name } })).id,
  });

  describe('scopes', () => {
    tags.itReadsButDoesNotWriteWithTheReadScope();
  });

  describe('tenancy', () => {
    tags.itAnswersAnotherWorkspacesLikeAMissingOne();
  });

  describe('tags', () => {
    it('creates a tag: 201, Location, strong ETag, the registry shape and tag.created in the outbox', async () => {
      const reply = await call<{ data: Tag }>('POST', '/v1/tags', cell.admin, { name: '  Urgent ', color: '#FF0000' });
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
      const t = reply.body.data;
      assert.equal(reply.headers.get('location'), `/v1/tags/${t.id}`);
      assert.equal(reply.headers.get('etag'), '"1"');
      assertShape('createTag', t);
      assert.deepEqual({ name: t.name, color: t.color, archivedAt: t.archivedAt }, { name: 'Urgent', color: '#FF0000', archivedAt: null });
      assert.deepEqual(
        (await outbox(t.id)).map((e) => [e.eventType, e.aggregateType]),
        [['tag.created', 'tag']],
      );
      const got = await call<{ data: Tag }>('GET', `/v1/tags/${t.id}`, cell.admin);
      assert.equal(got.status, 200);
      assert.equal(got.headers.get('etag'), '"1"');
      assertShape('getTag', got.body.data);
      assert.deepEqual(got.body.data, t);
      assert.equal((await tags.create({ name: 'No colour' })).color, null);
    });

    it('refuses invalid bodies with 400 and a pointer, unknown attributes included, and writes nothing', async () => {
      const before = await cell.database.prisma.tag.count({ where: { workspaceId: cell.workspaceId } });
      assertProblem(await call('POST', '/v1/tags', cell.admin, {}), 400, 'validation_failed', '/name');
      assertProblem(await call('POST', '/v1/tags', cell.admin, { name: '   ' }), 400, 'validation_failed', '/name');
      assertProblem(await call('POST', '/v1/tags', cell.admin, { name: 'x'.repeat(201) }), 400, 'validation_failed', '/name');
      assertProblem(await call('POST', '/v1/tags', cell.admin, { name: 'Bad colour', color: 'red' }), 400, 'validation_failed', '/color');
      assertProblem(await call('POST', '/v1/tags', cell.admin, { name: 'Extra', weight: 3 }), 400, 'validation_failed');
      assert.equal(await cell.database.prisma.tag.count({ where: { workspaceId: cell.workspaceId } }), before);
    });

    tags.itReplaysAnIdempotentCreate();
    tags.itUpdatesLastWriterWins({ name: 'Renamed', color: null }, { name: 'Renamed', color: null });
    tags.itRefusesInvalidUpdates();
    tags.itArchivesAndRestores();
    tags.itPages();
  });
});
