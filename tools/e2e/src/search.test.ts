import assert from 'node:assert/strict';
import { V1_SCOPES } from '@workcell/credentials';
import type { Database } from '@workcell/db';
import { useTestEnvironment } from '@workcell/testing';
import { startV1Cell, type V1Cell } from './support/cell.js';
import { assertProblem, assertShape, callApi, errorOf, listAllPages, type ListBody } from './support/v1.js';

/**
 * v1 federated search end to end: the requested-domains scope rule (403 naming each missing read scope), the
 * default domains (those whose read scope is held), resource grants and the comments' target rule, archived rows
 * left out, tenancy, ranking and the keyset cursor, validation, and no finance field in any hit.
 */

const env = useTestEnvironment();

type Hit = { type: string; id: string; title: string; snippet: string | null; score: number; updatedAt: string };

describe('v1 search', () => {
  let cell: V1Cell;
  let database: Database;
  let workspaceId: string;
  let admin: string;
  let seq = 0;

  const call = <T = unknown>(method: string, path: string, token: string, body?: unknown) => callApi<T>(cell.v1, method, path, token, body);
  const created = async (path: string, body: Record<string, unknown>) => {
    const reply = await call<{ data: { id: string } }>('POST', path, admin, body);
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    return reply.body.data.id;
  };
  const search = async (query: string, token = admin) => {
    const reply = await call<ListBody<Hit>>('GET', `/v1/search?${query}`, token);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    return reply.body.data;
  };

  beforeAll(async () => {
    cell = await startV1Cell(env);
    ({ database, workspaceId } = cell);
    admin = await cell.mint(V1_SCOPES);
  });

  afterAll(() => cell?.close());

  it('finds projects, tasks and documents by words of their text, best first, in the registry shape', async () => {
    const project = await created('/v1/projects', { name: 'Zebracorn launch', description: 'zebracorn zebracorn plan' });
    const task = await created('/v1/tasks', { title: 'Draft the launch note', description: 'mentions zebracorn once' });
    const doc = await created('/v1/documents', { title: 'Unrelated', format: 'plain', content: 'nothing to see' });
    const hits = await search('q=zebracorn&types=projects,tasks,documents');
    assert.deepEqual(
      hits.map((h) => h.id),
      [project, task],
    );
    assert.ok(hits[0]!.score > hits[1]!.score);
    for (const h of hits) assertShape('searchResources', h);
    assert.equal(hits[0]!.type, 'projects');
    assert.equal(hits[0]!.title, 'Zebracorn launch');
    assert.equal(hits[1]!.snippet, 'mentions zebracorn once');
    assert.deepEqual(
      (await search('q=nothing%20to%20see&types=documents')).map((h) => h.id),
      [doc],
    );
    // websearch syntax: a quoted phrase and an excluded word; never a syntax error.
    assert.deepEqual(
      (await search('q=%22launch%20note%22&types=projects,tasks')).map((h) => h.id),
      [task],
    );
    assert.deepEqual(
      (await search('q=zebracorn%20-plan&types=projects,tasks')).map((h) => h.id),
      [task],
    );
    assert.deepEqual(await search(`q=${encodeURIComponent('"(&|!:*')}&types=projects`), []);
  });

  it('needs every requested domain’s read scope: 403 insufficient_scope naming the missing one; without types, only the held domains', async () => {
    await created('/v1/projects', { name: 'Quokkaplan' });
    await created('/v1/contacts', { kind: 'person', name: 'Quokkaplan Person' });
    const narrow = await cell.mint(['search:read', 'projects:read']);
    const refused = await call('GET', '/v1/search?q=quokkaplan&types=projects,contacts', narrow);
    assertProblem(refused, 403, 'insufficient_scope');
    assert.match(errorOf(refused).detail, /contacts:read/);
    assert.doesNotMatch(errorOf(refused).detail, /projects:read/);
    assert.deepEqual(
      (await search('q=quokkaplan', narrow)).map((h) => h.type),
      ['projects'],
    );
    assert.deepEqual((await search('q=quokkaplan')).map((h) => h.type).sort(), ['contacts', 'projects']);
    const noSearch = await cell.mint(['projects:read']);
    assertProblem(await call('GET', '/v1/search?q=quokkaplan&types=projects', noSearch), 403, 'insufficient_scope');
    // search:read alone and no types: no domain to search, an empty page.
    assert.deepEqual(await search('q=quokkaplan', await cell.mint(['search:read'])), []);
  });

  it('validates q and types with their parameter names', async () => {
    for (const [query, parameter] of [
      ['types=projects', 'q'],
      ['q=', 'q'],
      [`q=${'x'.repeat(201)}`, 'q'],
      ['q=x&types=Projects', 'types'],
      ['q=x&types=projects,,tasks', 'types'],
      ['q=x&types=projects,planets', 'types'],
      ['q=x&limit=0', 'limit'],
      ['q=x&cursor=forged.cursor', 'cursor'],
    ] as const) {
      const reply = await call('GET', `/v1/search?${query}`, admin);
      assertProblem(reply, 400, 'validation_failed');
      assert.equal(errorOf(reply).source?.parameter, parameter, `${query}: ${JSON.stringify(reply.body)}`);
    }
  });

  it('leaves archived rows and other workspaces out', async () => {
    const kept = await created('/v1/tags', { name: 'wombatword kept' });
    const archived = await created('/v1/tags', { name: 'wombatword archived' });
    assert.equal((await call('DELETE', `/v1/tags/${archived}`, admin)).status, 204);
    const other = await cell.otherWorkspace();
    await database.prisma.tag.create({ data: { workspaceId: other, name: 'wombatword foreign' } });
    assert.deepEqual(
      (await search('q=wombatword&types=tags')).map((h) => h.id),
      [kept],
    );
  });

  it('a service account finds only what its resource grants let it read; comments also need their target readable', async () => {
    const granted = await created('/v1/projects', { name: 'Platypusplan granted' });
    await created('/v1/projects', { name: 'Platypusplan hidden' });
    const onGranted = await created('/v1/comments', { targetType: 'projects', targetId: granted, body: 'platypusplan remark' });
    const contact = await created('/v1/contacts', { kind: 'person', name: 'Someone' });
    const onContact = await created('/v1/comments', { targetType: 'contacts', targetId: contact, body: 'platypusplan remark on a contact' });
    const { token } = await cell.serviceAccount(
      ['search:read', 'projects:read', 'comments:read'],
      [
        { resourceType: 'project', resourceId: granted, access: 'read' },
        { resourceType: 'comment', resourceId: null, access: 'read' },
      ],
    );
    assert.deepEqual(
      (await search('q=platypusplan&types=projects', token)).map((h) => h.id),
      [granted],
    );
    // The contact comment needs contacts:read; the comment on a hidden project needs that project's grant.
    assert.deepEqual(
      (await search('q=platypusplan&types=comments', token)).map((h) => h.id),
      [onGranted],
    );
    assert.deepEqual((await search('q=platypusplan&types=comments')).map((h) => h.id).sort(), [onGranted, onContact].sort());
    const ungranted = await cell.serviceAccount(['search:read', 'projects:read'], []);
    assert.deepEqual(await search('q=platypusplan&types=projects', ungranted.token), []);
  });

  it('product hits carry no finance field, with or without the finance overlay', async () => {
    const product = await created('/v1/products', { name: 'Narwhalware', description: 'narwhal kit', unit: 'piece' });
    for (const token of [admin, await cell.mint(['search:read', 'products:read'])]) {
      const hits = await search('q=narwhalware&types=products', token);
      assert.deepEqual(
        hits.map((h) => h.id),
        [product],
      );
      assert.deepEqual(Object.keys(hits[0]!).sort(), ['id', 'score', 'snippet', 'title', 'type', 'updatedAt']);
    }
  });

  it('budget statements exist only with the finance overlay, as in listProjectStatements', async () => {
    const projectId = await created('/v1/projects', { name: 'Statement holder' });
    const statement = (kind: 'expense' | 'budget') =>
      database.prisma.projectStatement.create({ data: { workspaceId, projectId, kind, occurredOn: new Date('2026-03-02'), amount: '10', currency: 'EUR', description: `dingoledger ${kind}` } });
    const expense = (await statement('expense')).id;
    const budget = (await statement('budget')).id;
    const plain = await cell.mint(['search:read', 'project-statements:read']);
    assert.deepEqual(
      (await search('q=dingoledger&types=project-statements', plain)).map((h) => h.id),
      [expense],
    );
    const finance = await cell.mint(['search:read', 'project-statements:read', 'project-statements:finance:read']);
    assert.deepEqual((await search('q=dingoledger&types=project-statements', finance)).map((h) => h.id).sort(), [expense, budget].sort());
  });

  it('pages through equal and unequal scores without a gap or a repeat; a cursor is bound to its query', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 7; i++) ids.add(await created('/v1/tasks', { title: `Ocelotquest ${++seq}`, ...(i % 2 === 0 ? { description: 'ocelotquest ocelotquest' } : {}) }));
    for (let i = 0; i < 3; i++) ids.add(await created('/v1/lists', { name: `Ocelotquest list ${++seq}`, kind: 'tasks' }));
    const all = await listAllPages<Hit>(cell.v1, '/v1/search?q=ocelotquest&types=tasks,lists&limit=3', admin);
    assert.equal(all.length, 10);
    assert.deepEqual(new Set(all.map((h) => h.id)), ids);
    for (let i = 1; i < all.length; i++) assert.ok(all[i - 1]!.score >= all[i]!.score);
    const first = await call<ListBody<Hit>>('GET', '/v1/search?q=ocelotquest&types=tasks,lists&limit=3', admin);
    const cursor = first.body.meta.nextCursor!;
    assertProblem(await call('GET', `/v1/search?q=other&types=tasks,lists&cursor=${encodeURIComponent(cursor)}`, admin), 400, 'validation_failed');
    assertProblem(await call('GET', `/v1/search?q=ocelotquest&types=tasks&cursor=${encodeURIComponent(cursor)}`, admin), 400, 'validation_failed');
  });

  it('matches a member’s e-mail address only for a caller who may read it (members:pii:read); the name for every users:read caller', async () => {
    const address = 'ibis.secret@hidden-domain.example';
    const user = await database.prisma.user.create({ data: { email: address, name: 'Ibisname Person' } });
    const member = (await database.prisma.workspaceMember.create({ data: { workspaceId, userId: user.id } })).id;
    const withoutPii = await cell.mint(['search:read', 'users:read']);
    const withPii = await cell.mint(['search:read', 'users:read', 'members:pii:read']);
    const found = async (q: string, token: string, types = '&types=users') => (await search(`q=${encodeURIComponent(q)}${types}`, token)).map((h) => h.id);
    assert.deepEqual(await found(address, withPii), [member]);
    // Without the overlay the address is neither returned elsewhere nor matched here (issue 24: no e-mail oracle).
    assert.deepEqual(await found(address, withoutPii), []);
    assert.deepEqual(await found(address, withoutPii, ''), [], 'nor among the default domains');
    assert.deepEqual(await found('hidden-domain.example', withoutPii), [], 'a fragment of it neither');
    // Excluding the address must not tell either: without the overlay it is not in the searched text at all.
    assert.deepEqual(await found(`ibisname -"${address}"`, withoutPii), [member]);
    assert.deepEqual(await found(`ibisname -"${address}"`, withPii), []);
    for (const token of [withoutPii, withPii]) assert.deepEqual(await found('ibisname', token), [member], 'the name is matched for both');
  });

  it('searches every domain of the registry', async () => {
    const word = 'capybaraword';
    const member = await database.prisma.user.create({ data: { email: `${word}@example.test`, name: 'Capybaraword Person' } });
    await database.prisma.workspaceMember.create({ data: { workspaceId, userId: member.id } });
    const hits = await search(`q=${word}`);
    assert.deepEqual(
      hits.map((h) => h.type),
      ['users'],
    );
    // An address is one word to the parser: it matches whole.
    assert.deepEqual(
      (await search(`q=${word}@example.test&types=users`)).map((h) => h.type),
      ['users'],
    );
    for (const type of [
      'projects',
      'tasks',
      'time-entries',
      'contacts',
      'call-notes',
      'contact-groups',
      'lists',
      'services',
      'tags',
      'project-templates',
      'products',
      'product-groups',
      'project-statements',
      'documents',
      'files',
      'comments',
      'users',
    ]) {
      assert.equal((await call('GET', `/v1/search?q=${word}&types=${type}`, admin)).status, 200, type);
    }
  });
});
