import assert from 'node:assert/strict';
import { request } from 'node:http';
import { EventReceiver, latencyPercentiles, SilentReceiver, waitUntil } from './receivers.js';

const post = (url: string, body: unknown) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('benchmark webhook receivers', () => {
  it('notes the first arrival of each event against its timestamp and counts repeats', async () => {
    const receiver = await EventReceiver.start(0);
    try {
      assert.match(receiver.url, /^http:\/\/127\.0\.0\.1:\d+\/hook$/);
      const timestamp = new Date(Date.now() - 50).toISOString();
      assert.equal((await post(receiver.url, { type: 'task.created', timestamp, data: { resourceId: 'a' } })).status, 200);
      assert.equal((await post(receiver.url, { type: 'task.created', timestamp, data: { resourceId: 'a' } })).status, 200);
      assert.equal((await post(receiver.url, { type: 'task.created', timestamp, data: { resourceId: 'x' } })).status, 200);
      assert.equal((await post(receiver.url, { type: 'task.updated', timestamp, data: { resourceId: 'b' } })).status, 200);
      const summary = receiver.summary(['a', 'b']);
      assert.equal(summary.latencies.length, 1);
      assert.ok(summary.latencies[0]! >= 50, String(summary.latencies[0]));
      assert.deepEqual(summary.lost, ['b']);
      assert.equal(summary.repeated, 1);
      assert.equal(summary.unanswered, 1);
      assert.equal(receiver.deliveries, 3);
    } finally {
      await receiver.close();
    }
  });

  it('takes p50 / p95 / p99 by nearest rank, NaN for none', () => {
    assert.deepEqual(latencyPercentiles(Array.from({ length: 100 }, (_, i) => i + 1)), { p50: 50, p95: 95, p99: 99 });
    assert.ok(Number.isNaN(latencyPercentiles([]).p99));
  });

  it('holds connections without answering, up to its bound, and lets them go when closed', async () => {
    const silent = await SilentReceiver.start(0, 2);
    const { port } = new URL(silent.url);
    const outcomes: Promise<string>[] = [];
    for (let i = 0; i < 3; i++) {
      outcomes.push(
        new Promise((resolve) => {
          const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/hook', agent: false }, (res) => resolve(`answered ${res.statusCode}`));
          req.on('error', (error) => resolve(`error ${(error as NodeJS.ErrnoException).code ?? error.message}`));
          req.end('{"type":"task.created"}');
        }),
      );
    }
    assert.ok(await waitUntil(() => silent.accepted === 2 && silent.dropped === 1 && silent.bytes > 0, 5_000, 10), JSON.stringify(silent));
    assert.equal(silent.heldNow, 2);
    assert.equal(silent.maxHeldAtOnce, 2);
    await silent.close();
    const results = await Promise.all(outcomes);
    assert.ok(
      results.every((r) => r.startsWith('error')),
      results.join(', '),
    );
  });

  it('waits until a condition holds, or gives up after the timeout', async () => {
    let n = 0;
    assert.equal(await waitUntil(() => ++n >= 3, 1_000, 1), true);
    assert.equal(await waitUntil(() => false, 20, 5), false);
  });
});
