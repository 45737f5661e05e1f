import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { runPaced } from './paced.js';

/** A server that notes when each request arrived (performance.now(), this process's clock) and answers 201. */
async function arrivalsServer(): Promise<{ server: Server; origin: string; arrivals: { at: number; body: string; key: string | undefined }[] }> {
  const arrivals: { at: number; body: string; key: string | undefined }[] = [];
  const server = createServer((req, res) => {
    const at = performance.now();
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      arrivals.push({ at, body, key: req.headers['idempotency-key'] as string | undefined });
      res.writeHead(201, { location: `/v1/tasks/t${arrivals.length}` }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, arrivals };
}

describe('the paced load', () => {
  it('sends rate × seconds requests, never one before it is due, where a per-second budget sends them at once', async () => {
    const { server, origin, arrivals } = await arrivalsServer();
    try {
      const start = performance.now();
      const result = await runPaced({
        origin,
        connections: 20,
        seconds: 1,
        overallRate: 40,
        method: 'POST',
        path: '/v1/tasks',
        body: { title: 'Task {n}' },
        idempotencyKey: true,
        tokens: [],
        collectCreatedIds: true,
      });
      assert.equal(result.requests, 40);
      assert.equal(result.ok, 40);
      assert.deepEqual(result.statuses, { 201: 40 });
      assert.equal(result.createdIds.length, 40);
      // Request n is due at start + (n − 1) × 25 ms: by start + 250 ms at most 11 can have left, however late the
      // machine runs them (a late one is late, never early); a per-second budget would have sent all 40 by then.
      assert.ok(arrivals.filter((a) => a.at < start + 250).length <= 11, JSON.stringify(arrivals.map((a) => Math.round(a.at - start))));
      assert.equal(new Set(arrivals.map((a) => a.body)).size, 40);
      assert.equal(new Set(arrivals.map((a) => a.key)).size, 40);
      assert.ok(result.p50 >= 0 && result.p99 >= result.p50);
    } finally {
      server.close();
    }
  });
});
