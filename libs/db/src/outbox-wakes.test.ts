import assert from 'node:assert/strict';
import { OUTBOX_CHANNEL, outboxWaker } from './outbox-wakes.js';

/** The waker's own rules, with a recording `send` (outbox.test.ts covers the NOTIFY through PostgreSQL). */
describe('outboxWaker', () => {
  it('sends each workspace once for the wake-ups asked for together, on the outbox channel', async () => {
    const sent: [string, string[]][] = [];
    const waker = outboxWaker(async (channel, ids) => void sent.push([channel, ids]));
    for (const id of ['a', 'b', 'a', 'a', 'b']) waker.wake(id);
    await waker.idle();
    assert.deepEqual(sent, [[OUTBOX_CHANNEL, ['a', 'b']]]);
  });

  it('sends one statement at a time, at most one per interval, with everything asked for meanwhile', async () => {
    const sent: { at: number; ids: string[] }[] = [];
    let release!: () => void;
    const waker = outboxWaker(async (_channel, ids) => {
      sent.push({ at: Date.now(), ids });
      if (sent.length === 1) await new Promise<void>((resolve) => (release = resolve));
    }, 50);
    waker.wake('a');
    while (sent.length === 0) await new Promise((r) => setImmediate(r));
    // The first statement is out and unanswered: these wait for it, and then for the interval.
    waker.wake('b');
    waker.wake('c');
    waker.wake('b');
    await new Promise((r) => setTimeout(r, 10));
    assert.equal(sent.length, 1);
    release();
    await waker.idle();
    assert.deepEqual(
      sent.map((s) => s.ids),
      [['a'], ['b', 'c']],
    );
    assert.ok(sent[1]!.at - sent[0]!.at >= 45, `the second statement waited for the interval (${sent[1]!.at - sent[0]!.at} ms)`);
  });

  it('drops a wake-up whose statement failed and sends the next ones', async () => {
    const sent: string[][] = [];
    const waker = outboxWaker(async (_channel, ids) => {
      sent.push(ids);
      if (sent.length === 1) throw new Error('connection refused');
    }, 0);
    waker.wake('a');
    await waker.idle();
    waker.wake('b');
    await waker.idle();
    assert.deepEqual(sent, [['a'], ['b']]);
  });
});
