import assert from 'node:assert/strict';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateToken } from '@workcell/credentials';
import { readFileSync } from 'node:fs';
import { DEFAULT_TIMEOUT_MS, DEFAULT_USER_AGENT, WorkcellClient } from './client.js';
import * as errors from './errors.js';
import { parseRetryAfter, retryDelayMs } from './retry.js';
import { SDK_VERSION } from './version.js';

const { WorkcellApiError, WorkcellClientError, WorkcellConnectionError, WorkcellError, WorkcellTimeoutError } = errors;
type WorkcellApiError = errors.WorkcellApiError;

type Sent = { url: string; method: string; headers: Record<string, string>; body: string | undefined; signal: AbortSignal | undefined };
type Answer = { status: number; body?: unknown; headers?: Record<string, string> } | 'network-error';

/** A fetch that answers from a script and records every request. */
function scripted(answers: Answer[]) {
  const sent: Sent[] = [];
  const fetchFn = (async (url: string, init: RequestInit) => {
    sent.push({ url, method: init.method ?? 'GET', headers: init.headers as Record<string, string>, body: init.body as string | undefined, signal: init.signal ?? undefined });
    const answer = answers.shift();
    if (answer === undefined) throw new Error('unexpected request');
    if (answer === 'network-error') throw new TypeError('fetch failed');
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), { status: answer.status, headers: answer.headers ?? {} });
  }) as unknown as typeof fetch;
  return { sent, fetchFn };
}

const credential = generateToken('personal_access_token', 'eu1', 'c1');
const problem = (status: number, code: string) => ({ errors: [{ code, detail: `${code} detail`, status: String(status), title: 'x' }], meta: { requestId: 'r1' } });

function client(answers: Answer[], extra: Partial<ConstructorParameters<typeof WorkcellClient>[0]> = {}) {
  const { sent, fetchFn } = scripted(answers);
  const waits: number[] = [];
  const api = new WorkcellClient({ credential, baseUrl: 'https://{region}.api.test', fetch: fetchFn, sleep: async (ms) => void waits.push(ms), retry: { maxAttempts: 3 }, ...extra });
  return { api, sent, waits };
}

