import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { V1_SCOPES } from '@workcell/credentials';
import { issueCredential, inTransaction } from '@workcell/db';
import { useTestEnvironment } from '@workcell/testing';
import { useV1Cell } from './support/cell.js';
import { assertProblem, assertShape, errorOf, type ListBody } from './support/v1.js';

/**
 * v1 contacts, contact groups and call notes (issue 6), end to end against the running services: scopes,
 * tenancy, validation with JSON pointers, compare-and-set with concurrent writers, the contact-group
 * hierarchy (cycles refused, also under concurrent moves), archive/restore and list exclusion, cursor
 * pagination, outbox events written with the change, idempotent creates and the registry's response shapes.
 */

const env = useTestEnvironment();

type Address = { line1: string; line2: string | null; postalCode: string; city: string; region: string | null; country: string };
type Contact = {
  id: string;
  createdAt: string;
  updatedAt: string;
  archivedAt: string | null;
  kind: 'person' | 'organization';
  name: string;
  email: string | null;
  phone: string | null;
  organizationId: string | null;
  contactGroupIds: string[];
  address: Address | null;
  version: string;
};
type ContactGroup = { id: string; createdAt: string; updatedAt: string; archivedAt: string | null; name: string; parentId: string | null; ancestorIds: string[]; version: string };
type CallNote = { id: string; createdAt: string; updatedAt: string; archivedAt: string | null; contactId: string; authorId: string; content: string; occurredAt: string };

