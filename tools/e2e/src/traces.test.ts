import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { captureLogger } from '@workcell/http/testing';
import { stopTracing } from '@workcell/telemetry';
import { useTestEnvironment, waitFor } from '@workcell/testing';
import { useV1Cell } from './support/cell.js';

/**
 * OpenTelemetry traces (issue 15, docs/observability.md): the services export spans over OTLP/HTTP (JSON) to the
 * configured endpoint, here a receiver in this file. A request's `traceparent` is continued by its server span; its
 * statements, the auth service's handling of its internal call, and the webhook delivery its event causes (across
 * the outbox and the worker) all belong to the same trace.
 */

interface OtlpSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly name: string;
  readonly kind: number;
  readonly attributes: readonly { key: string; value: { stringValue?: string; intValue?: string | number } }[];
}

const spans: OtlpSpan[] = [];
const collector: Server = createServer((req, res) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString()));
  req.on('end', () => {
    if (req.method === 'POST' && req.url === '/v1/traces' && /json/.test(req.headers['content-type'] ?? '')) {
      const document = JSON.parse(body) as { resourceSpans?: { scopeSpans?: { spans?: OtlpSpan[] }[] }[] };
      for (const resource of document.resourceSpans ?? []) for (const scope of resource.scopeSpans ?? []) spans.push(...(scope.spans ?? []));
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
const collectorUrl = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;

const receiver: Server = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(200).end());
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

const env = useTestEnvironment({ OTEL_EXPORTER_OTLP_ENDPOINT: collectorUrl, OTEL_BSP_SCHEDULE_DELAY: '50' });

const attribute = (span: OtlpSpan, key: string) => {
  const value = span.attributes.find((a) => a.key === key)?.value;
  return value?.stringValue ?? value?.intValue;
};
const hex = (bytes: number) => randomBytes(bytes).toString('hex');

describe('traces', () => {
  // api-v1's log lines, to find the trace ids on them.
  const logs: ReturnType<typeof captureLogger>[] = [];
  const cell = useV1Cell(env, {
    logger: (config, service) => {
      if (service !== 'api-v1') return undefined;
      const capture = captureLogger(config, service);
      logs.push(capture);
      return capture.logger;
    },
  });

  afterAll(async () => {
    // Tracing is per process: turn it off so later test files in this worker do not export.
    await stopTracing();
    for (const server of [collector, receiver]) {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });

  it("a request's traceparent is continued by its server span, its statements and the webhook delivery it causes", async () => {
    const hook = await cell.call('POST', '/v1/webhooks', cell.admin, { url: `${receiverUrl}/hook`, eventTypes: ['tag.created'] });
    assert.equal(hook.status, 201, JSON.stringify(hook.body));
    const traceId = hex(16);
    const callerSpanId = hex(8);
    const created = await cell.call('POST', '/v1/tags', cell.admin, { name: 'Traced' }, { traceparent: `00-${traceId}-${callerSpanId}-01` });
    assert.equal(created.status, 201);

    const inTrace = () => spans.filter((s) => s.traceId === traceId);
    const server = await waitFor('the server span', () => inTrace().find((s) => s.name === 'createTag'));
    assert.equal(server.parentSpanId, callerSpanId);
    assert.equal(server.kind, 2); // SERVER
    assert.equal(attribute(server, 'workcell.service'), 'api-v1');
    assert.equal(Number(attribute(server, 'http.response.status_code')), 201);
    // The request's log line names the trace and its server span.
    const line = await waitFor('the request log line', () => logs.flatMap((l) => l.lines()).find((l) => l['msg'] === 'request' && l['trace_id'] === traceId));
    assert.equal(line['span_id'], server.spanId);
    // The INSERT of the tag (and its outbox event) is a child span of the server span.
    const statements = inTrace().filter((s) => s.name.startsWith('db ') && s.parentSpanId === server.spanId);
    assert.ok(
      statements.some((s) => s.name === 'db INSERT' || s.name === 'db WITH'),
      JSON.stringify(statements.map((s) => s.name)),
    );
    // The delivery of the event the request appended, made by the worker after the relay read the outbox.
    const delivery = await waitFor('the webhook delivery span', () => inTrace().find((s) => s.name === 'webhook.deliver'));
    assert.equal(attribute(delivery, 'workcell.webhook.generation'), 'v1');
    assert.equal(Number(attribute(delivery, 'http.response.status_code')), 200);
  });

  it("an internal call to the auth service continues the request's trace there", async () => {
    const traceId = hex(16);
    const reply = await cell.call('POST', '/v1/credentials', cell.admin, { name: 'traced', scopes: ['workspace:read'] }, { traceparent: `00-${traceId}-${hex(8)}-01` });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    const inTrace = () => spans.filter((s) => s.traceId === traceId);
    const api = await waitFor('the api-v1 span', () => inTrace().find((s) => s.name === 'createCredential'));
    const auth = await waitFor('the auth service span', () => inTrace().find((s) => attribute(s, 'workcell.service') === 'auth'));
    assert.equal(auth.parentSpanId, api.spanId);
    assert.equal(auth.name, '/trpc/:path'); // the route template, never the procedure path as sent
    // The auth service's own statements are in the trace too, under its span.
    await waitFor('an auth statement span', () => inTrace().find((s) => s.name.startsWith('db ') && s.parentSpanId === auth.spanId));
  });

  it('a request without traceparent starts a trace of its own; a malformed one is ignored', async () => {
    const before = spans.length;
    assert.equal((await cell.call('GET', '/v1/tags', cell.admin, undefined, { traceparent: 'not-a-traceparent' })).status, 200);
    const root = await waitFor('the root span', () => spans.slice(before).find((s) => s.name === 'listTags'));
    assert.equal(root.parentSpanId ?? '', '');
    assert.match(root.traceId, /^[0-9a-f]{32}$/);
  });
});
