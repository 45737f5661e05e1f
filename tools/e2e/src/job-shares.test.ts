import assert from 'node:assert/strict';
import { type JobShare, JobShares } from '@workcell/jobs';
import { useTestEnvironment } from '@workcell/testing';

/**
 * A job's share of its queue (libs/jobs shares.ts) on a real Redis: at most `limit` holders of one key, the others
 * wait and are handed a freed slot oldest first, and a dead holder's slot comes back when its lease ends.
 */
const env = useTestEnvironment();

describe('job shares', () => {
  let shares: JobShares;
  beforeAll(() => {
    shares = new JobShares(env.config);
  });
  afterAll(() => shares.close());

  const shareOf = (key: string, leaseMs = 60_000): JobShare<null> => ({ key: () => key, limit: () => 2, leaseMs: () => leaseMs, waitMs: () => 1_000 });

  it('admits the limit, queues the rest, and hands a freed slot to the job waiting longest', async () => {
    const share = shareOf('receiver-a');
    assert.deepEqual([await shares.acquire(share, null, 'a'), await shares.acquire(share, null, 'b')], [true, true]);
    assert.equal(await shares.acquire(share, null, 'c'), false);
    assert.equal(await shares.acquire(share, null, 'd'), false);
    assert.equal(await shares.acquire(share, null, 'c'), false, 'asking again keeps its place');
    assert.equal(await shares.acquire(share, null, 'a'), true, 'a holder asking again still holds');
    assert.equal(await shares.release(share, null, 'a'), 'c', 'the job waiting longest');
    assert.equal(await shares.acquire(share, null, 'c'), true);
    assert.equal(await shares.acquire(share, null, 'e'), false);
    assert.equal(await shares.release(share, null, 'b'), 'd');
    assert.equal(await shares.release(share, null, 'd'), 'e', 'a waiting job that passes its turn on hands it to the next');
    assert.equal(await shares.release(share, null, 'c'), null, 'nobody waiting');
    // Another key has slots of its own.
    assert.equal(await shares.acquire(shareOf('receiver-b'), null, 'x'), true);
  });

  it('frees a holder’s slot when its lease ends (its worker died)', async () => {
    const share = shareOf('receiver-c', 200);
    assert.deepEqual([await shares.acquire(share, null, 'a'), await shares.acquire(share, null, 'b'), await shares.acquire(share, null, 'c')], [true, true, false]);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(await shares.acquire(share, null, 'c'), true);
  });
});
