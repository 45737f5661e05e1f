import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { V1_SCOPES } from '@workcell/credentials';
import { createDatabase } from '@workcell/db';
import { type ProcedureContext, sweepFiles } from '@workcell/domain';
import { fileStorage } from '@workcell/storage';
import { useTestEnvironment, waitFor } from '@workcell/testing';
import { QueueRuntime } from '@workcell/worker';
import { useV1Cell } from './support/cell.js';
import { assertProblem, assertShape, errorOf, type ListBody } from './support/v1.js';

/**
 * v1 files end to end (docs/files.md), against the local storage driver: upload intents, the capability URLs
 * (no bearer credential; single upload at a time; 409 after completion; 410 after expiry, in the v1 error
 * document), completion's size/type/SHA-256 check (409 upload_mismatch with pointers, bytes removed), download
 * intents and their URL, metadata and lifecycle, scopes, tenancy, validation, idempotency and the worker's sweep
 * (exactly once across two sweepers). Expiry is reached by moving a reservation's `expires_at` into the past, never
 * by waiting.
 */

const env = useTestEnvironment();
const cell = useV1Cell(env);

type File = { id: string; name: string; contentType: string; sizeBytes: number; checksumSha256: string; status: string; archivedAt: string | null; uploadedBy: string | null };
type Intent = { id: string; fileId: string; uploadUrl: string; method: 'PUT'; requiredHeaders: Record<string, string>; status: string; expiresAt: string };
type DownloadIntent = { fileId: string; url: string; expiresAt: string };

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
let seq = 0;

