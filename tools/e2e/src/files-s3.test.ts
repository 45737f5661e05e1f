import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { type ProcedureContext, sweepFiles } from '@workcell/domain';
import { fileStorage } from '@workcell/storage';
import { type LocalS3, startLocalS3 } from '@workcell/storage/testing';
import { useTestEnvironment } from '@workcell/testing';
import { useV1Cell } from './support/cell.js';
import { assertProblem } from './support/v1.js';

/**
 * v1 files with the S3-compatible driver (FILE_STORAGE_DRIVER=s3) against s3rver on a free 127.0.0.1 port: the
 * upload and download URLs are presigned S3 URLs (the bytes never pass through the API), completion streams the
 * object back from S3 to check its size, content type and SHA-256, and the sweep removes orphaned objects.
 */

const settings: Record<string, string> = {};
let s3: LocalS3 | undefined;
// Before the environment's hooks, which read `settings` when they run.
beforeAll(async () => {
  s3 = await startLocalS3();
  Object.assign(settings, s3.settings);
});
afterAll(() => s3?.close());
const env = useTestEnvironment(settings);
const cell = useV1Cell(env, () => ({ settings }));

type File = { id: string; status: string; sizeBytes: number; checksumSha256: string };
type Intent = { id: string; fileId: string; uploadUrl: string; requiredHeaders: Record<string, string>; expiresAt: string };

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('v1 files on S3-compatible storage', () => {
  const { call } = cell;
  const createIntent = async (bytes: Buffer, contentType = 'application/pdf') => {
    const reply = await call<{ data: Intent }>('POST', '/v1/file-upload-intents', cell.admin, { name: 'report.pdf', contentType, sizeBytes: bytes.length, checksumSha256: sha256(bytes) });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    return reply.body.data;
  };
  const key = (fileId: string) => `${cell.workspaceId}/${fileId}`;

  it('uploads to a presigned PUT, completes against the stored object and downloads from a presigned GET', async () => {
    const bytes = Buffer.from('%PDF-1.7 pretend');
    const intent = await createIntent(bytes);
    const url = new URL(intent.uploadUrl);
    assert.equal(url.origin, s3!.endpoint);
    assert.deepEqual((url.searchParams.get('X-Amz-SignedHeaders') ?? '').split(';').sort(), ['content-length', 'content-type', 'host']);
    const put = await fetch(intent.uploadUrl, { method: 'PUT', body: bytes, headers: intent.requiredHeaders });
    assert.equal(put.status, 200);
    const done = await call<{ data: File }>('POST', `/v1/file-upload-intents/${intent.id}/complete`, cell.admin);
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.equal(done.body.data.status, 'available');
    const download = await call<{ data: { url: string } }>('POST', `/v1/files/${intent.fileId}/download-intents`, cell.admin);
    assert.equal(download.status, 201);
    assert.equal(new URL(download.body.data.url).origin, s3!.endpoint);
    const res = await fetch(download.body.data.url);
    assert.equal(res.status, 200);
    assert.deepEqual(Buffer.from(await res.arrayBuffer()), bytes);
    assert.equal(res.headers.get('content-type'), 'application/pdf');
    assert.match(res.headers.get('content-disposition') ?? '', /^attachment; filename="report.pdf"/);
  });

  it('an object of another type and content is 409 upload_mismatch with both pointers, and is removed from the bucket', async () => {
    const declared = Buffer.from('declared content');
    const intent = await createIntent(declared);
    const other = Buffer.from('<html>sneaky</html>');
    const put = await fetch(intent.uploadUrl, { method: 'PUT', body: other, headers: { 'content-type': 'text/html' } });
    assert.equal(put.status, 200, 's3rver does not check presigned signatures (S3 would refuse this PUT)');
    const mismatch = await call('POST', `/v1/file-upload-intents/${intent.id}/complete`, cell.admin);
    for (const pointer of ['/sizeBytes', '/contentType', '/checksumSha256']) assertProblem(mismatch, 409, 'upload_mismatch', pointer);
    assert.equal(await fileStorage(cell.config.files).read(key(intent.fileId)), null);
  });

  it('the sweep removes the objects of lapsed reservations from the bucket', async () => {
    const bytes = Buffer.from('never completed');
    const intent = await createIntent(bytes);
    assert.equal((await fetch(intent.uploadUrl, { method: 'PUT', body: bytes, headers: intent.requiredHeaders })).status, 200);
    assert.ok(await fileStorage(cell.config.files).read(key(intent.fileId)));
    await cell.database.prisma.fileUploadReservation.updateMany({ where: { id: intent.id }, data: { expiresAt: new Date(Date.now() - 60_000) } });
    const ctx: ProcedureContext = { database: cell.database, config: cell.config, now: () => new Date() };
    await sweepFiles(ctx);
    assert.equal((await call<{ data: File }>('GET', `/v1/files/${intent.fileId}`, cell.admin)).body.data.status, 'expired');
    assert.equal(await fileStorage(cell.config.files).read(key(intent.fileId)), null);
    assertProblem(await call('POST', `/v1/file-upload-intents/${intent.id}/complete`, cell.admin), 410, 'upload_expired');
  });
});
