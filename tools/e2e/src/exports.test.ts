import assert from 'node:assert/strict';
import { V1_SCOPES } from '@workcell/credentials';
import { type Database, issueCredential, inTransaction } from '@workcell/db';
import { EXPORT_MAX_ROWS, EXPORT_MEDIA_TYPES } from '@workcell/registry';
import { fileStorage } from '@workcell/storage';
import { useTestEnvironment, waitFor } from '@workcell/testing';
import { QueueRuntime } from '@workcell/worker';
import { startV1Cell, type V1Cell } from './support/cell.js';
import { assertProblem, assertShape, callApi, errorOf, listAllPages, type ListBody } from './support/v1.js';

/**
 * v1 exports end to end: 202 with the export as its operation, the worker's job (CSV through csv-stringify, JSON
 * Lines), progress, the requested-domains scope rule, the creator's authorization applied (grants, finance overlays,
 * archived rows), the credential-owned download (409 before it succeeded, 410 once expired), the purge, the row
 * bound, validation with pointers, idempotency and tenancy.
 */

const env = useTestEnvironment();

type Export = {
  id: string;
  status: string;
  resourceTypes: string[];
  format: string;
  updatedSince: string | null;
  rowsDone: number;
  rowsTotal: number | null;
  failureReason: string | null;
  expiresAt: string | null;
  sizeBytes: number | null;
};