describe('v1 contacts, contact groups and call notes', () => {
  const cell = useV1Cell(env);
  const { call, listAll, mint, outbox } = cell;
  const other = { workspaceId: '', contactId: '', groupId: '', callNoteId: '' };
  let seq = 0;

  const createContact = async (body: Record<string, unknown> = {}) => {
    const reply = await call<{ data: Contact }>('POST', '/v1/contacts', cell.admin, { kind: 'person', name: `Contact ${++seq}`, ...body });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    return reply.body.data;
  };
  const createGroup = async (body: Record<string, unknown> = {}) => {
    const reply = await call<{ data: ContactGroup }>('POST', '/v1/contact-groups', cell.admin, { name: `Group ${++seq}`, ...body });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    return reply.body.data;
  };
  const createNote = async (body: Record<string, unknown>) => {
    const reply = await call<{ data: CallNote }>('POST', '/v1/call-notes', cell.admin, { content: `note ${++seq}`, ...body });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    return reply.body.data;
  };
  const getGroup = async (id: string) => (await call<{ data: ContactGroup }>('GET', `/v1/contact-groups/${id}`, cell.admin)).body.data;
  const getContact = async (id: string) => (await call<{ data: Contact }>('GET', `/v1/contacts/${id}`, cell.admin)).body.data;

  beforeAll(async () => {
    other.workspaceId = await cell.otherWorkspace();
    other.contactId = (await cell.database.prisma.contact.create({ data: { workspaceId: other.workspaceId, displayName: 'Foreign Co', kind: 'organization' } })).id;
    other.groupId = (await cell.database.prisma.contactGroup.create({ data: { workspaceId: other.workspaceId, name: 'Foreign group' } })).id;
    other.callNoteId = (await cell.database.prisma.callNote.create({ data: { workspaceId: other.workspaceId, contactId: other.contactId, content: 'foreign' } })).id;
  });

  describe('scopes', () => {
    const id = randomUUID();
    const operations: [string, string, string][] = [
      ['GET', '/v1/contacts', 'contacts:read'],
      ['POST', '/v1/contacts', 'contacts:write'],
      ['GET', `/v1/contacts/${id}`, 'contacts:read'],
      ['PATCH', `/v1/contacts/${id}`, 'contacts:write'],
      ['DELETE', `/v1/contacts/${id}`, 'contacts:write'],
      ['POST', `/v1/contacts/${id}/restore`, 'contacts:write'],
      ['GET', '/v1/contact-groups', 'contact-groups:read'],
      ['POST', '/v1/contact-groups', 'contact-groups:write'],
      ['GET', `/v1/contact-groups/${id}`, 'contact-groups:read'],
      ['PATCH', `/v1/contact-groups/${id}`, 'contact-groups:write'],
      ['DELETE', `/v1/contact-groups/${id}`, 'contact-groups:write'],
      ['POST', `/v1/contact-groups/${id}/restore`, 'contact-groups:write'],
      ['GET', '/v1/call-notes', 'call-notes:read'],
      ['POST', '/v1/call-notes', 'call-notes:write'],
      ['GET', `/v1/call-notes/${id}`, 'call-notes:read'],
      ['PATCH', `/v1/call-notes/${id}`, 'call-notes:write'],
      ['DELETE', `/v1/call-notes/${id}`, 'call-notes:write'],
      ['POST', `/v1/call-notes/${id}/restore`, 'call-notes:write'],
    ];

    it('every operation answers 403 insufficient_scope naming its scope to a credential without it', async () => {
      const token = await mint(V1_SCOPES.filter((s) => !/^(contacts|contact-groups|call-notes):/.test(s)));
      for (const [method, path, scope] of operations) {
        const reply = await call(method, path, token, method === 'GET' || method === 'DELETE' || path.endsWith('/restore') ? undefined : {});
        assert.equal(reply.status, 403, `${method} ${path}`);
        assert.equal(errorOf(reply).code, 'insufficient_scope');
        assert.match(errorOf(reply).detail, new RegExp(scope), `${method} ${path} names ${scope}`);
      }
    });

    it('a read scope reads but does not write', async () => {
      const reader = await mint(['contacts:read', 'contact-groups:read', 'call-notes:read']);
      const contact = await createContact();
      assert.equal((await call('GET', `/v1/contacts/${contact.id}`, reader)).status, 200);
      assert.equal((await call('GET', '/v1/contact-groups', reader)).status, 200);
      assert.equal((await call('GET', '/v1/call-notes', reader)).status, 200);
      assertProblem(await call('PATCH', `/v1/contacts/${contact.id}`, reader, { expectedVersion: contact.version, name: 'x' }), 403, 'insufficient_scope');
      assertProblem(await call('POST', '/v1/contact-groups', reader, { name: 'x' }), 403, 'insufficient_scope');
      assertProblem(await call('POST', '/v1/call-notes', reader, { contactId: contact.id, content: 'x' }), 403, 'insufficient_scope');
      assert.equal((await getContact(contact.id)).version, contact.version);
    });
  });

  describe('tenancy', () => {
    it('another workspace’s contacts, groups and call notes answer exactly like missing ones (404)', async () => {
      const cases: [string, string, unknown][] = [];
      for (const [base, foreign] of [
        ['/v1/contacts', other.contactId],
        ['/v1/contact-groups', other.groupId],
        ['/v1/call-notes', other.callNoteId],
      ] as const) {
        const patch = base === '/v1/call-notes' ? { content: 'mine now' } : { expectedVersion: '1', name: 'mine now' };
        for (const id of [foreign, randomUUID()]) {
          cases.push(['GET', `${base}/${id}`, undefined], ['PATCH', `${base}/${id}`, patch], ['DELETE', `${base}/${id}`, undefined], ['POST', `${base}/${id}/restore`, undefined]);
        }
        cases.push(['GET', `${base}/not-a-uuid`, undefined]);
      }
      const bodies = new Map<string, string>();
      for (const [method, path, body] of cases) {
        const reply = await call(method, path, cell.admin, body);
        assertProblem(reply, 404, 'not_found');
        const key = `${method} ${path.replace(/[0-9a-f-]{36}|not-a-uuid/, ':id')}`;
        const detail = errorOf(reply).detail;
        if (bodies.has(key)) assert.equal(detail, bodies.get(key), `${key}: foreign and missing look alike`);
        bodies.set(key, detail);
      }
      const foreign = await cell.database.prisma.contact.findFirstOrThrow({ where: { workspaceId: other.workspaceId, id: other.contactId } });
      assert.equal(foreign.displayName, 'Foreign Co');
      assert.equal(foreign.archivedAt, null);
      assert.equal((await cell.database.prisma.contactGroup.findFirstOrThrow({ where: { workspaceId: other.workspaceId, id: other.groupId } })).name, 'Foreign group');
      assert.equal((await cell.database.prisma.callNote.findFirstOrThrow({ where: { workspaceId: other.workspaceId, id: other.callNoteId } })).content, 'foreign');
    });

    it('references to another workspace in bodies are 400 with a JSON pointer, and nothing is written', async () => {
      const before = await cell.database.prisma.contact.count({ where: { workspaceId: cell.workspaceId } });
      assertProblem(await call('POST', '/v1/contacts', cell.admin, { kind: 'person', name: 'X', contactGroupIds: [other.groupId] }), 400, 'validation_failed', '/contactGroupIds/0');
      assertProblem(await call('POST', '/v1/contacts', cell.admin, { kind: 'person', name: 'X', organizationId: other.contactId }), 400, 'validation_failed', '/organizationId');
      assert.equal(await cell.database.prisma.contact.count({ where: { workspaceId: cell.workspaceId } }), before);
      const groups = await cell.database.prisma.contactGroup.count({ where: { workspaceId: cell.workspaceId } });
      assertProblem(await call('POST', '/v1/contact-groups', cell.admin, { name: 'X', parentId: other.groupId }), 400, 'validation_failed', '/parentId');
      assert.equal(await cell.database.prisma.contactGroup.count({ where: { workspaceId: cell.workspaceId } }), groups);
      const notes = await cell.database.prisma.callNote.count({ where: { workspaceId: cell.workspaceId } });
      assertProblem(await call('POST', '/v1/call-notes', cell.admin, { contactId: other.contactId, content: 'x' }), 400, 'validation_failed', '/contactId');
      assert.equal(await cell.database.prisma.callNote.count({ where: { workspaceId: cell.workspaceId } }), notes);

      const contact = await createContact();
      assertProblem(
        await call('PATCH', `/v1/contacts/${contact.id}`, cell.admin, { expectedVersion: contact.version, contactGroupIds: [other.groupId] }),
        400,
        'validation_failed',
        '/contactGroupIds/0',
      );
      const group = await createGroup();
      assertProblem(await call('PATCH', `/v1/contact-groups/${group.id}`, cell.admin, { expectedVersion: group.version, parentId: other.groupId }), 400, 'validation_failed', '/parentId');
      assert.equal((await getContact(contact.id)).version, contact.version);
      assert.equal((await getGroup(group.id)).version, group.version);
    });

    it('lists never show another workspace’s rows, even filtered by their ids', async () => {
      assert.equal((await call<ListBody<Contact>>('GET', `/v1/contacts?contactGroupId=${other.groupId}`, cell.admin)).body.data.length, 0);
      assert.equal((await call<ListBody<ContactGroup>>('GET', `/v1/contact-groups?parentId=${other.groupId}`, cell.admin)).body.data.length, 0);
      assert.equal((await call<ListBody<CallNote>>('GET', `/v1/call-notes?contactId=${other.contactId}`, cell.admin)).body.data.length, 0);
      const all = await listAll<{ id: string }>('/v1/contacts?limit=200');
      assert.ok(!all.some((c) => c.id === other.contactId));
    });
  });

  describe('contacts', () => {
    it('creates with 201, Location, ETag and the registry’s shape, and writes contact.created with it', async () => {
      const group = await createGroup();
      const org = await createContact({ kind: 'organization', name: 'Acme Ltd' });
      const reply = await call<{ data: Contact }>('POST', '/v1/contacts', cell.admin, {
        kind: 'person',
        name: '  Ada Lovelace  ',
        email: 'ada@example.com',
        phone: '+44 20 7946 0000',
        organizationId: org.id,
        contactGroupIds: [group.id],
        address: { line1: '1 Analytical Way', postalCode: 'N1 1AA', city: 'London', country: 'GB' },
      });
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
      const c = reply.body.data;
      assertShape('createContact', c);
      assert.equal(reply.headers.get('location'), `/v1/contacts/${c.id}`);
      assert.equal(reply.headers.get('etag'), '"1"');
      assert.deepEqual(
        {
          kind: c.kind,
          name: c.name,
          email: c.email,
          phone: c.phone,
          organizationId: c.organizationId,
          contactGroupIds: c.contactGroupIds,
          address: c.address,
          version: c.version,
          archivedAt: c.archivedAt,
        },
        {
          kind: 'person',
          name: 'Ada Lovelace',
          email: 'ada@example.com',
          phone: '+44 20 7946 0000',
          organizationId: org.id,
          contactGroupIds: [group.id],
          address: { line1: '1 Analytical Way', line2: null, postalCode: 'N1 1AA', city: 'London', region: null, country: 'GB' },
          version: '1',
          archivedAt: null,
        },
      );
      const events = await outbox(c.id);
      assert.deepEqual(
        events.map((e) => [e.eventType, e.aggregateType]),
        [['contact.created', 'contact']],
      );
      const got = await call<{ data: Contact }>('GET', `/v1/contacts/${c.id}`, cell.admin);
      assert.equal(got.status, 200);
      assert.equal(got.headers.get('etag'), '"1"');
      assertShape('getContact', got.body.data);
      assert.deepEqual(got.body.data, c);
    });

    it('refuses invalid bodies with 400 and a pointer, unknown attributes included, and writes nothing', async () => {
      const before = await cell.database.prisma.contact.count({ where: { workspaceId: cell.workspaceId } });
      const person = await createContact();
      const cases: [Record<string, unknown>, string][] = [
        [{ kind: 'person' }, '/name'],
        [{ name: 'No kind' }, '/kind'],
        [{ kind: 'robot', name: 'X' }, '/kind'],
        [{ kind: 'person', name: '   ' }, '/name'],
        [{ kind: 'person', name: 'X', email: 'not-an-email' }, '/email'],
        [{ kind: 'person', name: 'X', nickname: 'unknown attribute' }, ''],
        [{ kind: 'person', name: 'X', address: { line1: 'a', postalCode: '1', city: 'c', country: 'gb' } }, '/address/country'],
        [{ kind: 'person', name: 'X', contactGroupIds: ['not-a-uuid'] }, '/contactGroupIds/0'],
        [{ kind: 'person', name: 'X', contactGroupIds: [randomUUID()] }, '/contactGroupIds/0'],
        [{ kind: 'person', name: 'X', organizationId: person.id }, '/organizationId'],
        [{ kind: 'organization', name: 'X', organizationId: person.id }, '/organizationId'],
      ];
      for (const [body, pointer] of cases) {
        const reply = await call('POST', '/v1/contacts', cell.admin, body);
        assert.equal(reply.status, 400, `${JSON.stringify(body)} -> ${reply.status} ${JSON.stringify(reply.body)}`);
        if (pointer !== '') assertProblem(reply, 400, errorOf(reply).code, pointer);
      }
      assert.equal(await cell.database.prisma.contact.count({ where: { workspaceId: cell.workspaceId } }), before + 1);
    });

    it('replays an idempotent create with the same key and creates once', async () => {
      const key = `contact-${randomUUID()}`;
      const body = { kind: 'person', name: 'Idempotent Ida' };
      const first = await call<{ data: Contact }>('POST', '/v1/contacts', cell.admin, body, { 'idempotency-key': key });
      const second = await call<{ data: Contact }>('POST', '/v1/contacts', cell.admin, body, { 'idempotency-key': key });
      assert.equal(first.status, 201);
      assert.equal(second.status, 201);
      assert.equal(second.headers.get('idempotency-replayed'), 'true');
      assert.equal(second.body.data.id, first.body.data.id);
      assert.equal(second.headers.get('location'), first.headers.get('location'));
      assert.equal(await cell.database.prisma.contact.count({ where: { workspaceId: cell.workspaceId, displayName: 'Idempotent Ida' } }), 1);
      assert.equal((await outbox(first.body.data.id, 'contact.created')).length, 1);
      assertProblem(await call('POST', '/v1/contacts', cell.admin, { ...body, name: 'Other' }, { 'idempotency-key': key }), 409, 'idempotency_key_reused');
    });

    it('updates by compare-and-set: the version moves on, groups are replaced as a set, contact.updated is written', async () => {
      const [g1, g2, g3] = [await createGroup(), await createGroup(), await createGroup()];
      const c = await createContact({ contactGroupIds: [g1.id, g2.id], email: 'old@example.com' });
      const reply = await call<{ data: Contact }>('PATCH', `/v1/contacts/${c.id}`, cell.admin, { expectedVersion: c.version, name: 'Renamed', email: null, contactGroupIds: [g3.id] });
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      assertShape('updateContact', reply.body.data);
      assert.equal(reply.headers.get('etag'), '"2"');
      assert.deepEqual(
        { name: reply.body.data.name, email: reply.body.data.email, contactGroupIds: reply.body.data.contactGroupIds, version: reply.body.data.version },
        { name: 'Renamed', email: null, contactGroupIds: [g3.id], version: '2' },
      );
      assert.deepEqual(
        (await outbox(c.id)).map((e) => e.eventType),
        ['contact.created', 'contact.updated'],
      );
      const filtered = await listAll<Contact>(`/v1/contacts?contactGroupId=${g3.id}`);
      assert.deepEqual(
        filtered.map((x) => x.id),
        [c.id],
      );
      assert.equal((await listAll<Contact>(`/v1/contacts?contactGroupId=${g1.id}`)).length, 0);
    });

    it('a stale expectedVersion is 409 version_conflict and changes nothing', async () => {
      const c = await createContact();
      assert.equal((await call('PATCH', `/v1/contacts/${c.id}`, cell.admin, { expectedVersion: c.version, name: 'first' })).status, 200);
      assertProblem(await call('PATCH', `/v1/contacts/${c.id}`, cell.admin, { expectedVersion: c.version, name: 'second' }), 409, 'version_conflict');
      assertProblem(await call('PATCH', `/v1/contacts/${c.id}`, cell.admin, { expectedVersion: 'garbage', name: 'third' }), 409, 'version_conflict');
      const now = await getContact(c.id);
      assert.equal(now.name, 'first');
      assert.equal(now.version, '2');
      assert.equal((await outbox(c.id, 'contact.updated')).length, 1);
    });

    it('of N concurrent updates with the same expectedVersion exactly one wins (two instances)', async () => {
      const c = await createContact();
      const replies = await Promise.all(
        Array.from({ length: 8 }, (_, i) => call('PATCH', `/v1/contacts/${c.id}`, cell.admin, { expectedVersion: c.version, name: `writer ${i}` }, {}, i % 2 ? cell.v1b : cell.v1)),
      );
      const statuses = replies.map((r) => r.status);
      assert.equal(statuses.filter((s) => s === 200).length, 1, JSON.stringify(statuses));
      assert.equal(statuses.filter((s) => s === 409).length, 7, JSON.stringify(statuses));
      for (const r of replies.filter((x) => x.status === 409)) assert.equal(errorOf(r).code, 'version_conflict');
      const winner = replies.findIndex((r) => r.status === 200);
      const now = await getContact(c.id);
      assert.equal(now.name, `writer ${winner}`);
      assert.equal(now.version, '2');
      assert.equal((await outbox(c.id, 'contact.updated')).length, 1);
    });

    it('refuses invalid updates with 400 (pointer; unknown attribute; nothing but expectedVersion; missing expectedVersion)', async () => {
      const c = await createContact();
      assertProblem(await call('PATCH', `/v1/contacts/${c.id}`, cell.admin, { expectedVersion: c.version, nickname: 'x' }), 400, 'validation_failed');
      assertProblem(await call('PATCH', `/v1/contacts/${c.id}`, cell.admin, { expectedVersion: c.version }), 400, 'validation_failed');
      assertProblem(await call('PATCH', `/v1/contacts/${c.id}`, cell.admin, { name: 'x' }), 400, 'validation_failed', '/expectedVersion');
      assertProblem(await call('PATCH', `/v1/contacts/${c.id}`, cell.admin, { expectedVersion: c.version, email: 'nope' }), 400, 'validation_failed', '/email');
      assertProblem(await call('PATCH', `/v1/contacts/${c.id}`, cell.admin, { expectedVersion: c.version, organizationId: c.id }), 400, 'validation_failed', '/organizationId');
      assert.equal((await getContact(c.id)).version, c.version);
    });

    it('an organization with people cannot become a person (409), one without can', async () => {
      const org = await createContact({ kind: 'organization', name: 'Org with people' });
      await createContact({ organizationId: org.id });
      assertProblem(await call('PATCH', `/v1/contacts/${org.id}`, cell.admin, { expectedVersion: org.version, kind: 'person' }), 409, 'conflict');
      const lonely = await createContact({ kind: 'organization' });
      assert.equal((await call('PATCH', `/v1/contacts/${lonely.id}`, cell.admin, { expectedVersion: lonely.version, kind: 'person' })).status, 200);
    });

    it('archive never deletes: 204, left out of lists, still readable; restore brings it back; events for both', async () => {
      const c = await createContact({ name: 'Archivable Anna' });
      const archived = await call('DELETE', `/v1/contacts/${c.id}`, cell.admin);
      assert.equal(archived.status, 204);
      assert.equal(archived.body, undefined);
      assert.ok(!(await listAll<Contact>('/v1/contacts?q=Archivable')).some((x) => x.id === c.id));
      const got = await getContact(c.id);
      assert.ok(got.archivedAt !== null);
      assert.equal(await cell.database.prisma.contact.count({ where: { workspaceId: cell.workspaceId, id: c.id } }), 1);
      assert.equal((await call('DELETE', `/v1/contacts/${c.id}`, cell.admin)).status, 204, 'archiving again is fine');
      const restored = await call<{ data: Contact }>('POST', `/v1/contacts/${c.id}/restore`, cell.admin);
      assert.equal(restored.status, 200);
      assertShape('restoreContact', restored.body.data);
      assert.equal(restored.body.data.archivedAt, null);
      assert.equal(restored.headers.get('etag'), `"${restored.body.data.version}"`);
      assert.ok((await listAll<Contact>('/v1/contacts?q=Archivable')).some((x) => x.id === c.id));
      assert.deepEqual(
        (await outbox(c.id)).map((e) => e.eventType),
        ['contact.created', 'contact.archived', 'contact.restored'],
      );
    });

    it('pages with a cursor through a filtered list without gaps or repeats; bad cursors and limits are 400', async () => {
      const tag = `Pager${seq}`;
      const created: Contact[] = [];
      for (let i = 0; i < 5; i++) created.push(await createContact({ name: `${tag} ${i}`, kind: i % 2 ? 'organization' : 'person' }));
      const first = await call<ListBody<Contact>>('GET', `/v1/contacts?q=${tag}&limit=2`, cell.admin);
      assert.equal(first.status, 200);
      assert.equal(first.body.data.length, 2);
      assert.equal(first.body.meta.limit, 2);
      assert.ok(first.body.meta.nextCursor);
      for (const item of first.body.data) assertShape('listContacts', item);
      const all = await listAll<Contact>(`/v1/contacts?q=${tag.toLowerCase()}&limit=2`);
      assert.deepEqual(
        all.map((c) => c.id),
        created.map((c) => c.id),
      );
      const orgs = await listAll<Contact>(`/v1/contacts?q=${tag}&kind=organization&limit=1`);
      assert.deepEqual(
        orgs.map((c) => c.id),
        [created[1]!.id, created[3]!.id],
      );
      assertProblem(await call('GET', `/v1/contacts?q=${tag}&cursor=${first.body.meta.nextCursor}x`, cell.admin), 400, 'validation_failed');
      assertProblem(await call('GET', `/v1/contacts?kind=organization&cursor=${first.body.meta.nextCursor}`, cell.admin), 400, 'validation_failed');
      assert.equal((await call('GET', '/v1/contacts?limit=0', cell.admin)).status, 400);
      assert.equal((await call('GET', '/v1/contacts?limit=201', cell.admin)).status, 400);
      assert.equal((await call('GET', '/v1/contacts?kind=robot', cell.admin)).status, 400);
      assert.equal((await call('GET', '/v1/contacts?unknown=1', cell.admin)).status, 400);
    });
  });

  describe('contact groups', () => {
    it('creates roots and children with ancestorIds root first, Location and ETag; writes contact_group.created', async () => {
      const root = await createGroup({ name: 'Root' });
      const child = await createGroup({ name: 'Child', parentId: root.id });
      const reply = await call<{ data: ContactGroup }>('POST', '/v1/contact-groups', cell.admin, { name: 'Grandchild', parentId: child.id });
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
      const grandchild = reply.body.data;
      assertShape('createContactGroup', grandchild);
      assert.equal(reply.headers.get('location'), `/v1/contact-groups/${grandchild.id}`);
      assert.equal(reply.headers.get('etag'), '"1"');
      assert.deepEqual(root.ancestorIds, []);
      assert.equal(root.parentId, null);
      assert.deepEqual(grandchild.ancestorIds, [root.id, child.id]);
      assert.equal(grandchild.parentId, child.id);
      const got = await call<{ data: ContactGroup }>('GET', `/v1/contact-groups/${grandchild.id}`, cell.admin);
      assertShape('getContactGroup', got.body.data);
      assert.equal(got.headers.get('etag'), '"1"');
      assert.deepEqual(
        (await outbox(grandchild.id)).map((e) => e.eventType),
        ['contact_group.created'],
      );
      const children = await listAll<ContactGroup>(`/v1/contact-groups?parentId=${root.id}`);
      assert.deepEqual(
        children.map((g) => g.id),
        [child.id],
      );
    });

    it('refuses invalid bodies with 400 and a pointer', async () => {
      const before = await cell.database.prisma.contactGroup.count({ where: { workspaceId: cell.workspaceId } });
      assertProblem(await call('POST', '/v1/contact-groups', cell.admin, {}), 400, 'validation_failed', '/name');
      assertProblem(await call('POST', '/v1/contact-groups', cell.admin, { name: 'x', color: 'red' }), 400, 'validation_failed');
      assertProblem(await call('POST', '/v1/contact-groups', cell.admin, { name: 'x', parentId: randomUUID() }), 400, 'validation_failed', '/parentId');
      assertProblem(await call('POST', '/v1/contact-groups', cell.admin, { name: 'x', parentId: 'nope' }), 400, 'validation_failed', '/parentId');
      assert.equal(await cell.database.prisma.contactGroup.count({ where: { workspaceId: cell.workspaceId } }), before);
      const g = await createGroup();
      assertProblem(await call('PATCH', `/v1/contact-groups/${g.id}`, cell.admin, { expectedVersion: g.version }), 400, 'validation_failed');
      assertProblem(await call('PATCH', `/v1/contact-groups/${g.id}`, cell.admin, { expectedVersion: g.version, name: '' }), 400, 'validation_failed', '/name');
      assertProblem(await call('PATCH', `/v1/contact-groups/${g.id}`, cell.admin, { name: 'x' }), 400, 'validation_failed', '/expectedVersion');
    });

    it('replays an idempotent create with the same key and creates once', async () => {
      const key = `group-${randomUUID()}`;
      const first = await call<{ data: ContactGroup }>('POST', '/v1/contact-groups', cell.admin, { name: 'Idempotent group' }, { 'idempotency-key': key });
      const second = await call<{ data: ContactGroup }>('POST', '/v1/contact-groups', cell.admin, { name: 'Idempotent group' }, { 'idempotency-key': key });
      assert.equal(first.status, 201);
      assert.equal(second.status, 201);
      assert.equal(second.headers.get('idempotency-replayed'), 'true');
      assert.equal(second.body.data.id, first.body.data.id);
      assert.equal(await cell.database.prisma.contactGroup.count({ where: { workspaceId: cell.workspaceId, name: 'Idempotent group' } }), 1);
    });

    it('moves a group: descendants follow, contact_group.moved is written; renames write contact_group.updated', async () => {
      const [a, b] = [await createGroup(), await createGroup()];
      const child = await createGroup({ parentId: b.id });
      const moved = await call<{ data: ContactGroup }>('PATCH', `/v1/contact-groups/${b.id}`, cell.admin, { expectedVersion: b.version, parentId: a.id });
      assert.equal(moved.status, 200, JSON.stringify(moved.body));
      assertShape('updateContactGroup', moved.body.data);
      assert.equal(moved.body.data.parentId, a.id);
      assert.equal(moved.headers.get('etag'), '"2"');
      assert.deepEqual((await getGroup(child.id)).ancestorIds, [a.id, b.id]);
      const renamed = await call<{ data: ContactGroup }>('PATCH', `/v1/contact-groups/${b.id}`, cell.admin, { expectedVersion: '2', name: 'Renamed' });
      assert.equal(renamed.body.data.name, 'Renamed');
      const toRoot = await call<{ data: ContactGroup }>('PATCH', `/v1/contact-groups/${b.id}`, cell.admin, { expectedVersion: '3', parentId: null });
      assert.equal(toRoot.body.data.parentId, null);
      assert.deepEqual(toRoot.body.data.ancestorIds, []);
      assert.deepEqual(
        (await outbox(b.id)).map((e) => e.eventType),
        ['contact_group.created', 'contact_group.moved', 'contact_group.updated', 'contact_group.moved'],
      );
    });

    it('moving a group under itself or one of its descendants is 409 hierarchy_cycle and changes nothing', async () => {
      const root = await createGroup();
      const child = await createGroup({ parentId: root.id });
      const grandchild = await createGroup({ parentId: child.id });
      for (const target of [root.id, child.id, grandchild.id]) {
        assertProblem(await call('PATCH', `/v1/contact-groups/${root.id}`, cell.admin, { expectedVersion: root.version, parentId: target, name: 'changed' }), 409, 'hierarchy_cycle', '/parentId');
      }
      assertProblem(await call('PATCH', `/v1/contact-groups/${child.id}`, cell.admin, { expectedVersion: child.version, parentId: grandchild.id }), 409, 'hierarchy_cycle');
      const [r, c, g] = [await getGroup(root.id), await getGroup(child.id), await getGroup(grandchild.id)];
      assert.deepEqual([r.parentId, r.version, r.name], [null, root.version, root.name]);
      assert.deepEqual([c.parentId, c.version], [root.id, child.version]);
      assert.deepEqual(g.ancestorIds, [root.id, child.id]);
      assert.equal((await outbox(root.id)).length, 1);
      assert.equal((await outbox(child.id)).length, 1);
    });

    it('two concurrent moves that would together form a cycle: at most one succeeds, the hierarchy stays a tree', async () => {
      for (let round = 0; round < 6; round++) {
        const [a, b] = [await createGroup(), await createGroup()];
        const replies = await Promise.all([
          call('PATCH', `/v1/contact-groups/${a.id}`, cell.admin, { expectedVersion: a.version, parentId: b.id }, {}, cell.v1),
          call('PATCH', `/v1/contact-groups/${b.id}`, cell.admin, { expectedVersion: b.version, parentId: a.id }, {}, cell.v1b),
        ]);
        const statuses = replies.map((r) => r.status).sort();
        assert.deepEqual(statuses, [200, 409], JSON.stringify(replies.map((r) => r.body)));
        assert.equal(errorOf(replies.find((r) => r.status === 409)!).code, 'hierarchy_cycle');
        const [ga, gb] = [await getGroup(a.id), await getGroup(b.id)];
        assert.ok((ga.parentId === b.id) !== (gb.parentId === a.id), `exactly one moved: ${JSON.stringify([ga, gb])}`);
        assert.ok(!ga.ancestorIds.includes(a.id) && !gb.ancestorIds.includes(b.id));
        assert.equal((await outbox(a.id, 'contact_group.moved')).length + (await outbox(b.id, 'contact_group.moved')).length, 1);
      }
    });

    it('a longer concurrent cycle (a→b, b→c, c→a at once) cannot close either', async () => {
      for (let round = 0; round < 4; round++) {
        const gs = [await createGroup(), await createGroup(), await createGroup()];
        const replies = await Promise.all(
          gs.map((g, i) => call('PATCH', `/v1/contact-groups/${g.id}`, cell.admin, { expectedVersion: g.version, parentId: gs[(i + 1) % 3]!.id }, {}, i % 2 ? cell.v1b : cell.v1)),
        );
        const ok = replies.filter((r) => r.status === 200).length;
        assert.equal(ok, 2, JSON.stringify(replies.map((r) => r.status)));
        for (const g of gs) {
          const now = await getGroup(g.id);
          assert.ok(!now.ancestorIds.includes(g.id), 'no group is its own ancestor');
        }
      }
    });

    it('compare-and-set: stale is 409 version_conflict; of N concurrent renames exactly one wins', async () => {
      const g = await createGroup();
      const replies = await Promise.all(
        Array.from({ length: 8 }, (_, i) => call('PATCH', `/v1/contact-groups/${g.id}`, cell.admin, { expectedVersion: g.version, name: `writer ${i}` }, {}, i % 2 ? cell.v1b : cell.v1)),
      );
      const statuses = replies.map((r) => r.status);
      assert.equal(statuses.filter((s) => s === 200).length, 1, JSON.stringify(statuses));
      for (const r of replies.filter((x) => x.status !== 200)) assertProblem(r, 409, 'version_conflict');
      const now = await getGroup(g.id);
      assert.equal(now.name, `writer ${statuses.indexOf(200)}`);
      assert.equal(now.version, '2');
      assertProblem(await call('PATCH', `/v1/contact-groups/${g.id}`, cell.admin, { expectedVersion: g.version, name: 'late' }), 409, 'version_conflict');
      assert.equal((await outbox(g.id, 'contact_group.updated')).length, 1);
    });

    it('archive/restore: 204, left out of lists, still readable, restored; events; pagination of the list', async () => {
      const parent = await createGroup();
      const kids: ContactGroup[] = [];
      for (let i = 0; i < 4; i++) kids.push(await createGroup({ parentId: parent.id }));
      const path = `/v1/contact-groups?parentId=${parent.id}&limit=3`;
      const first = await call<ListBody<ContactGroup>>('GET', path, cell.admin);
      assert.equal(first.body.data.length, 3);
      assert.ok(first.body.links.next);
      for (const item of first.body.data) assertShape('listContactGroups', item);
      assert.deepEqual(
        (await listAll<ContactGroup>(path)).map((g) => g.id),
        kids.map((g) => g.id),
      );
      assert.equal((await call('DELETE', `/v1/contact-groups/${kids[1]!.id}`, cell.admin)).status, 204);
      assert.deepEqual(
        (await listAll<ContactGroup>(path)).map((g) => g.id),
        [kids[0]!.id, kids[2]!.id, kids[3]!.id],
      );
      assert.ok((await getGroup(kids[1]!.id)).archivedAt !== null);
      const restored = await call<{ data: ContactGroup }>('POST', `/v1/contact-groups/${kids[1]!.id}/restore`, cell.admin);
      assert.equal(restored.status, 200);
      assertShape('restoreContactGroup', restored.body.data);
      assert.equal(restored.body.data.archivedAt, null);
      assert.deepEqual(
        (await listAll<ContactGroup>(path)).map((g) => g.id),
        kids.map((g) => g.id),
      );
      assert.deepEqual(
        (await outbox(kids[1]!.id)).map((e) => e.eventType),
        ['contact_group.created', 'contact_group.archived', 'contact_group.restored'],
      );
    });

    it('an archived group cannot be a new parent or a contact’s group (400)', async () => {
      const g = await createGroup();
      assert.equal((await call('DELETE', `/v1/contact-groups/${g.id}`, cell.admin)).status, 204);
      assertProblem(await call('POST', '/v1/contact-groups', cell.admin, { name: 'x', parentId: g.id }), 400, 'validation_failed', '/parentId');
      assertProblem(await call('POST', '/v1/contacts', cell.admin, { kind: 'person', name: 'x', contactGroupIds: [g.id] }), 400, 'validation_failed', '/contactGroupIds/0');
    });
  });

  describe('call notes', () => {
    it('creates a plain-text note by the calling member with 201, Location and ETag; writes call_note.created', async () => {
      const contact = await createContact();
      const content = '<b>not bold</b> & *not emphasised*\nsecond line';
      const reply = await call<{ data: CallNote }>('POST', '/v1/call-notes', cell.admin, { contactId: contact.id, content, occurredAt: '2026-03-01T10:00:00+01:00' });
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
      const note = reply.body.data;
      assertShape('createCallNote', note);
      assert.equal(reply.headers.get('location'), `/v1/call-notes/${note.id}`);
      assert.equal(reply.headers.get('etag'), '"1"');
      assert.deepEqual(
        { contactId: note.contactId, authorId: note.authorId, content: note.content, occurredAt: note.occurredAt, archivedAt: note.archivedAt },
        { contactId: contact.id, authorId: cell.ownerMemberId, content, occurredAt: '2026-03-01T09:00:00.000Z', archivedAt: null },
      );
      const defaulted = await createNote({ contactId: contact.id });
      assert.ok(Math.abs(Date.parse(defaulted.occurredAt) - Date.now()) < 60_000);
      assert.deepEqual(
        (await outbox(note.id)).map((e) => e.eventType),
        ['call_note.created'],
      );
      const got = await call<{ data: CallNote }>('GET', `/v1/call-notes/${note.id}`, cell.admin);
      assertShape('getCallNote', got.body.data);
      assert.deepEqual(got.body.data, note);
    });

    it('a note written with a service-account credential names the service account as its author', async () => {
      const contact = await createContact();
      const account = await cell.database.prisma.serviceAccount.create({ data: { workspaceId: cell.workspaceId, name: `notes bot ${++seq}`, ownerMemberId: cell.ownerMemberId } });
      // Service accounts act within their resource grants: this one may write every call note.
      await cell.database.prisma.resourceGrant.create({ data: { workspaceId: cell.workspaceId, serviceAccountId: account.id, resourceType: 'call_note', resourceId: null, access: 'write' } });
      const { token } = await inTransaction(cell.database, (tx) =>
        issueCredential(tx, cell.config, { workspaceId: cell.workspaceId, kind: 'service_account', name: 'bot', scopes: ['call-notes:write', 'call-notes:read'], serviceAccountId: account.id }),
      );
      const reply = await call<{ data: CallNote }>('POST', '/v1/call-notes', token, { contactId: contact.id, content: 'from the bot' });
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
      assert.equal(reply.body.data.authorId, account.id);
      const row = await cell.database.prisma.callNote.findFirstOrThrow({ where: { workspaceId: cell.workspaceId, id: reply.body.data.id } });
      assert.deepEqual([row.authorMemberId, row.authorServiceAccountId], [null, account.id]);
    });

    it('refuses invalid bodies with 400 and a pointer, and writes nothing', async () => {
      const contact = await createContact();
      const before = await cell.database.prisma.callNote.count({ where: { workspaceId: cell.workspaceId } });
      const archived = await createContact();
      await call('DELETE', `/v1/contacts/${archived.id}`, cell.admin);
      const cases: [Record<string, unknown>, string][] = [
        [{ contactId: contact.id }, '/content'],
        [{ contactId: contact.id, content: '' }, '/content'],
        [{ content: 'x' }, '/contactId'],
        [{ contactId: randomUUID(), content: 'x' }, '/contactId'],
        [{ contactId: archived.id, content: 'x' }, '/contactId'],
        [{ contactId: contact.id, content: 'x', occurredAt: 'yesterday' }, '/occurredAt'],
        [{ contactId: contact.id, content: 'x', title: 'unknown' }, ''],
      ];
      for (const [body, pointer] of cases) {
        const reply = await call('POST', '/v1/call-notes', cell.admin, body);
        assert.equal(reply.status, 400, `${JSON.stringify(body)} -> ${reply.status}`);
        if (pointer !== '') assertProblem(reply, 400, errorOf(reply).code, pointer);
      }
      assert.equal(await cell.database.prisma.callNote.count({ where: { workspaceId: cell.workspaceId } }), before);
    });

    it('replays an idempotent create with the same key and creates once', async () => {
      const contact = await createContact();
      const key = `note-${randomUUID()}`;
      const body = { contactId: contact.id, content: 'idempotent note' };
      const first = await call<{ data: CallNote }>('POST', '/v1/call-notes', cell.admin, body, { 'idempotency-key': key });
      const second = await call<{ data: CallNote }>('POST', '/v1/call-notes', cell.admin, body, { 'idempotency-key': key });
      assert.equal(first.status, 201);
      assert.equal(second.status, 201);
      assert.equal(second.headers.get('idempotency-replayed'), 'true');
      assert.equal(second.body.data.id, first.body.data.id);
      assert.equal(await cell.database.prisma.callNote.count({ where: { workspaceId: cell.workspaceId, contactId: contact.id } }), 1);
    });

    it('updates without a precondition (last writer wins); contact and author are not updatable; writes call_note.updated', async () => {
      const contact = await createContact();
      const note = await createNote({ contactId: contact.id });
      const reply = await call<{ data: CallNote }>('PATCH', `/v1/call-notes/${note.id}`, cell.admin, { content: 'edited' });
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      assertShape('updateCallNote', reply.body.data);
      assert.equal(reply.body.data.content, 'edited');
      assert.equal(reply.headers.get('etag'), '"2"');
      assertProblem(await call('PATCH', `/v1/call-notes/${note.id}`, cell.admin, { contactId: contact.id }), 400, 'validation_failed');
      assertProblem(await call('PATCH', `/v1/call-notes/${note.id}`, cell.admin, { expectedVersion: '1', content: 'x' }), 400, 'validation_failed');
      assertProblem(await call('PATCH', `/v1/call-notes/${note.id}`, cell.admin, {}), 400, 'validation_failed');
      assertProblem(await call('PATCH', `/v1/call-notes/${note.id}`, cell.admin, { content: '' }), 400, 'validation_failed', '/content');
      const replies = await Promise.all(Array.from({ length: 4 }, (_, i) => call('PATCH', `/v1/call-notes/${note.id}`, cell.admin, { content: `w${i}` }, {}, i % 2 ? cell.v1b : cell.v1)));
      assert.deepEqual(
        replies.map((r) => r.status),
        [200, 200, 200, 200],
      );
      assert.equal((await outbox(note.id, 'call_note.updated')).length, 5);
    });

    it('archive/restore: 204, left out of lists (filtered by contact too), still readable, restored; events; pagination', async () => {
      const contact = await createContact();
      const notes: CallNote[] = [];
      for (let i = 0; i < 3; i++) notes.push(await createNote({ contactId: contact.id }));
      const path = `/v1/call-notes?contactId=${contact.id}&limit=2`;
      const first = await call<ListBody<CallNote>>('GET', path, cell.admin);
      assert.equal(first.body.data.length, 2);
      for (const item of first.body.data) assertShape('listCallNotes', item);
      assert.deepEqual(
        (await listAll<CallNote>(path)).map((n) => n.id),
        notes.map((n) => n.id),
      );
      assert.equal((await call('DELETE', `/v1/call-notes/${notes[0]!.id}`, cell.admin)).status, 204);
      assert.deepEqual(
        (await listAll<CallNote>(path)).map((n) => n.id),
        [notes[1]!.id, notes[2]!.id],
      );
      assert.ok(!(await listAll<CallNote>('/v1/call-notes?limit=200')).some((n) => n.id === notes[0]!.id));
      const archived = await call<{ data: CallNote }>('GET', `/v1/call-notes/${notes[0]!.id}`, cell.admin);
      assert.ok(archived.body.data.archivedAt !== null);
      assert.equal(await cell.database.prisma.callNote.count({ where: { workspaceId: cell.workspaceId, id: notes[0]!.id } }), 1);
      const restored = await call<{ data: CallNote }>('POST', `/v1/call-notes/${notes[0]!.id}/restore`, cell.admin);
      assert.equal(restored.status, 200);
      assertShape('restoreCallNote', restored.body.data);
      assert.equal(restored.body.data.archivedAt, null);
      assert.deepEqual(
        (await listAll<CallNote>(path)).map((n) => n.id),
        notes.map((n) => n.id),
      );
      assert.deepEqual(
        (await outbox(notes[0]!.id)).map((e) => e.eventType),
        ['call_note.created', 'call_note.archived', 'call_note.restored'],
      );
    });
  });
});
