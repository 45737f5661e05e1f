import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { createRedis, type Redis } from '@workcell/redis';
import { useTestEnvironment } from '@workcell/testing';
import { consume, decodedPath, refund } from './rate-limit.js';

const env = useTestEnvironment();

describe('sliding-window rate limit', () => {
  let redis: Redis;
  beforeAll(() => {
    redis = createRedis(env.config, 'rate-limit-test');
  });
  afterAll(() => redis.quit());

  const take = (key: string, n: number, limit: number, windowMs: number) => Promise.all(Array.from({ length: n }, () => consume(redis, key, limit, 2000, windowMs)));

  it('admits exactly `limit` in a window, counting down, and tells when a slot frees up', async () => {
    const decisions = await take('a', 7, 5, 60_000);
    assert.deepEqual(decisions.map((d) => d.allowed).sort(), [false, false, true, true, true, true, true]);
    assert.deepEqual(
      decisions
        .filter((d) => d.allowed)
        .map((d) => d.remaining)
        .sort(),
      [0, 1, 2, 3, 4],
    );
    const refused = decisions.find((d) => !d.allowed)!;
    assert.equal(refused.remaining, 0);
    assert.ok(refused.retryAfterSeconds >= 59 && refused.retryAfterSeconds <= 60, String(refused.retryAfterSeconds));
  });

  it('holds for every window-long span: no burst across a boundary, refusals do not extend the wait', async () => {
    // Generous margins on both sides: a loaded CI machine may stall the event loop for a while.
    const windowMs = 3000;
    assert.equal(
      (await take('b', 5, 5, windowMs)).every((d) => d.allowed),
      true,
    );
    // Well inside the window from the first admissions (a fixed window aligned to the clock may have rolled over).
    await sleep(1200);
    assert.equal(
      (await take('b', 10, 5, windowMs)).some((d) => d.allowed),
      false,
      'still full 1.2 s later',
    );
    await sleep(2300);
    const later = await take('b', 6, 5, windowMs);
    assert.equal(later.filter((d) => d.allowed).length, 5, 'the refused requests were not counted');
  });

  it('keeps separate budgets per key', async () => {
    await take('c', 5, 5, 60_000);
    assert.equal((await consume(redis, 'c', 5, 2000, 60_000)).allowed, false);
    assert.equal((await consume(redis, 'd', 5, 2000, 60_000)).allowed, true);
  });

  it('gives a refunded slot back to the window', async () => {
    const [first] = await take('e', 1, 2, 60_000);
    await take('e', 1, 2, 60_000);
    assert.equal((await consume(redis, 'e', 2, 2000, 60_000)).allowed, false);
    await refund(redis, 'e', first!.slot, 2000);
    const again = await consume(redis, 'e', 2, 2000, 60_000);
    assert.equal(again.allowed, true);
    assert.equal(again.remaining, 0);
  });
});

describe('canonical paths', () => {
  it('decodes each segment, so every spelling of a path is one path', () => {
    assert.deepEqual(decodedPath('/teams'), decodedPath('/team%73'));
    assert.deepEqual(decodedPath('/teams'), decodedPath('/%74eams?page=2'));
    assert.deepEqual(decodedPath('/a%2Fb'), ['', 'a/b'], 'an encoded slash stays inside its segment');
    assert.deepEqual(decodedPath('/bad%zz'), ['', 'bad%zz'], 'a malformed escape stays as it is');
  });
});