describe('v1 files', () => {
  const { call } = cell;
  /** A capability URL sent to this test's api-v1 (the URL names the configured public address). */
  const local = (url: string) => `${cell.v1.url}${new URL(url).pathname}`;
  const put = (url: string, bytes: Buffer, headers: Record<string, string> = {}) => fetch(local(url), { method: 'PUT', body: bytes, headers: { 'content-type': 'text/plain', ...headers } });
  const createIntent = async (bytes: Buffer, body: Record<string, unknown> = {}, token = cell.admin) => {
    const reply = await call<{ data: Intent }>('POST', '/v1/file-upload-intents', token, {
      name: `file-${++seq}.txt`,
      contentType: 'text/plain',
      sizeBytes: bytes.length,
      checksumSha256: sha256(bytes),
      ...body,
    });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    return reply.body.data;
  };
  const complete = (intentId: string, token = cell.admin) => call<{ data: File }>('POST', `/v1/file-upload-intents/${intentId}/complete`, token);
  /** An available file of these bytes. */
  const uploaded = async (bytes = Buffer.from(`contents ${++seq}`)) => {
    const intent = await createIntent(bytes);
    assert.equal((await put(intent.uploadUrl, bytes)).status, 204);
    const done = await complete(intent.id);
    assert.equal(done.status, 200, JSON.stringify(done.body));
    return done.body.data;
  };
  const expire = (intentId: string) =>
    cell.database.prisma.fileUploadReservation.updateMany({ where: { workspaceId: cell.workspaceId, id: intentId }, data: { expiresAt: new Date(Date.now() - 60_000) } });
  const problemOf = async (res: Response) => ({ status: res.status, body: (await res.json()) as unknown, headers: res.headers });
  const storage = () => fileStorage(cell.config.files);
  const stored = async (fileId: string) => {
    const object = await storage().read(`${cell.workspaceId}/${fileId}`);
    if (!object) return null;
    const chunks: Buffer[] = [];
    for await (const chunk of object.body) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  };

  it('uploads through an intent, completes, lists and downloads the bytes (no bearer credential on the transfers)', async () => {
    const bytes = Buffer.from('hello, files ✓');
    const intent = await createIntent(bytes, { name: 'greeting.txt' });
    assertShape('createFileUploadIntent', intent);
    assert.equal(intent.status, 'open');
    assert.deepEqual(intent.requiredHeaders, { 'Content-Type': 'text/plain', 'Content-Length': String(bytes.length) });
    assert.match(new URL(intent.uploadUrl).pathname, new RegExp(`^/v1/file-transfers/${cell.workspaceId}/uploads/[A-Za-z0-9_-]{43}$`));
    // The default reservation lasts 15 minutes.
    const ttl = Date.parse(intent.expiresAt) - Date.now();
    assert.ok(ttl > 14 * 60_000 && ttl <= 15 * 60_000, String(ttl));
    // The token is not stored: only its hash.
    const row = await cell.database.prisma.fileUploadReservation.findFirstOrThrow({ where: { id: intent.id } });
    const token = new URL(intent.uploadUrl).pathname.split('/').pop()!;
    assert.deepEqual(Buffer.from(row.tokenHash), createHash('sha256').update(token).digest());

    const pending = await call<{ data: File }>('GET', `/v1/files/${intent.fileId}`, cell.admin);
    assert.equal(pending.body.data.status, 'pending');
    assertProblem(await call('POST', `/v1/files/${intent.fileId}/download-intents`, cell.admin), 409, 'file_not_available');

    const upload = await put(intent.uploadUrl, bytes);
    assert.equal(upload.status, 204);
    const done = await complete(intent.id);
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assertShape('completeFileUpload', done.body.data);
    assert.equal(done.body.data.status, 'available');
    assert.equal(done.body.data.sizeBytes, bytes.length);
    assert.equal(done.body.data.checksumSha256, sha256(bytes));
    assert.equal(done.body.data.uploadedBy, cell.ownerMemberId);
    // Completing again answers the file again.
    assert.equal((await complete(intent.id)).body.data.status, 'available');

    const events = (await cell.outbox(intent.fileId)).map((e) => e.eventType);
    assert.deepEqual(events, ['file.created', 'file.uploaded']);

    const download = await call<{ data: DownloadIntent }>('POST', `/v1/files/${intent.fileId}/download-intents`, cell.admin);
    assert.equal(download.status, 201, JSON.stringify(download.body));
    assertShape('createFileDownloadIntent', download.body.data);
    assert.equal(download.headers.get('cache-control'), 'private, no-store');
    const res = await fetch(local(download.body.data.url));
    assert.equal(res.status, 200);
    assert.deepEqual(Buffer.from(await res.arrayBuffer()), bytes);
    assert.equal(res.headers.get('content-type'), 'text/plain');
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.match(res.headers.get('content-disposition') ?? '', /^attachment; filename="greeting.txt"/);
    // The download URL serves as often as needed until it expires.
    assert.equal((await fetch(local(download.body.data.url))).status, 200);

    const listed = await cell.listAll<File>('/v1/files?status=available');
    assert.ok(listed.some((f) => f.id === intent.fileId));
    assert.ok(!(await cell.listAll<File>('/v1/files?status=pending')).some((f) => f.id === intent.fileId));
  });

  it('takes one upload at a time: a second PUT is 409 upload_already_received, one after completion 409 upload_completed', async () => {
    const bytes = Buffer.from('once');
    const intent = await createIntent(bytes);
    const results = await Promise.all([put(intent.uploadUrl, bytes), put(intent.uploadUrl, bytes)]);
    assert.deepEqual(results.map((r) => r.status).sort(), [204, 409]);
    const loser = await problemOf(results.find((r) => r.status === 409)!);
    assertProblem(loser, 409, 'upload_already_received');
    assert.equal((await complete(intent.id)).status, 200);
    assertProblem(await problemOf(await put(intent.uploadUrl, bytes)), 409, 'upload_completed');
  });

  it('refuses an upload whose Content-Length or Content-Type is not the declared one (400, header named), then takes the right one', async () => {
    const bytes = Buffer.from('typed');
    const intent = await createIntent(bytes);
    const wrongType = await problemOf(await put(intent.uploadUrl, bytes, { 'content-type': 'application/octet-stream' }));
    assertProblem(wrongType, 400, 'validation_failed');
    assert.equal(errorOf(wrongType).source?.parameter, 'Content-Type');
    const wrongLength = await problemOf(await put(intent.uploadUrl, Buffer.from('typed!')));
    assertProblem(wrongLength, 400, 'validation_failed');
    assert.equal(errorOf(wrongLength).source?.parameter, 'Content-Length');
    // A chunked body (no Content-Length) cannot be held to the declared size before it is read: refused alike.
    const chunked = await fetch(local(intent.uploadUrl), {
      method: 'PUT',
      body: new ReadableStream({ start: (c) => (c.enqueue(new Uint8Array(bytes)), c.close()) }),
      headers: { 'content-type': 'text/plain' },
      duplex: 'half',
    } as RequestInit);
    assert.equal(errorOf(await problemOf(chunked)).source?.parameter, 'Content-Length');
    assert.equal(await stored(intent.fileId), null);
    assert.equal((await put(intent.uploadUrl, bytes)).status, 204);
    assert.equal((await complete(intent.id)).status, 200);
  });

  it('completion checks the SHA-256: a mismatch is 409 upload_mismatch with its pointer, removes the bytes and reopens the URL', async () => {
    const declared = Buffer.from('expected bytes');
    const intent = await createIntent(declared);
    assertProblem(await complete(intent.id), 409, 'upload_not_received');
    const other = Buffer.from('xxxxxxxxxxxxxx');
    assert.equal(other.length, declared.length);
    assert.equal((await put(intent.uploadUrl, other)).status, 204);
    const mismatch = await complete(intent.id);
    assertProblem(mismatch, 409, 'upload_mismatch', '/checksumSha256');
    assert.equal(await stored(intent.fileId), null);
    assert.equal((await call<{ data: File }>('GET', `/v1/files/${intent.fileId}`, cell.admin)).body.data.status, 'pending');
    assert.equal((await put(intent.uploadUrl, declared)).status, 204);
    assert.equal((await complete(intent.id)).body.data.status, 'available');
  });

  it('after expiry an upload is 410 upload_expired in the v1 error document and completion is 410 too; a new intent works', async () => {
    const bytes = Buffer.from('late');
    const intent = await createIntent(bytes);
    await expire(intent.id);
    const late = await problemOf(await put(intent.uploadUrl, bytes));
    assertProblem(late, 410, 'upload_expired');
    assert.equal((late.body as { meta: { requestId: string } }).meta.requestId, late.headers.get('x-request-id'));
    assertProblem(await complete(intent.id), 410, 'upload_expired');

    // Uploaded in time but completed too late: 410 as well.
    const inTime = await createIntent(bytes);
    assert.equal((await put(inTime.uploadUrl, bytes)).status, 204);
    await expire(inTime.id);
    assertProblem(await complete(inTime.id), 410, 'upload_expired');

    const fresh = await createIntent(bytes);
    assert.equal((await put(fresh.uploadUrl, bytes)).status, 204);
    assert.equal((await complete(fresh.id)).status, 200);
  });

  it('a capability URL that names nothing is 404 (unknown token, another workspace, malformed)', async () => {
    const bytes = Buffer.from('nowhere');
    const intent = await createIntent(bytes);
    const path = new URL(intent.uploadUrl).pathname;
    const elsewhere = await cell.otherWorkspace();
    for (const url of [path.replace(/[^/]+$/, 'A'.repeat(43)), path.replace(cell.workspaceId, elsewhere), path.replace(/[^/]+$/, 'short'), `/v1/file-transfers/not-a-uuid/uploads/${'A'.repeat(43)}`]) {
      const res = await fetch(`${cell.v1.url}${url}`, { method: 'PUT', body: bytes, headers: { 'content-type': 'text/plain' } });
      assert.equal(res.status, 404, url);
      assert.equal(errorOf(await problemOf(res)).code, 'not_found');
    }
    const res = await fetch(`${cell.v1.url}/v1/file-transfers/${cell.workspaceId}/downloads/${'A'.repeat(43)}`);
    assertProblem(await problemOf(res), 404, 'not_found');
  });

  it('downloads only available, unarchived files: archived 409, restored again 200; an expired download URL is 410', async () => {
    const file = await uploaded();
    const download = (await call<{ data: DownloadIntent }>('POST', `/v1/files/${file.id}/download-intents`, cell.admin)).body.data;
    assert.equal((await call('DELETE', `/v1/files/${file.id}`, cell.admin)).status, 204);
    assertProblem(await call('POST', `/v1/files/${file.id}/download-intents`, cell.admin), 409, 'file_not_available');
    assertProblem(await problemOf(await fetch(local(download.url))), 409, 'file_not_available');
    assert.ok(!(await cell.listAll<File>('/v1/files')).some((f) => f.id === file.id));
    const restored = await call<{ data: File }>('POST', `/v1/files/${file.id}/restore`, cell.admin);
    assert.equal(restored.status, 200);
    assert.equal(restored.body.data.archivedAt, null);
    assert.equal((await fetch(local(download.url))).status, 200);
    await cell.database.prisma.fileDownloadIntent.updateMany({ where: { fileId: file.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    assertProblem(await problemOf(await fetch(local(download.url))), 410, 'download_expired');
    assert.deepEqual(
      (await cell.outbox(file.id)).map((e) => e.eventType),
      ['file.created', 'file.uploaded', 'file.archived', 'file.restored'],
    );
  });

  it('renames a file (last writer wins) and writes file.updated; validation has pointers and writes nothing', async () => {
    const file = await uploaded();
    const renamed = await call<{ data: File }>('PATCH', `/v1/files/${file.id}`, cell.admin, { name: 'renamed.txt' });
    assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
    assertShape('updateFile', renamed.body.data);
    assert.equal(renamed.body.data.name, 'renamed.txt');
    assert.equal(renamed.body.data.checksumSha256, file.checksumSha256);
    assert.equal((await cell.outbox(file.id, 'file.updated')).length, 1);
    assertProblem(await call('PATCH', `/v1/files/${file.id}`, cell.admin, { name: '' }), 400, 'validation_failed', '/name');
    assertProblem(await call('PATCH', `/v1/files/${file.id}`, cell.admin, { sizeBytes: 3 }), 400, 'validation_failed');

    const before = await cell.database.prisma.file.count({ where: { workspaceId: cell.workspaceId } });
    const good = { name: 'a.txt', contentType: 'text/plain', sizeBytes: 3, checksumSha256: sha256(Buffer.from('abc')) };
    for (const [body, pointer] of [
      [{ ...good, checksumSha256: 'ABC' }, '/checksumSha256'],
      [{ ...good, sizeBytes: 0 }, '/sizeBytes'],
      [{ ...good, sizeBytes: 6 * 1024 ** 3 }, '/sizeBytes'],
      [{ ...good, contentType: 'text' }, '/contentType'],
      [{ ...good, name: undefined }, '/name'],
      [{ ...good, extra: 1 }, ''],
    ] as const) {
      assertProblem(await call('POST', '/v1/file-upload-intents', cell.admin, body), 400, 'validation_failed', pointer);
    }
    assert.equal(await cell.database.prisma.file.count({ where: { workspaceId: cell.workspaceId } }), before);
  });

  it('scopes: files:read lists, reads and downloads; files:write is needed to upload, rename, archive, restore and complete', async () => {
    const file = await uploaded();
    const reader = await cell.mint(['files:read']);
    const none = await cell.mint(['tasks:read']);
    assert.equal((await call('GET', '/v1/files', reader)).status, 200);
    assert.equal((await call('GET', `/v1/files/${file.id}`, reader)).status, 200);
    assert.equal((await call('POST', `/v1/files/${file.id}/download-intents`, reader)).status, 201);
    assertProblem(await call('POST', '/v1/file-upload-intents', reader, { name: 'x', contentType: 'text/plain', sizeBytes: 1, checksumSha256: sha256(Buffer.from('x')) }), 403, 'insufficient_scope');
    assertProblem(await call('PATCH', `/v1/files/${file.id}`, reader, { name: 'no' }), 403, 'insufficient_scope');
    assertProblem(await call('DELETE', `/v1/files/${file.id}`, reader), 403, 'insufficient_scope');
    assertProblem(await call('POST', `/v1/file-upload-intents/${randomUUID()}/complete`, reader), 403, 'insufficient_scope');
    assertProblem(await call('GET', '/v1/files', none), 403, 'insufficient_scope');
  });

  it("tenancy: another workspace's file and intent are 404 for every operation", async () => {
    const elsewhere = await cell.otherWorkspace();
    const foreign = await cell.database.prisma.file.create({
      data: { workspaceId: elsewhere, name: 'foreign.txt', contentType: 'text/plain', sizeBytes: 1n, checksumSha256: sha256(Buffer.from('f')), storageKey: `${elsewhere}/x`, status: 'available' },
    });
    const reservation = await cell.database.prisma.fileUploadReservation.create({
      data: { workspaceId: elsewhere, fileId: foreign.id, tokenHash: new Uint8Array(32), expiresAt: new Date(Date.now() + 60_000) },
    });
    for (const [method, path, body] of [
      ['GET', `/v1/files/${foreign.id}`],
      ['PATCH', `/v1/files/${foreign.id}`, { name: 'mine' }],
      ['DELETE', `/v1/files/${foreign.id}`],
      ['POST', `/v1/files/${foreign.id}/restore`],
      ['POST', `/v1/files/${foreign.id}/download-intents`],
      ['POST', `/v1/file-upload-intents/${reservation.id}/complete`],
    ] as const) {
      assertProblem(await call(method, path, cell.admin, body), 404, 'not_found');
    }
    assert.equal((await cell.database.prisma.file.findFirstOrThrow({ where: { id: foreign.id } })).name, 'foreign.txt');
  });

  it('service accounts see and download only the files their grants cover', async () => {
    const [a, b] = [await uploaded(), await uploaded()];
    const { token } = await cell.serviceAccount(['files:read', 'files:write'], [{ resourceType: 'file', resourceId: a.id, access: 'read' }]);
    const listed = await cell.listAll<File>('/v1/files', token);
    assert.deepEqual(
      listed.map((f) => f.id),
      [a.id],
    );
    assert.equal((await call('POST', `/v1/files/${a.id}/download-intents`, token)).status, 201);
    assert.equal((await call('POST', `/v1/files/${b.id}/download-intents`, token)).status, 404);
  });

  it('an upload intent with the same Idempotency-Key answers the same intent and URL; another payload is 409', async () => {
    const bytes = Buffer.from('keyed');
    const key = `files-${randomUUID()}`;
    const body = { name: 'keyed.txt', contentType: 'text/plain', sizeBytes: bytes.length, checksumSha256: sha256(bytes) };
    const first = await call<{ data: Intent }>('POST', '/v1/file-upload-intents', cell.admin, body, { 'idempotency-key': key });
    const again = await call<{ data: Intent }>('POST', '/v1/file-upload-intents', cell.admin, body, { 'idempotency-key': key }, cell.v1b);
    assert.equal(first.status, 201);
    assert.equal(again.status, 201);
    assert.deepEqual(again.body.data, first.body.data);
    assert.equal(again.headers.get('location'), `/v1/files/${first.body.data.fileId}`);
    assert.equal(await cell.database.prisma.file.count({ where: { workspaceId: cell.workspaceId, name: 'keyed.txt' } }), 1);
    assertProblem(await call('POST', '/v1/file-upload-intents', cell.admin, { ...body, name: 'other.txt' }, { 'idempotency-key': key }), 409, 'idempotency_key_reused');
    // The replayed URL is the capability.
    assert.equal((await put(again.body.data.uploadUrl, bytes)).status, 204);
  });

  it('the sweep expires lapsed reservations and removes their bytes exactly once across two sweepers', async () => {
    const bytes = Buffer.from('orphan');
    const uploadedOnly = await createIntent(bytes);
    assert.equal((await put(uploadedOnly.uploadUrl, bytes)).status, 204);
    const neverUploaded = await createIntent(bytes);
    const completed = await uploaded();
    await expire(uploadedOnly.id);
    await expire(neverUploaded.id);
    assert.ok(await stored(uploadedOnly.fileId));

    const lapsed = await cell.database.prisma.fileUploadReservation.count({ where: { workspaceId: cell.workspaceId, status: 'pending', expiresAt: { lt: new Date() } } });
    const second = createDatabase(cell.config, { poolSize: 2 });
    try {
      const ctxA: ProcedureContext = { database: cell.database, config: cell.config, now: () => new Date() };
      const ctxB: ProcedureContext = { database: second, config: cell.config, now: () => new Date() };
      const [a, b] = await Promise.all([sweepFiles(ctxA), sweepFiles(ctxB)]);
      // The cell's own worker may sweep meanwhile too: together, never more than once per reservation.
      assert.ok(a.expired + b.expired <= lapsed, `${a.expired} + ${b.expired} > ${lapsed}`);
    } finally {
      await second.close();
    }
    for (const fileId of [uploadedOnly.fileId, neverUploaded.fileId]) {
      const file = await call<{ data: File }>('GET', `/v1/files/${fileId}`, cell.admin);
      assert.equal(file.body.data.status, 'expired');
      assert.equal((await cell.outbox(fileId, 'file.expired')).length, 1);
      assert.equal(await stored(fileId), null);
      assert.ok((await cell.database.prisma.file.findFirstOrThrow({ where: { id: fileId } })).storageClearedAt);
    }
    // Every expired file of the workspace was expired exactly once.
    for (const { id } of await cell.database.prisma.file.findMany({ where: { workspaceId: cell.workspaceId, status: 'expired' }, select: { id: true } })) {
      assert.equal((await cell.outbox(id, 'file.expired')).length, 1, id);
    }
    assert.equal((await call<{ data: File }>('GET', `/v1/files/${completed.id}`, cell.admin)).body.data.status, 'available');
    assert.ok(await stored(completed.id));
    assertProblem(await problemOf(await put(uploadedOnly.uploadUrl, bytes)), 410, 'upload_expired');
    assert.ok((await cell.listAll<File>('/v1/files?status=expired')).some((f) => f.id === neverUploaded.fileId));
  });

  it("the worker's files.sweep job runs the sweep", async () => {
    const bytes = Buffer.from('queued');
    const intent = await createIntent(bytes);
    await expire(intent.id);
    await cell.worker.app.get(QueueRuntime).queues.enqueue('files.sweep', {});
    await waitFor('the sweep to expire the file', async () => (await cell.database.prisma.file.findFirstOrThrow({ where: { id: intent.fileId } })).status === 'expired');
  });

  it('lists pages of files with the status filter and refuses an unknown status', async () => {
    const page = await call<ListBody<File>>('GET', '/v1/files?limit=1', cell.admin);
    assert.equal(page.status, 200);
    assert.equal(page.body.data.length, 1);
    assert.ok(page.body.links.next);
    assertProblem(await call('GET', '/v1/files?status=gone', cell.admin), 400, 'validation_failed');
    void V1_SCOPES;
  });
});
