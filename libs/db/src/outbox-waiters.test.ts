import assert from 'node:assert/strict';
import { type Clock, install } from '@sinonjs/fake-timers';
import { currentDependencyBudget, DependencyBudget, withDependencyBudget } from '@workcell/config';
import type { OutboxListener, OutboxListenerOptions } from './outbox.js';
import { type OutboxWaiter, OutboxWaiters, type WakeReason } from './outbox-waiters.js';

/**
 * The long poll's waiter registry without a database: a fake LISTEN session whose notifications and (re)connections
 * the tests fire by hand, and mocked timers for the deadlines, so nothing depends on how fast the machine is.
 */
describe('outbox waiters', () => {
  let session: Pick<OutboxListenerOptions, 'onEvent' | 'onListening'> | undefined;
  let started: number;
  let closed: number;
  let budgetAtStart: DependencyBudget | undefined | 'not started';
  let clock: Clock;

  const fakeListen = (options: Pick<OutboxListenerOptions, 'onEvent' | 'onListening'>): OutboxListener => {
    session = options;
    started++;
    budgetAtStart = currentDependencyBudget();
    return {
      listening: true,
      close: async () => void closed++,
    };
  };
  const registry = (maxWaiters = 100) => new OutboxWaiters({ maxWaiters, listen: fakeListen });

  /** What next() answered so far: the reason, or 'pending' once every timer and callback due now has run. */
  const state = async (next: Promise<WakeReason>): Promise<WakeReason | 'pending'> => Promise.race([next, new Promise<'pending'>((resolve) => setImmediate(() => resolve('pending')))]);

  beforeEach(() => {
    session = undefined;
    started = 0;
    closed = 0;
    budgetAtStart = 'not started';
    clock = install({ toFake: ['setTimeout', 'clearTimeout'] });
  });
  afterEach(() => clock.uninstall());

  it('a notification wakes only its workspace’s waiters, all of them', async () => {
    const waiters = registry();
    const a1 = waiters.take('ws-a', { timeoutMs: 10_000 })!;
    const a2 = waiters.take('ws-a', { timeoutMs: 10_000 })!;
    const b = waiters.take('ws-b', { timeoutMs: 10_000 })!;
    const [na1, na2, nb] = [a1.next(), a2.next(), b.next()];
    session!.onEvent('ws-a');
    assert.deepEqual([await state(na1), await state(na2), await state(nb)], ['event', 'event', 'pending']);
    session!.onEvent('ws-other');
    assert.equal(await state(nb), 'pending', 'a workspace nobody waits for wakes nobody');
    session!.onEvent('ws-b');
    assert.equal(await state(nb), 'event');
    for (const w of [a1, a2, b]) w.release();
    assert.equal(waiters.size, 0);
  });

  it('coalesces: wakes while the caller reads make next() answer once, at once; later calls wait for a new one', async () => {
    const waiters = registry();
    const waiter = waiters.take('ws-a', { timeoutMs: 10_000 })!;
    // Taken before the caller's read; three commits land while it reads.
    for (let i = 0; i < 3; i++) session!.onEvent('ws-a');
    assert.equal(await state(waiter.next()), 'event');
    const again = waiter.next();
    assert.equal(await state(again), 'pending', 'the burst was one wake');
    assert.equal(waiter.next(), again, 'a second call while waiting shares the first one’s answer');
    session!.onEvent('ws-a');
    assert.equal(await state(again), 'event');
    assert.equal(await state(waiter.next()), 'pending', 'a wake that resolved a waiting call leaves nothing pending');
    waiter.release();
  });

  it('ends at its deadline and gives its slot back', async () => {
    const waiters = registry();
    const waiter = waiters.take('ws-a', { timeoutMs: 5_000 })!;
    const next = waiter.next();
    clock.tick(4_999);
    assert.equal(await state(next), 'pending');
    clock.tick(1);
    assert.equal(await state(next), 'deadline');
    assert.equal(waiters.size, 0);
    assert.equal(await state(waiter.next()), 'deadline', 'an ended waiter answers its reason at once');
    session!.onEvent('ws-a');
    assert.equal(await state(waiter.next()), 'deadline', 'and is woken no more');
    waiter.release();
    assert.equal(waiters.size, 0, 'release after the end changes nothing');
  });

  it('a wake that came before the deadline is answered before the deadline is', async () => {
    const waiters = registry();
    const waiter = waiters.take('ws-a', { timeoutMs: 5_000 })!;
    // The caller is reading when the commit and then the deadline come.
    session!.onEvent('ws-a');
    clock.tick(5_000);
    assert.equal(waiters.size, 0);
    assert.equal(await state(waiter.next()), 'event');
    assert.equal(await state(waiter.next()), 'deadline');
  });

  it('counts the callers blocked in next() apart from those reading', async () => {
    const waiters = registry();
    const a = waiters.take('ws-a', { timeoutMs: 10_000 })!;
    const b = waiters.take('ws-b', { timeoutMs: 10_000 })!;
    assert.deepEqual([waiters.size, waiters.waiting], [2, 0]);
    const next = a.next();
    assert.deepEqual([waiters.size, waiters.waiting], [2, 1]);
    session!.onEvent('ws-a');
    assert.equal(await state(next), 'event');
    assert.deepEqual([waiters.size, waiters.waiting], [2, 0]);
    a.release();
    b.release();
  });

  it('every (re-)established LISTEN session wakes every waiter: what was committed while it was down was notified to nobody', async () => {
    const waiters = registry();
    const a = waiters.take('ws-a', { timeoutMs: 10_000 })!;
    const b = waiters.take('ws-b', { timeoutMs: 10_000 })!;
    // The first connection completes after the waiters were taken.
    session!.onListening!();
    assert.deepEqual([await state(a.next()), await state(b.next())], ['event', 'event']);
    const [na, nb] = [a.next(), b.next()];
    assert.deepEqual([await state(na), await state(nb)], ['pending', 'pending']);
    // A reconnection after the session was lost.
    session!.onListening!();
    assert.deepEqual([await state(na), await state(nb)], ['event', 'event']);
    a.release();
    b.release();
  });

  it('an aborted signal ends the waiter and frees its slot; an already aborted one gets none', async () => {
    const waiters = registry();
    const client = new AbortController();
    const waiter = waiters.take('ws-a', { timeoutMs: 10_000, signal: client.signal })!;
    const next = waiter.next();
    assert.equal(waiters.size, 1);
    client.abort();
    assert.equal(await state(next), 'aborted');
    assert.equal(waiters.size, 0, 'no leaked waiter');
    session!.onEvent('ws-a');
    assert.equal(await state(waiter.next()), 'aborted');
    assert.equal(waiters.take('ws-a', { timeoutMs: 10_000, signal: client.signal }), null);
    assert.equal(waiters.size, 0);
  });

  it('release() ends the waiter for good (the caller’s finally)', async () => {
    const waiters = registry();
    const waiter = waiters.take('ws-a', { timeoutMs: 10_000 })!;
    waiter.release();
    waiter.release();
    assert.equal(waiters.size, 0);
    assert.equal(await state(waiter.next()), 'aborted');
    clock.tick(10_000);
    assert.equal(waiters.size, 0, 'its deadline does not count it twice');
  });

  it('holds at most maxWaiters: beyond the cap take() answers null, and a freed slot is taken again', () => {
    const waiters = registry(2);
    const taken = [waiters.take('ws-a', { timeoutMs: 10_000 }), waiters.take('ws-b', { timeoutMs: 10_000 })];
    assert.ok(taken.every((w) => w !== null));
    assert.equal(waiters.take('ws-c', { timeoutMs: 10_000 }), null);
    taken[0]!.release();
    const again = waiters.take('ws-c', { timeoutMs: 10_000 });
    assert.ok(again);
    again.release();
    taken[1]!.release();
  });

  it('close() ends every waiter as closed at once, refuses new ones and closes the LISTEN session', async () => {
    const waiters = registry();
    const held: OutboxWaiter[] = [waiters.take('ws-a', { timeoutMs: 30_000 })!, waiters.take('ws-b', { timeoutMs: 30_000 })!];
    const nexts = held.map((w) => w.next());
    await waiters.close();
    assert.deepEqual(await Promise.all(nexts.map(state)), ['closed', 'closed']);
    assert.equal(waiters.size, 0);
    assert.equal(closed, 1);
    assert.equal(waiters.take('ws-a', { timeoutMs: 30_000 }), null, 'a request arriving during shutdown does not wait');
  });

  it('starts one LISTEN session, with the first waiter, outside the first caller’s request context', () => {
    const waiters = registry();
    assert.equal(started, 0, 'nothing listens before anyone waits');
    const first = withDependencyBudget(new DependencyBudget(2_000), () => waiters.take('ws-a', { timeoutMs: 10_000 }))!;
    assert.equal(started, 1);
    assert.equal(budgetAtStart, undefined, 'the session does not carry the first request’s dependency budget');
    const second = waiters.take('ws-b', { timeoutMs: 10_000 })!;
    assert.equal(started, 1);
    first.release();
    second.release();
  });
});