describe('v1 exports', () => {
  let cell: V1Cell;
  let database: Database;
  let workspaceId: string;
  let admin: string;
  let seq = 0;

  const call = <T = unknown>(method: string, path: string, token: string, body?: unknown, headers: Record<string, string> = {}) => callApi<T>(cell.v1, method, path, token, body, headers);
  const created = async (path: string, body: Record<string, unknown>) => {
    const reply = await call<{ data: { id: string } }>('POST', path, admin, body);
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    return reply.body.data.id;
  };
  const requestExport = async (body: Record<string, unknown>, token = admin) => {
    const reply = await call<{ data: { id: string; kind: string; status: string; resourceId: string } }>('POST', '/v1/exports', token, body);
    assert.equal(reply.status, 202, JSON.stringify(reply.body));
    return reply;
  };
  const getExport = async (id: string, token = admin) => {
    const reply = await call<{ data: Export }>('GET', `/v1/exports/${id}`, token);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    return reply.body.data;
  };
  const finished = (id: string, token = admin) =>
    waitFor(`export ${id} to finish`, async () => {
      const e = await getExport(id, token);
      return e.status === 'succeeded' || e.status === 'failed' ? e : null;
    });
  const exported = async (body: Record<string, unknown>, token = admin) => {
    const id = (await requestExport(body, token)).body.data.id;
    const e = await finished(id, token);
    assert.equal(e.status, 'succeeded', JSON.stringify(e));
    const download = await fetch(`${cell.v1.url}/v1/exports/${id}/download`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(download.status, 200);
    return { e, download, text: await download.text() };
  };
  const jsonl = (text: string) =>
    text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; data: Record<string, unknown> });
  const lastCredentialId = async () => (await database.prisma.credential.findFirstOrThrow({ where: { workspaceId }, orderBy: { id: 'desc' } })).id;

  beforeAll(async () => {
    cell = await startV1Cell(env);
    ({ database, workspaceId } = cell);
    admin = await cell.mint(V1_SCOPES);
  });

  afterAll(() => cell?.close());

  it('accepts with 202 and Location, runs in the worker and downloads JSON Lines of exactly what the lists show', async () => {
    await created('/v1/projects', { name: `Export project ${++seq}` });
    await created('/v1/tasks', { title: `Export task ${++seq}` });
    const reply = await requestExport({ resourceTypes: ['projects', 'tasks'], format: 'jsonl' });
    assert.equal(reply.headers.get('location'), `/v1/exports/${reply.body.data.id}`);
    assertShape('createExport', reply.body.data);
    assert.deepEqual([reply.body.data.kind, reply.body.data.status, reply.body.data.resourceId], ['export', 'pending', reply.body.data.id]);
    const e = await finished(reply.body.data.id);
    assertShape('getExport', e);
    assert.equal(e.status, 'succeeded');
    assert.equal(e.rowsDone, e.rowsTotal);
    assert.ok(e.expiresAt && e.sizeBytes! > 0);
    const download = await fetch(`${cell.v1.url}/v1/exports/${e.id}/download`, { headers: { authorization: `Bearer ${admin}` } });
    assert.equal(download.status, 200);
    // The media type the OpenAPI document declares (the registry's), in UTF-8.
    assert.equal(download.headers.get('content-type'), `${EXPORT_MEDIA_TYPES.jsonl}; charset=utf-8`);
    assert.match(download.headers.get('content-disposition')!, new RegExp(`export-${e.id}\\.jsonl`));
    assert.equal(download.headers.get('cache-control'), 'private, no-store');
    const lines = jsonl(await download.text());
    const projects = await listAllPages<{ id: string }>(cell.v1, '/v1/projects', admin);
    const tasks = await listAllPages<{ id: string }>(cell.v1, '/v1/tasks', admin);
    assert.deepEqual(
      lines.filter((l) => l.type === 'projects').map((l) => l.data),
      projects,
    );
    assert.deepEqual(
      lines.filter((l) => l.type === 'tasks').map((l) => l.data),
      tasks,
    );
    assert.equal(lines.length, e.rowsTotal);
  });

  it('writes CSV through csv-stringify: a type column, the union of the fields, quoting and nested values as JSON', async () => {
    const name = `Tag, "quoted"\nline ${++seq}`;
    const tagId = await created('/v1/tags', { name });
    const listId = await created('/v1/lists', { name: `List ${++seq}`, kind: 'tasks' });
    const { text, download } = await exported({ resourceTypes: ['tags', 'lists'], format: 'csv' });
    assert.equal(download.headers.get('content-type'), `${EXPORT_MEDIA_TYPES.csv}; charset=utf-8`);
    const [header] = text.split('\r\n');
    assert.ok(header!.startsWith('type,id,'), header);
    assert.ok(header!.includes('kind'), 'the lists’ fields are columns too');
    assert.ok(text.includes(`tags,${tagId},`));
    assert.ok(text.includes(`"Tag, ""quoted""\nline ${seq - 1}"`), 'RFC 4180 quoting');
    assert.ok(text.includes(`lists,${listId},`));
  });

  it('needs exports:write and every requested type’s read scope (403 naming the missing one, nothing written); exports:read to read', async () => {
    const before = await database.prisma.export.count();
    const narrow = await cell.mint(['exports:write', 'exports:read', 'projects:read']);
    const refused = await call('POST', '/v1/exports', narrow, { resourceTypes: ['projects', 'contacts'], format: 'csv' });
    assertProblem(refused, 403, 'insufficient_scope');
    assert.match(errorOf(refused).detail, /contacts:read/);
    assert.doesNotMatch(errorOf(refused).detail, /projects:read/);
    assertProblem(await call('POST', '/v1/exports', await cell.mint(['exports:read', 'projects:read']), { resourceTypes: ['projects'], format: 'csv' }), 403, 'insufficient_scope');
    assertProblem(await call('GET', '/v1/exports', await cell.mint(['exports:write'])), 403, 'insufficient_scope');
    assert.equal(await database.prisma.export.count(), before);
  });

  it('validates the body with pointers; comments are not exportable', async () => {
    for (const [body, pointer] of [
      [{ resourceTypes: [], format: 'csv' }, '/resourceTypes'],
      [{ resourceTypes: ['comments'], format: 'csv' }, '/resourceTypes/0'],
      [{ resourceTypes: ['projects', 'planets'], format: 'csv' }, '/resourceTypes/1'],
      [{ resourceTypes: ['projects'], format: 'xml' }, '/format'],
      [{ resourceTypes: ['projects'], format: 'csv', updatedSince: 'yesterday' }, '/updatedSince'],
      [{ resourceTypes: ['projects'] }, '/format'],
    ] as const) {
      assertProblem(await call('POST', '/v1/exports', admin, body), 400, 'validation_failed', pointer);
    }
  });

  it('applies the creator’s resource grants and finance overlays; archived rows are left out', async () => {
    const granted = await created('/v1/projects', { name: `Granted ${++seq}` });
    const hidden = await created('/v1/projects', { name: `Hidden ${++seq}` });
    const archived = await created('/v1/projects', { name: `Archived ${++seq}` });
    await database.prisma.project.update({ where: { workspaceId_id: { workspaceId, id: archived } }, data: { archivedAt: new Date() } });
    const { token } = await cell.serviceAccount(['exports:read', 'exports:write', 'projects:read'], [{ resourceType: 'project', resourceId: granted, access: 'read' }]);
    const ids = jsonl((await exported({ resourceTypes: ['projects'], format: 'jsonl' }, token)).text).map((l) => l.data['id']);
    assert.deepEqual(ids, [granted]);
    const all = jsonl((await exported({ resourceTypes: ['projects'], format: 'jsonl' })).text).map((l) => l.data['id']);
    assert.ok(all.includes(granted) && all.includes(hidden) && !all.includes(archived));

    const productId = await created('/v1/products', { name: `Priced ${++seq}`, unit: 'piece', purchasePrice: { amount: '4.00', currency: 'EUR' } });
    const plain = await cell.mint(['exports:read', 'exports:write', 'products:read']);
    const row = jsonl((await exported({ resourceTypes: ['products'], format: 'jsonl' }, plain)).text).find((l) => l.data['id'] === productId)!;
    assert.ok(!('purchasePrice' in row.data), JSON.stringify(row.data));
    const finance = await cell.mint(['exports:read', 'exports:write', 'products:read', 'products:finance:read']);
    const withPrice = jsonl((await exported({ resourceTypes: ['products'], format: 'jsonl' }, finance)).text).find((l) => l.data['id'] === productId)!;
    assert.ok('purchasePrice' in withPrice.data, JSON.stringify(withPrice.data));
  });

  it('updatedSince leaves out what was not updated since', async () => {
    const old = await created('/v1/tags', { name: `Old ${++seq}` });
    await database.prisma.tag.update({ where: { workspaceId_id: { workspaceId, id: old } }, data: { updatedAt: new Date('2020-01-01T00:00:00Z') } });
    const fresh = await created('/v1/tags', { name: `Fresh ${++seq}` });
    const ids = jsonl((await exported({ resourceTypes: ['tags'], format: 'jsonl', updatedSince: '2025-01-01T00:00:00Z' })).text).map((l) => l.data['id']);
    assert.ok(ids.includes(fresh) && !ids.includes(old));
  });

  it('belongs to its credential: another credential, another workspace and a malformed id see 404', async () => {
    const id = (await requestExport({ resourceTypes: ['tags'], format: 'csv' })).body.data.id;
    await finished(id);
    const other = await cell.mint(V1_SCOPES);
    assertProblem(await call('GET', `/v1/exports/${id}`, other), 404, 'not_found');
    assertProblem(await call('GET', `/v1/exports/${id}/download`, other), 404, 'not_found');
    assert.ok(!(await listAllPages<Export>(cell.v1, '/v1/exports', other)).some((e) => e.id === id));
    assert.ok((await listAllPages<Export>(cell.v1, '/v1/exports', admin)).some((e) => e.id === id));
    assertProblem(await call('GET', '/v1/exports/not-a-uuid', admin), 404, 'not_found');
    const foreignWs = await cell.otherWorkspace();
    const user = await database.prisma.user.create({ data: { email: `foreign-${foreignWs}@x.test`, name: 'Foreign' } });
    const memberId = (await database.prisma.workspaceMember.create({ data: { workspaceId: foreignWs, userId: user.id } })).id;
    const credential = await inTransaction(database, (tx) => issueCredential(tx, cell.config, { workspaceId: foreignWs, kind: 'personal_access_token', name: 'foreign', scopes: V1_SCOPES, memberId }));
    const foreignCredentialId = (await database.prisma.credential.findFirstOrThrow({ where: { workspaceId: foreignWs } })).id;
    void credential;
    const foreign = await database.prisma.export.create({ data: { workspaceId: foreignWs, resourceTypes: ['tags'], format: 'csv', authSnapshot: {}, requestedByCredentialId: foreignCredentialId } });
    assertProblem(await call('GET', `/v1/exports/${foreign.id}`, admin), 404, 'not_found');
  });

  it('a download needs the export succeeded (409), unexpired (410) and the exported types’ read scopes still held', async () => {
    const token = await cell.mint(['exports:read', 'exports:write', 'tags:read']);
    const credentialId = await lastCredentialId();
    const queued = await database.prisma.export.create({ data: { workspaceId, resourceTypes: ['tags'], format: 'csv', authSnapshot: {}, requestedByCredentialId: credentialId } });
    assertProblem(await call('GET', `/v1/exports/${queued.id}/download`, token), 409, 'export_not_ready');
    const failed = await database.prisma.export.create({
      data: { workspaceId, status: 'failed', failureReason: 'internal_error', resourceTypes: ['tags'], format: 'csv', authSnapshot: {}, requestedByCredentialId: credentialId },
    });
    assertProblem(await call('GET', `/v1/exports/${failed.id}/download`, token), 409, 'export_not_ready');

    const { e } = await exported({ resourceTypes: ['tags'], format: 'csv' }, token);
    const stored = (await database.prisma.export.findFirstOrThrow({ where: { workspaceId, id: e.id } })).storageKey!;
    // Expired: 410 at once, before the purge removed anything.
    await database.prisma.export.update({ where: { workspaceId_id: { workspaceId, id: e.id } }, data: { expiresAt: new Date(Date.now() - 1000) } });
    assertProblem(await call('GET', `/v1/exports/${e.id}/download`, token), 410, 'export_expired');
    await cell.worker.app.get(QueueRuntime).queues.enqueue('exports.purge', {});
    await waitFor('the purge to expire the export', async () => (await getExport(e.id, token)).status === 'expired');
    const row = await database.prisma.export.findFirstOrThrow({ where: { workspaceId, id: e.id } });
    assert.equal(row.storageKey, null);
    assert.equal(await fileStorage(cell.config.files).read(stored), null, 'the bytes are removed');
    assertProblem(await call('GET', `/v1/exports/${e.id}/download`, token), 410, 'export_expired');
    assert.deepEqual(
      (await cell.outbox(e.id)).map((ev) => ev.eventType),
      ['export.created', 'export.succeeded', 'export.expired'],
    );

    // A member whose permissions were narrowed since it created the export no longer downloads it (403).
    const member = await cell.member(['exports:read', 'exports:write', 'tags:read']);
    const memberToken = await member.mint(['exports:read', 'exports:write', 'tags:read']);
    const narrowed = await exported({ resourceTypes: ['tags'], format: 'csv' }, memberToken);
    const roleId = (await database.prisma.memberRole.findFirstOrThrow({ where: { workspaceId, memberId: member.memberId } })).roleId;
    const role = await call<{ data: { version: string } }>('GET', `/v1/roles/${roleId}`, admin);
    const replaced = await call('PUT', `/v1/roles/${roleId}/permissions`, admin, { expectedVersion: role.body.data.version, permissions: ['exports:read'] });
    assert.equal(replaced.status, 200, JSON.stringify(replaced.body));
    const refused = await fetch(`${cell.v1.url}/v1/exports/${narrowed.e.id}/download`, { headers: { authorization: `Bearer ${memberToken}` } });
    assert.equal(refused.status, 403);
    assert.equal(((await refused.json()) as { errors: { code: string }[] }).errors[0]!.code, 'insufficient_scope');
  });

  it(`fails an export of more than ${EXPORT_MAX_ROWS} rows with too_many_rows and stores nothing`, async () => {
    await database.prisma.tag.createMany({ data: Array.from({ length: EXPORT_MAX_ROWS + 1 }, (_, i) => ({ workspaceId, name: `bulk ${i}` })) });
    const id = (await requestExport({ resourceTypes: ['tags'], format: 'jsonl' })).body.data.id;
    const e = await finished(id);
    assert.deepEqual([e.status, e.failureReason, e.sizeBytes, e.expiresAt], ['failed', 'too_many_rows', null, null]);
    assertProblem(await call('GET', `/v1/exports/${id}/download`, admin), 409, 'export_not_ready');
    assert.deepEqual(
      (await cell.outbox(id)).map((ev) => ev.eventType),
      ['export.created', 'export.failed'],
    );
    await database.prisma.tag.deleteMany({ where: { workspaceId, name: { startsWith: 'bulk ' } } });
  });

  it('an Idempotency-Key replays the same export; the list filters by status and pages newest first', async () => {
    const key = `export-${++seq}-${Date.now()}`;
    const first = await call<{ data: { id: string } }>('POST', '/v1/exports', admin, { resourceTypes: ['lists'], format: 'csv' }, { 'idempotency-key': key });
    const again = await call<{ data: { id: string } }>('POST', '/v1/exports', admin, { resourceTypes: ['lists'], format: 'csv' }, { 'idempotency-key': key });
    assert.equal(first.status, 202);
    assert.equal(again.status, 202);
    assert.equal(again.body.data.id, first.body.data.id);
    assert.equal(await database.prisma.export.count({ where: { workspaceId, id: first.body.data.id } }), 1);
    await finished(first.body.data.id);
    const all = await listAllPages<Export>(cell.v1, '/v1/exports?limit=2', admin);
    assert.deepEqual(
      all.map((e) => e.id),
      [...all.map((e) => e.id)].sort().reverse(),
    );
    const failed = await call<ListBody<Export>>('GET', '/v1/exports?status=failed', admin);
    assert.ok(failed.body.data.every((e) => e.status === 'failed'));
    assertProblem(await call('GET', '/v1/exports?status=lost', admin), 400, 'validation_failed');
  });
});
