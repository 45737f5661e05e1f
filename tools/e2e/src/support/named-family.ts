import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { V1Fixture } from './cell.js';
import { assertProblem, assertShape, type ListBody } from './v1.js';

/**
 * The scenarios v1 lists and tags share (both are named, coloured, archivable workspace resources updated last writer
 * wins): scopes, tenancy, idempotent creates, updates, archive/restore and cursor pagination. Each `it…` method
 * declares one test in the describe block it is called in; what only one family has is passed in.
 */

/** A resource of such a family as the API answers it. */
export interface NamedResource {
  readonly id: string;
  readonly name: string;
  readonly color: string | null;
  readonly archivedAt: string | null;
}

/** A stored row, to see that a refused request changed nothing. */
export interface NamedRow {
  readonly name: string;
  readonly revision: number;
  readonly archivedAt: Date | null;
}

/** Which rows of the family's table to count. */
export type RowFilter = { workspaceId: string; id?: string; name?: string };

export interface NamedFamilySpec {
  /** The family as in its paths and scopes: `lists`. */
  readonly plural: string;
  /** One of it as in operation ids, event types and aggregate types: `list` (createList, list.created). */
  readonly singular: string;
  /** What a create needs besides a name. */
  readonly required?: Record<string, unknown>;
  /** The rows of the family's table that match. */
  count(filter: RowFilter): Promise<number>;
  /** The stored row of `id` in that workspace. */
  row(workspaceId: string, id: string): Promise<NamedRow>;
  /** Inserts a resource named `name` into another workspace, directly: its id. */
  insert(workspaceId: string, name: string): Promise<string>;
}

/** A test's own assertions about the page and the resources it made. */
export type PagingChecks<T> = (created: T[], first: ListBody<T>) => Promise<void>;