describe('WorkcellClient', () => {
  it('sends to the regional endpoint of the credential, with the bearer credential and no redirect following', async () => {
    const { api, sent } = client([
      { status: 200, body: { data: { id: 'w' } }, headers: { etag: '"3"', 'x-request-id': 'req-1', 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '9', 'x-ratelimit-reset': '1000' } },
    ]);
    assert.equal(api.endpoint, 'https://eu1.api.test');
    const reply = await api.call('getWorkspace');
    assert.deepEqual(reply.data as unknown, { id: 'w' });
    assert.deepEqual([reply.etag, reply.requestId, reply.rateLimit], ['"3"', 'req-1', { limit: 10, remaining: 9, resetAt: 1000 }]);
    assert.equal(sent[0]!.url, 'https://eu1.api.test/v1/workspace');
    assert.equal(sent[0]!.headers['authorization'], `Bearer ${credential}`);
  });

  it('refuses malformed credentials and v0 tokens offline, and redirects when they come', async () => {
    // Another last character (the random credential's own is 'x' once in 62 runs), so the checksum no longer fits.
    const tampered = `${credential.slice(0, -1)}${credential.endsWith('x') ? 'y' : 'x'}`;
    assert.throws(() => new WorkcellClient({ credential: tampered, baseUrl: 'https://api.test' }), WorkcellClientError);
    assert.throws(() => new WorkcellClient({ credential: generateToken('v0_team_token', 'eu1', 'c1'), baseUrl: 'https://api.test' }), /v0 team token/);
    const { api } = client([{ status: 307, headers: { location: 'https://us1.api.test/v1/workspace' } }]);
    await assert.rejects(api.call('getWorkspace'), /never redirected/);
  });

  it('retries a safe read on 503, waiting at least Retry-After, and on a lost connection', async () => {
    const { api, sent, waits } = client([{ status: 503, body: problem(503, 'service_unavailable'), headers: { 'retry-after': '2' } }, 'network-error', { status: 200, body: { data: [] } }]);
    const reply = await api.call('listTags');
    assert.equal(reply.attempts, 3);
    assert.equal(sent.length, 3);
    assert.equal(waits[0], 2000);
  });

  it('retries an idempotent POST with the same Idempotency-Key on every attempt', async () => {
    const { api, sent } = client([{ status: 502 }, { status: 201, body: { data: { id: 't' } } }]);
    await api.call('createTag', { body: { name: 'x' } });
    assert.equal(sent.length, 2);
    const keys = sent.map((s) => s.headers['idempotency-key']);
    assert.ok(keys[0]);
    assert.equal(keys[0], keys[1]);
    const { api: again, sent: sent2 } = client([{ status: 201, body: { data: {} } }]);
    await again.call('createTag', { body: { name: 'x' }, idempotencyKey: 'mine-1' });
    assert.equal(sent2[0]!.headers['idempotency-key'], 'mine-1');
  });

  it('never retries other PATCH, PUT or DELETE, not even on 429 or 503', async () => {
    const { api, sent } = client([{ status: 503, body: problem(503, 'service_unavailable'), headers: { 'retry-after': '1' } }]);
    await assert.rejects(
      api.call('updateTag', { path: { id: 'a' }, body: { name: 'y' } }),
      (error: WorkcellApiError) => error.status === 503 && error.code === 'service_unavailable' && error.retryAfter === 1,
    );
    assert.equal(sent.length, 1);
    const { api: del, sent: sentDel } = client([{ status: 429, body: problem(429, 'rate_limit_exceeded') }]);
    await assert.rejects(del.call('archiveTag', { path: { id: 'a' } }), WorkcellApiError);
    assert.equal(sentDel.length, 1);
  });

  it('retries a fully guarded replacement (planned work) with its expected version unchanged', async () => {
    const body = { expectedVersion: 'v1', windows: [] };
    const { api, sent } = client([{ status: 504 }, { status: 200, body: { data: {} } }]);
    await api.call('replaceTaskPlannedWork', { path: { id: 't' }, body });
    assert.equal(sent.length, 2);
    assert.equal(sent[1]!.body, JSON.stringify(body));
  });

  it('never retries 400, 401, 403, 404, 409, 412 or 428, and gives up after maxAttempts', async () => {
    for (const [status, code] of [
      [400, 'validation_failed'],
      [401, 'unauthenticated'],
      [403, 'insufficient_scope'],
      [404, 'not_found'],
      [409, 'conflict'],
    ] as const) {
      const { api, sent } = client([{ status, body: problem(status, code), headers: { 'x-request-id': 'rq' } }]);
      await assert.rejects(api.call('getTag', { path: { id: 'a' } }), (error: WorkcellApiError) => error.status === status && error.code === code && error.requestId === 'rq');
      assert.equal(sent.length, 1);
    }
    const { api, sent } = client([{ status: 503 }, { status: 503 }, { status: 503 }, { status: 200, body: { data: {} } }]);
    await assert.rejects(api.call('getTag', { path: { id: 'a' } }), (error: WorkcellApiError) => error.status === 503 && error.code === 'http_error');
    assert.equal(sent.length, 3);
  });

  it('refuses an If-Match operation without If-Match, and keeps the precondition on every attempt', async () => {
    const { api, sent } = client([]);
    // A typed call without ifMatch does not compile (types.test.ts); the run-time form refuses it before sending.
    await assert.rejects(api.request('updateTask', { path: { id: 't' }, body: { title: 'x' } }), /requires ifMatch/);
    assert.equal(sent.length, 0);
    const { api: ok, sent: sentOk } = client([{ status: 412, body: problem(412, 'precondition_failed') }]);
    await assert.rejects(ok.call('updateTask', { path: { id: 't/..' }, body: { title: 'x' }, ifMatch: '"2"' }), (error: WorkcellApiError) => error.code === 'precondition_failed');
    assert.equal(sentOk[0]!.headers['if-match'], '"2"');
    assert.equal(sentOk[0]!.url, 'https://eu1.api.test/v1/tasks/t%2F..');
  });

  it('pages through a list by its cursors', async () => {
    const { api, sent } = client([
      { status: 200, body: { data: [1, 2], meta: { limit: 2, nextCursor: 'c2' } } },
      { status: 200, body: { data: [3], meta: { limit: 2, nextCursor: null } } },
    ]);
    const items: unknown[] = [];
    for await (const item of api.paginate('listTags', { query: { limit: 2 } })) items.push(item);
    assert.deepEqual(items, [1, 2, 3]);
    assert.equal(sent[1]!.url, 'https://eu1.api.test/v1/tags?limit=2&cursor=c2');
  });

  it('pages on past an empty page while nextCursor names another, and refuses a cursor that repeats', async () => {
    const { api } = client([
      { status: 200, body: { data: [], meta: { limit: 2, nextCursor: 'c2' } } },
      { status: 200, body: { data: [1], meta: { limit: 2, nextCursor: null } } },
    ]);
    const items: unknown[] = [];
    for await (const item of api.paginate('listTags')) items.push(item);
    assert.deepEqual(items, [1]);
    const { api: looping } = client([
      { status: 200, body: { data: [1], meta: { nextCursor: 'c2' } } },
      { status: 200, body: { data: [], meta: { nextCursor: 'c2' } } },
    ]);
    await assert.rejects(
      (async () => {
        for await (const _ of looping.paginate('listTags')) void _;
      })(),
      /same nextCursor again/,
    );
  });

  it('says who it is: workcell-sdk/<version> node/<version> unless told otherwise', async () => {
    assert.equal(SDK_VERSION, (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version);
    assert.equal(DEFAULT_USER_AGENT, `workcell-sdk/${SDK_VERSION} node/${process.versions.node}`);
    const { api, sent } = client([
      { status: 200, body: { data: [] } },
      { status: 200, body: { data: [] } },
    ]);
    await api.call('listTags');
    assert.equal(sent[0]!.headers['user-agent'], DEFAULT_USER_AGENT);
    const { api: tool, sent: sentByTool } = client([{ status: 200, body: { data: [] } }], { userAgent: `tool/1 ${DEFAULT_USER_AGENT}` });
    await tool.call('listTags');
    assert.equal(sentByTool[0]!.headers['user-agent'], `tool/1 ${DEFAULT_USER_AGENT}`);
  });

  it('limits every attempt to 30 s by default; timeoutMs null (or 0) lifts the limit', async () => {
    assert.equal(DEFAULT_TIMEOUT_MS, 30_000);
    const { api, sent } = client([
      { status: 200, body: { data: [] } },
      { status: 200, body: { data: [] } },
    ]);
    await api.call('listTags');
    assert.ok(sent[0]!.signal instanceof AbortSignal, 'a default deadline');
    await api.call('listTags', { timeoutMs: null });
    assert.equal(sent[1]!.signal, undefined);
    const { api: unlimited, sent: sentUnlimited } = client([{ status: 200, body: { data: [] } }], { timeoutMs: 0 });
    await unlimited.call('listTags');
    assert.equal(sentUnlimited[0]!.signal, undefined);
  });

  it('answers a file: download streams it with its type and name, call gives its text; JSON operations are no downloads', async () => {
    const csv = 'type,id\r\ntag,t1\r\n';
    const sent: string[] = [];
    const fetchFn = (async (url: string, init: RequestInit) => {
      sent.push(`${url} ${(init.headers as Record<string, string>)['accept']}`);
      return new Response(csv, {
        status: 200,
        headers: { 'content-type': 'text/csv; charset=utf-8', 'content-length': String(csv.length), 'content-disposition': 'attachment; filename="export-e1.csv"', 'x-request-id': 'r9' },
      });
    }) as unknown as typeof fetch;
    const api = new WorkcellClient({ credential, baseUrl: 'https://{region}.api.test', fetch: fetchFn });
    const file = await api.download('downloadExport', { path: { id: 'e1' } });
    assert.deepEqual([file.status, file.contentType, file.fileName, file.size, file.requestId], [200, 'text/csv; charset=utf-8', 'export-e1.csv', csv.length, 'r9']);
    assert.equal(await new Response(file.body).text(), csv);
    const text: string = (await api.call('downloadExport', { path: { id: 'e1' } })).data;
    assert.equal(text, csv);
    assert.deepEqual(sent, ['https://eu1.api.test/v1/exports/e1/download */*', 'https://eu1.api.test/v1/exports/e1/download */*']);
    await assert.rejects(api.downloadRequest('listTags'), /listTags answers JSON, not a file/);
  });

  it('answers the OpenAPI document whole as data (it has no envelope), and the envelope data otherwise', async () => {
    const document = { openapi: '3.1.0', info: { title: 'Workcell v1', version: '1' }, paths: {} };
    const { api } = client([
      { status: 200, body: document },
      { status: 200, body: { data: { apiVersion: 'v1' }, meta: null } },
    ]);
    const answer = await api.call('getOpenApiDocument');
    const typed: { [key: string]: unknown } = answer.data;
    assert.deepEqual(typed, document);
    assert.equal(answer.meta, null);
    assert.deepEqual((await api.request('getApiVersion')).data, { apiVersion: 'v1' });
  });
});

/** A local HTTP server whose handler decides how (and whether) to answer; closed by the caller. */
async function listening(handler: (response: ServerResponse) => void): Promise<{ server: Server; url: string }> {
  const server = createServer((_, response) => handler(response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

function closed(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

describe('WorkcellClient errors', () => {
  it('raises the class of each code family, all of them WorkcellApiError and WorkcellError', async () => {
    const families = [
      [400, errors.WorkcellValidationError],
      [401, errors.WorkcellAuthenticationError],
      [403, errors.WorkcellPermissionError],
      [404, errors.WorkcellNotFoundError],
      [409, errors.WorkcellConflictError],
      [412, errors.WorkcellConflictError],
      [413, errors.WorkcellValidationError],
      [422, errors.WorkcellValidationError],
      [428, errors.WorkcellConflictError],
      [429, errors.WorkcellRateLimitError],
      [500, errors.WorkcellServerError],
      [503, errors.WorkcellServerError],
      [418, errors.WorkcellApiError],
    ] as const;
    for (const [status, Family] of families) {
      const { api } = client([{ status, body: problem(status, 'some_code') }], { retry: { maxAttempts: 1 } });
      const error = await api.call('updateTag', { path: { id: 'a' }, body: { name: 'x' } }).catch((caught: unknown) => caught);
      assert.ok(error instanceof Family, `${status} is a ${Family.name}`);
      assert.ok(error instanceof WorkcellApiError && error instanceof WorkcellError);
      assert.equal(error.name, Family.name);
      assert.deepEqual([error.status, error.code], [status, 'some_code']);
    }
  });

  it('wraps a refused connection in WorkcellConnectionError with the network error as its cause, after the retries', async () => {
    const { server, url } = await listening(() => undefined);
    await closed(server);
    const waits: number[] = [];
    const api = new WorkcellClient({ credential, baseUrl: url, sleep: async (ms) => void waits.push(ms), retry: { maxAttempts: 2 } });
    const error = await api.call('listTags').catch((caught: unknown) => caught);
    assert.ok(error instanceof WorkcellConnectionError && error instanceof WorkcellError, String(error));
    assert.match(error.message, new RegExp(`could not reach ${url}/v1/tags: ECONNREFUSED`));
    assert.ok(error.cause instanceof TypeError);
    assert.equal(waits.length, 1, 'a safe read is retried once before the error');
    const scriptedLoss = client(['network-error'], { retry: { maxAttempts: 1 } });
    await assert.rejects(scriptedLoss.api.call('createTag', { body: { name: 'x' } }), (caught: unknown) => caught instanceof WorkcellConnectionError && caught.cause instanceof TypeError);
  });

  it('raises WorkcellTimeoutError when no answer (or no whole answer) comes within timeoutMs, per attempt', async () => {
    const silent = await listening(() => undefined);
    const stalled = await listening((response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"data":');
    });
    try {
      const waits: number[] = [];
      const api = new WorkcellClient({ credential, baseUrl: silent.url, timeoutMs: 50, sleep: async (ms) => void waits.push(ms), retry: { maxAttempts: 2 } });
      const error = await api.call('listTags').catch((caught: unknown) => caught);
      assert.ok(error instanceof WorkcellTimeoutError && error instanceof WorkcellError, String(error));
      assert.equal(error.timeoutMs, 50);
      assert.match(error.message, /within 50 ms/);
      assert.equal(waits.length, 1, 'each attempt has its own timeout');
      const perCall = new WorkcellClient({ credential, baseUrl: stalled.url });
      await assert.rejects(perCall.call('listTags', { timeoutMs: 50 }), (caught: unknown) => caught instanceof WorkcellTimeoutError && caught.timeoutMs === 50);
      const aborted = AbortSignal.abort();
      await assert.rejects(api.call('listTags', { signal: aborted }), (caught: unknown) => (caught as Error).name === 'AbortError', "the caller's own abort passes as it came");
    } finally {
      await closed(silent.server);
      await closed(stalled.server);
    }
  });
});

describe('retry timing', () => {
  it('uses Retry-After (seconds or an HTTP date), else full jitter under an exponential ceiling', () => {
    assert.equal(parseRetryAfter('3'), 3);
    assert.equal(parseRetryAfter(new Date(Date.now() + 5000).toUTCString(), Date.now()), 5);
    assert.equal(parseRetryAfter(null), null);
    const policy = { maxAttempts: 5, baseDelayMs: 100, maxDelayMs: 1000 };
    assert.equal(retryDelayMs(policy, 1, 2), 2000);
    assert.equal(
      retryDelayMs(policy, 1, null, () => 0.999),
      99,
    );
    assert.equal(
      retryDelayMs(policy, 3, null, () => 0.999),
      399,
    );
    assert.equal(
      retryDelayMs(policy, 10, null, () => 0.999),
      999,
    );
  });
});
