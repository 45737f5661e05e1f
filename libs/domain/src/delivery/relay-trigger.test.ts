import assert from 'node:assert/strict';
import type { RelayRun } from './relay.js';
import { RelayTrigger } from './relay-trigger.js';

const idle: RelayRun = { events: 0, deliveries: 0, busy: false, full: false };

/** A relay whose runs end only when the test says so, recording how many started. */
function controlledRelay(outcomes: RelayRun[] = []) {
  const pending: (() => void)[] = [];
  let started = 0;
  return {
    run: () => {
      started++;
      const outcome = outcomes.shift() ?? idle;
      return new Promise<RelayRun>((resolve) => pending.push(() => resolve(outcome)));
    },
    get started() {
      return started;
    },
    /** Ends the run in progress (waits until one has started). */
    async finishOne() {
      while (pending.length === 0) await new Promise((r) => setImmediate(r));
      pending.shift()!();
      await new Promise((r) => setImmediate(r));
    },
  };
}

describe('RelayTrigger', () => {
  it('collapses every wake-up during a run into exactly one more run', async () => {
    const relay = controlledRelay();
    const trigger = new RelayTrigger(relay.run);
    const first = trigger.wake();
    assert.equal(relay.started, 1);
    const during = Array.from({ length: 50 }, () => trigger.wake());
    assert.equal(relay.started, 1, 'no second run while one is in progress');
    await relay.finishOne();
    assert.equal(relay.started, 2, 'one more run for all the wake-ups that arrived meanwhile');
    await relay.finishOne();
    await Promise.all([first, ...during]);
    assert.equal(relay.started, 2);
    // Idle again: the next wake-up starts a run at once.
    const next = trigger.wake();
    assert.equal(relay.started, 3);
    await relay.finishOne();
    await next;
  });

  it('resolves a wake-up only after a run that started after it', async () => {
    const relay = controlledRelay();
    const trigger = new RelayTrigger(relay.run);
    void trigger.wake();
    let resolved = false;
    const late = trigger.wake().then(() => (resolved = true));
    await relay.finishOne();
    assert.equal(resolved, false, 'the run in progress may have read the outbox before this wake-up');
    await relay.finishOne();
    await late;
    assert.equal(resolved, true);
  });

  it('drains a backlog: a full batch asks for the next run at once', async () => {
    const relay = controlledRelay([
      { events: 200, deliveries: 200, busy: false, full: true },
      { events: 200, deliveries: 200, busy: false, full: true },
      { events: 3, deliveries: 3, busy: false, full: false },
    ]);
    const trigger = new RelayTrigger(relay.run);
    const done = trigger.wake();
    for (let i = 0; i < 3; i++) await relay.finishOne();
    await done;
    assert.equal(relay.started, 3);
  });

  it('retries when another process holds the relay lock', async () => {
    const relay = controlledRelay([
      { ...idle, busy: true },
      { ...idle, busy: true },
    ]);
    const trigger = new RelayTrigger(relay.run);
    const done = trigger.wake();
    for (let i = 0; i < 3; i++) await relay.finishOne();
    await done;
    assert.equal(relay.started, 3, 'two busy runs, then one that got the lock');
  });

  it('a failed run rejects its waiters and leaves the trigger usable', async () => {
    let fail = true;
    const trigger = new RelayTrigger(async () => {
      if (fail) throw new Error('database down');
      return idle;
    });
    await assert.rejects(trigger.wake(), /database down/);
    fail = false;
    await trigger.wake();
  });

  it('after stop, wake-ups run nothing', async () => {
    const relay = controlledRelay();
    const trigger = new RelayTrigger(relay.run);
    void trigger.wake();
    const stopped = trigger.stop();
    void trigger.wake();
    await relay.finishOne();
    await stopped;
    await trigger.wake();
    assert.equal(relay.started, 1);
  });
});