export function namedFamily<T extends NamedResource>(cell: V1Fixture, spec: NamedFamilySpec) {
  const { plural, singular, required = {} } = spec;
  const path = `/v1/${plural}`;
  const Singular = singular.charAt(0).toUpperCase() + singular.slice(1);
  const { call, listAll, outbox } = cell;
  const other = { workspaceId: '', id: '' };
  let seq = 0;

  beforeAll(async () => {
    other.workspaceId = await cell.otherWorkspace();
    other.id = await spec.insert(other.workspaceId, `Foreign ${singular}`);
  });

  /** A new resource of the family, named `<Singular> <n>` unless `body` names it. */
  const create = async (body: Record<string, unknown> = {}) => {
    const reply = await call<{ data: T }>('POST', path, cell.admin, { name: `${Singular} ${++seq}`, ...required, ...body });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    return reply.body.data;
  };
  const get = async (id: string) => (await call<{ data: T }>('GET', `${path}/${id}`, cell.admin)).body.data;
  /** The fields of `resource` that `expected` names. */
  const fieldsOf = (resource: T, expected: Partial<T>) => Object.fromEntries(Object.keys(expected).map((key) => [key, resource[key as keyof T]]));

  return {
    path,
    create,
    get,

    itReadsButDoesNotWriteWithTheReadScope() {
      it(`${plural}:read reads but does not write`, async () => {
        const reader = await cell.mint([`${plural}:read`]);
        const resource = await create();
        assert.equal((await call('GET', `${path}/${resource.id}`, reader)).status, 200);
        assert.equal((await call('GET', path, reader)).status, 200);
        assertProblem(await call('PATCH', `${path}/${resource.id}`, reader, { name: 'x' }), 403, 'insufficient_scope');
        assertProblem(await call('POST', path, reader, { name: 'x', ...required }), 403, 'insufficient_scope');
        assertProblem(await call('DELETE', `${path}/${resource.id}`, reader), 403, 'insufficient_scope');
        assert.equal((await get(resource.id)).name, resource.name);
      });
    },

    itAnswersAnotherWorkspacesLikeAMissingOne() {
      it(`another workspace’s ${singular} answers exactly like a missing one (404) and is never changed or listed`, async () => {
        for (const id of [other.id, randomUUID(), 'not-a-uuid']) {
          assertProblem(await call('GET', `${path}/${id}`, cell.admin), 404, 'not_found');
          assertProblem(await call('PATCH', `${path}/${id}`, cell.admin, { name: 'Hijacked' }), 404, 'not_found');
          assertProblem(await call('DELETE', `${path}/${id}`, cell.admin), 404, 'not_found');
          assertProblem(await call('POST', `${path}/${id}/restore`, cell.admin), 404, 'not_found');
        }
        const foreign = await spec.row(other.workspaceId, other.id);
        assert.deepEqual([foreign.name, foreign.revision, foreign.archivedAt], [`Foreign ${singular}`, 1, null]);
        assert.ok(!(await listAll<T>(`${path}?limit=200`)).some((t) => t.id === other.id));
        assert.equal(await cell.database.prisma.outboxEvent.count({ where: { aggregateId: other.id } }), 0);
      });
    },

    itReplaysAnIdempotentCreate() {
      it('replays an idempotent create with the same key and creates once', async () => {
        const key = `${singular}-${randomUUID()}`;
        const body = { name: `Idempotent ${singular}`, ...required };
        const first = await call<{ data: T }>('POST', path, cell.admin, body, { 'idempotency-key': key });
        const second = await call<{ data: T }>('POST', path, cell.admin, body, { 'idempotency-key': key });
        assert.equal(first.status, 201);
        assert.equal(second.status, 201);
        assert.equal(second.headers.get('idempotency-replayed'), 'true');
        assert.equal(second.body.data.id, first.body.data.id);
        assert.equal(second.headers.get('location'), first.headers.get('location'));
        assert.equal(await spec.count({ workspaceId: cell.workspaceId, name: `Idempotent ${singular}` }), 1);
        assert.equal((await outbox(first.body.data.id, `${singular}.created`)).length, 1);
        assertProblem(await call('POST', path, cell.admin, { name: 'Other', ...required }, { 'idempotency-key': key }), 409, 'idempotency_key_reused');
      });
    },

    /** `patch` renames and clears the colour (and may change more); `updated` is what the answer then holds. */
    itUpdatesLastWriterWins(patch: Record<string, unknown>, updated: Partial<T>) {
      it(`updates name and colour (last writer wins, as the registry declares): the ETag moves on, ${singular}.updated is written`, async () => {
        const t = await create({ color: '#00ff00' });
        const reply = await call<{ data: T }>('PATCH', `${path}/${t.id}`, cell.admin, patch);
        assert.equal(reply.status, 200, JSON.stringify(reply.body));
        assertShape(`update${Singular}`, reply.body.data);
        assert.equal(reply.headers.get('etag'), '"2"');
        assert.deepEqual(fieldsOf(reply.body.data, updated), updated);
        assert.deepEqual(
          (await outbox(t.id)).map((e) => e.eventType),
          [`${singular}.created`, `${singular}.updated`],
        );
        const replies = await Promise.all(Array.from({ length: 4 }, (_, i) => call('PATCH', `${path}/${t.id}`, cell.admin, { name: `writer ${i}` }, {}, i % 2 ? cell.v1b : cell.v1)));
        assert.deepEqual(
          replies.map((r) => r.status),
          [200, 200, 200, 200],
        );
        const now = await call<{ data: T }>('GET', `${path}/${t.id}`, cell.admin);
        assert.equal(now.headers.get('etag'), '"6"', 'every write is counted, none is lost');
        assert.equal((await outbox(t.id, `${singular}.updated`)).length, 5);
      });
    },

    /** Besides a bad name or colour, an unknown attribute and an empty patch, `refused` are the family's own invalid patches (with the pointer each answers, if any). */
    itRefusesInvalidUpdates(refused: [Record<string, unknown>, string?][] = []) {
      it('refuses invalid updates with 400 (pointer; unknown attribute; empty patch) and changes nothing', async () => {
        const t = await create();
        const patches: [Record<string, unknown>, string?][] = [[{ name: '' }, '/name'], [{ color: '#12345' }, '/color'], [{ label: 'x' }], ...refused, [{}]];
        for (const [patch, pointer] of patches) assertProblem(await call('PATCH', `${path}/${t.id}`, cell.admin, patch), 400, 'validation_failed', pointer);
        assert.deepEqual(await get(t.id), t);
        assert.equal((await outbox(t.id, `${singular}.updated`)).length, 0);
      });
    },

    itArchivesAndRestores() {
      it('archive never deletes: 204, left out of lists, still readable; restore brings it back; events for both', async () => {
        const t = await create({ name: 'Archivable' });
        const archived = await call('DELETE', `${path}/${t.id}`, cell.admin);
        assert.equal(archived.status, 204);
        assert.equal(archived.body, undefined);
        assert.ok(!(await listAll<T>(`${path}?limit=200`)).some((x) => x.id === t.id));
        assert.ok((await get(t.id)).archivedAt !== null);
        assert.equal(await spec.count({ workspaceId: cell.workspaceId, id: t.id }), 1);
        assert.equal((await call('DELETE', `${path}/${t.id}`, cell.admin)).status, 204, 'archiving again is fine');
        const restored = await call<{ data: T }>('POST', `${path}/${t.id}/restore`, cell.admin);
        assert.equal(restored.status, 200);
        assertShape(`restore${Singular}`, restored.body.data);
        assert.equal(restored.body.data.archivedAt, null);
        assert.equal(restored.headers.get('etag'), '"3"');
        assert.ok((await listAll<T>(`${path}?limit=200`)).some((x) => x.id === t.id));
        assert.equal((await call('POST', `${path}/${t.id}/restore`, cell.admin)).status, 200, 'restoring again is fine');
        assert.deepEqual(
          (await outbox(t.id)).map((e) => e.eventType),
          [`${singular}.created`, `${singular}.archived`, `${singular}.restored`],
        );
      });
    },

    /** Five resources (the i-th created with `body(i)`) are paged two at a time; `checks` adds the family's own filters. */
    itPages(body: (i: number) => Record<string, unknown> = () => ({}), checks?: PagingChecks<T>) {
      it('pages with a cursor without gaps or repeats; bad cursors and limits are 400', async () => {
        const created: T[] = [];
        for (let i = 0; i < 5; i++) created.push(await create({ name: `Pager ${i}`, ...body(i) }));
        const first = await call<ListBody<T>>('GET', `${path}?limit=2`, cell.admin);
        assert.equal(first.status, 200);
        assert.equal(first.body.data.length, 2);
        assert.equal(first.body.meta.limit, 2);
        assert.ok(first.body.meta.nextCursor);
        for (const item of first.body.data) assertShape(`list${Singular}s`, item);
        const all = await listAll<T>(`${path}?limit=2`);
        assert.equal(new Set(all.map((t) => t.id)).size, all.length, 'no repeats');
        assert.deepEqual(
          all.map((t) => t.id),
          [...all.map((t) => t.id)].sort(),
          'oldest first',
        );
        assert.deepEqual(
          all.filter((t) => created.some((c) => c.id === t.id)).map((t) => t.id),
          created.map((c) => c.id),
        );
        await checks?.(created, first.body);
        assertProblem(await call('GET', `${path}?cursor=${first.body.meta.nextCursor}x`, cell.admin), 400, 'validation_failed');
        assert.equal((await call('GET', `${path}?limit=0`, cell.admin)).status, 400);
        assert.equal((await call('GET', `${path}?limit=201`, cell.admin)).status, 400);
        assert.equal((await call('GET', `${path}?unknown=1`, cell.admin)).status, 400);
      });
    },
  };
}
