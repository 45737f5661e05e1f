import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApiV0App } from '@workcell/api-v0';
import { createAuthApp } from '@workcell/auth';
import { type RunningApp, startApp, testConfig, useTestEnvironment, waitFor } from '@workcell/testing';
import { useV1Cell } from './support/cell.js';
import { errorOf } from './support/v1.js';
import { parsePrometheus, sampleValue, scrape } from './support/metrics.js';

/**
 * Prometheus metrics (issue 15, docs/observability.md): /metrics on each of the four services answers the text
 * format; request durations and errors are labelled by registry operation; the pool, queue and webhook delivery
 * metrics move with real work; and the METRICS_TOKEN / METRICS_ENABLED access rules hold.
 */
const env = useTestEnvironment({ WEBHOOK_RELAY_POLL_MS: '200' });

describe('metrics', () => {
  const cell = useV1Cell(env);
  let v0: RunningApp;
  let receiver: Server;
  let receiverUrl: string;

  beforeAll(async () => {
    v0 = await startApp(createApiV0App, cell.config);
    receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(req.url === '/fail' ? 500 : 200).end());
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await v0?.close();
    receiver?.closeAllConnections();
    await new Promise((r) => receiver?.close(r));
  });

  it('every service answers /metrics in the Prometheus text format, without API credentials', async () => {
    for (const app of [cell.v1, v0, cell.auth, cell.worker]) {
      const samples = await scrape(app.url);
      // The process metrics are there on every service.
      assert.ok(sampleValue(samples, 'process_cpu_user_seconds_total') !== undefined, app.url);
    }
  });

  it('a v1 request is counted under its operation id, with method and status class; unknown routes under "unmatched"', async () => {
    assert.equal((await cell.call('GET', '/v1/tags', cell.admin)).status, 200);
    assert.equal((await fetch(`${cell.v1.url}/v1/no-such-route/12345`)).status, 404);
    const samples = await scrape(cell.v1.url);
    const count = sampleValue(samples, 'http_request_duration_seconds_count', { service: 'api-v1', operation: 'listTags', method: 'GET', status_class: '2xx' });
    assert.ok(count !== undefined && count >= 1, 'listTags has a sample');
    assert.ok((sampleValue(samples, 'http_request_duration_seconds_count', { service: 'api-v1', operation: 'unmatched', status_class: '4xx' }) ?? 0) >= 1);
    // No series is labelled with a raw URL.
    assert.ok(!samples.some((s) => s.labels['operation']?.includes('12345')));
  });

  it("error responses are counted by operation and the error document's code (404, 400, 401)", async () => {
    const missing = await cell.call('GET', '/v1/tags/00000000-0000-7000-8000-000000000000', cell.admin);
    assert.equal(missing.status, 404);
    const invalid = await cell.call('POST', '/v1/tags', cell.admin, { name: '' });
    assert.equal(invalid.status, 400);
    assert.equal(errorOf(invalid).code, 'validation_failed');
    assert.equal((await fetch(`${cell.v1.url}/v1/tags`)).status, 401);
    const samples = await scrape(cell.v1.url);
    const errors = (operation: string, code: string) => sampleValue(samples, 'http_request_errors_total', { service: 'api-v1', operation, code }) ?? 0;
    assert.ok(errors('getTag', 'not_found') >= 1, 'getTag not_found');
    assert.ok(errors('createTag', 'validation_failed') >= 1, 'createTag validation_failed');
    assert.ok(errors('listTags', 'unauthenticated') >= 1, 'listTags unauthenticated');
  });

  it('api-v0 labels its requests with the legacy operation ids', async () => {
    assert.equal((await fetch(`${v0.url}/teams`)).status, 401);
    const samples = await scrape(v0.url);
    const series = samples.filter((s) => s.name === 'http_request_duration_seconds_count' && s.labels['service'] === 'api-v0' && s.labels['status_class'] === '4xx');
    assert.ok(
      series.some((s) => s.labels['operation'] === 'legacyGetTeams'),
      JSON.stringify(series.map((s) => s.labels)),
    );
  });

  it('the database pool gauges and statement durations', async () => {
    const samples = await scrape(cell.v1.url);
    assert.ok(sampleValue(samples, 'db_pool_connections', { state: 'idle' }) !== undefined);
    assert.ok(sampleValue(samples, 'db_pool_connections', { state: 'in_use' }) !== undefined);
    assert.ok(sampleValue(samples, 'db_pool_waiting_requests') !== undefined);
    assert.ok((sampleValue(samples, 'db_query_duration_seconds_count', { outcome: 'ok' }) ?? 0) > 0);
  });

  it('the worker reports queue depths and job outcomes after jobs ran', async () => {
    const samples = await waitFor('a relay job to complete', async () => {
      const s = await scrape(cell.worker.url);
      return (sampleValue(s, 'queue_job_outcomes_total', { queue: 'webhooks', job: 'webhooks.relay', outcome: 'completed' }) ?? 0) >= 1 ? s : undefined;
    });
    assert.ok((sampleValue(samples, 'queue_job_duration_seconds_count', { queue: 'webhooks', job: 'webhooks.relay' }) ?? 0) >= 1);
    for (const queue of ['maintenance', 'webhooks', 'deliveries']) {
      assert.ok(sampleValue(samples, 'queue_jobs', { queue, state: 'waiting' }) !== undefined, `queue_jobs ${queue}`);
    }
  });

  it('webhook deliveries: latency of every attempt, failures by class', async () => {
    for (const path of ['/ok', '/fail']) {
      const reply = await cell.call('POST', '/v1/webhooks', cell.admin, { url: `${receiverUrl}${path}`, eventTypes: ['tag.created'] });
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
    }
    assert.equal((await cell.call('POST', '/v1/tags', cell.admin, { name: 'Metered' })).status, 201);
    const samples = await waitFor('both deliveries to be measured', async () => {
      const s = await scrape(cell.worker.url);
      const ok = sampleValue(s, 'webhook_delivery_duration_seconds_count', { generation: 'v1', outcome: 'succeeded' }) ?? 0;
      const failed = sampleValue(s, 'webhook_delivery_failures_total', { generation: 'v1', reason: 'http_status' }) ?? 0;
      return ok >= 1 && failed >= 1 ? s : undefined;
    });
    assert.ok((sampleValue(samples, 'webhook_delivery_duration_seconds_count', { generation: 'v1', outcome: 'failed' }) ?? 0) >= 1);
  });

  it('with METRICS_TOKEN set, /metrics answers 401 without the bearer token and the text with it', async () => {
    const token = 'metrics-token-0123456789';
    const auth = await startApp(createAuthApp, testConfig({ DATABASE_URL: env.databaseUrl, REDIS_PREFIX: env.redisPrefix, METRICS_TOKEN: token }));
    try {
      const bare = await fetch(`${auth.url}/metrics`);
      assert.equal(bare.status, 401);
      assert.match(bare.headers.get('www-authenticate') ?? '', /^Bearer/);
      assert.equal(errorOf({ status: bare.status, body: await bare.json(), headers: bare.headers }).code, 'unauthenticated');
      assert.equal((await fetch(`${auth.url}/metrics`, { headers: { authorization: 'Bearer metrics-token-wrong-value' } })).status, 401);
      assert.equal((await fetch(`${auth.url}/metrics`, { headers: { authorization: `Bearer ${cell.admin}` } })).status, 401);
      const samples = await scrape(auth.url, { authorization: `Bearer ${token}` });
      assert.ok(samples.length > 0);
    } finally {
      await auth.close();
    }
  });

  it('with METRICS_ENABLED=false there is no /metrics route', async () => {
    const auth = await startApp(createAuthApp, testConfig({ DATABASE_URL: env.databaseUrl, REDIS_PREFIX: env.redisPrefix, METRICS_ENABLED: 'false' }));
    try {
      assert.equal((await fetch(`${auth.url}/metrics`)).status, 404);
    } finally {
      await auth.close();
    }
  });

  it('the parser refuses what is not the text format', () => {
    assert.throws(() => parsePrometheus('<html>not metrics</html>'));
  });
});
