import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { runPaced } from './paced.js';

/** A server that notes when each request arrived (performance.now(), this process's clock) and answers 201. */
async function arrivalsServer(answerAfterMs = 0): Promise<{ server: Server; origin: string; arrivals: { at: number; body: string; key: string | undefined }[] }> {
  const arrivals: { at: number; body: string; key: string | undefined }[] = [];
  const server = createServer((req, res) => {
    const at = performance.now();
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      arrivals.push({ at, body, key: req.headers['idempotency-key'] as string | undefined });
      const n = arrivals.length;
      setTimeout(() => res.writeHead(201, { location: `/v1/tasks/t${n}` }).end('{}'), answerAfterMs);
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

  it('counts a wait for a free connection in the latency, and does not send what was held back past the end', async () => {
    const { server, origin, arrivals } = await arrivalsServer(200);
    try {
      // One connection, 100 due a second for 0.5 s, each answered after 200 ms: sends at about 0, 200 and 400 ms.
      const result = await runPaced({ origin, connections: 1, seconds: 0.5, overallRate: 100, method: 'GET', path: '/tasks', tokens: [] });
      assert.ok(result.requests >= 1 && result.requests <= 3, `sent ${result.requests}`);
      assert.equal(arrivals.length, result.requests);
      // The second request was due at 10 ms and left after the first answer: its latency counts from when it was due.
      if (result.requests > 1) assert.ok(result.p99 >= 380, `p99 ${result.p99} ms`);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
