import assert from 'node:assert/strict';
import { currentDependencyBudget, DependencyBudget, withDependencyBudget } from '@workcell/config';
import type { OutboxWaiter, WakeReason } from '@workcell/db';
import { awaitChanges } from './await-changes.js';
import type { ChangesPage } from './list-changes.js';
import type { ChangeView } from './view.js';

/** The long poll's loop with scripted reads and wakes: which reads it makes, from which cursor, in which budget. */

const item = (id: string) => ({ id }) as unknown as ChangeView;
const page = (cursor: string, items: string[] = [], more = false): ChangesPage => ({ items: items.map(item), limit: 50, nextCursor: cursor, more });

function scriptedReads(pages: ChangesPage[]) {
  const reads: { cursor: string | undefined; budget: DependencyBudget | undefined }[] = [];
  return {
    reads,
    read: async (cursor?: string) => {
      reads.push({ cursor, budget: currentDependencyBudget() });
      const next = pages.shift();
      if (!next) throw new Error('read more often than scripted');
      return next;
    },
  };
}

function scriptedWaiter(reasons: WakeReason[]): OutboxWaiter & { waits: number; releases: number } {
  return {
    waits: 0,
    releases: 0,
    async next() {
      this.waits++;
      const reason = reasons.shift();
      if (!reason) throw new Error('waited more often than scripted');
      return reason;
    },
    release() {
      this.releases++;
    },
  };
}

describe('awaitChanges (GET /v1/changes?wait=)', () => {
  it('answers a page with entries at once, without waiting', async () => {
    const { read, reads } = scriptedReads([page('c1', ['e1'])]);
    const waiter = scriptedWaiter([]);
    const answer = await awaitChanges(read, waiter, 2_000);
    assert.deepEqual(
      answer.items.map((i) => i.id),
      ['e1'],
    );
    assert.deepEqual([reads.length, waiter.waits, waiter.releases], [1, 0, 1]);
  });

  it('answers an empty page with more to read at once (a window of filtered-out events)', async () => {
    const { read } = scriptedReads([page('c1', [], true)]);
    const waiter = scriptedWaiter([]);
    const answer = await awaitChanges(read, waiter, 2_000);
    assert.deepEqual([answer.nextCursor, answer.more, waiter.waits, waiter.releases], ['c1', true, 0, 1]);
  });

  it('without a waiter (wait=0, or over the cap) answers the first read', async () => {
    const { read, reads } = scriptedReads([page('c1')]);
    const answer = await awaitChanges(read, null, 2_000);
    assert.deepEqual([answer.nextCursor, reads.length], ['c1', 1]);
  });

  it('caught up: waits, reads again from the last cursor after each wake, and answers the first page with entries', async () => {
    // The first wake is an event this credential may not see: the cursor advances, the page stays empty.
    const { read, reads } = scriptedReads([page('c1'), page('c2'), page('c3', ['e3'])]);
    const waiter = scriptedWaiter(['event', 'event']);
    const answer = await awaitChanges(read, waiter, 2_000);
    assert.deepEqual(
      answer.items.map((i) => i.id),
      ['e3'],
    );
    assert.deepEqual(
      reads.map((r) => r.cursor),
      [undefined, 'c1', 'c2'],
    );
    assert.deepEqual([waiter.waits, waiter.releases], [2, 1]);
  });

  it('at the deadline, when the client left or at shutdown: answers the page read last (its cursor advanced by the wakes), with no further read', async () => {
    for (const reason of ['deadline', 'aborted', 'closed'] as const) {
      const { read, reads } = scriptedReads([page('c1'), page('c2')]);
      const waiter = scriptedWaiter(['event', reason]);
      const answer = await awaitChanges(read, waiter, 2_000);
      assert.deepEqual([answer.nextCursor, reads.length, waiter.releases], ['c2', 2, 1], reason);
    }
  });

  it('releases the waiter when a read fails (a 503, an invalid cursor)', async () => {
    const waiter = scriptedWaiter(['event']);
    let reads = 0;
    const failing = async () => {
      if (++reads === 2) throw new Error('PostgreSQL did not answer');
      return page('c1');
    };
    await assert.rejects(awaitChanges(failing, waiter, 2_000), /did not answer/);
    assert.equal(waiter.releases, 1);
    const invalid = scriptedWaiter([]);
    await assert.rejects(
      awaitChanges(() => Promise.reject(new Error('invalid cursor')), invalid, 2_000),
      /invalid cursor/,
    );
    assert.equal(invalid.releases, 1);
  });

  it('the first read draws on the request’s dependency budget; each read after a wait has a budget of its own', async () => {
    const { read, reads } = scriptedReads([page('c1'), page('c2'), page('c3', ['e3'])]);
    const request = new DependencyBudget(2_000);
    await withDependencyBudget(request, () => awaitChanges(read, scriptedWaiter(['event', 'event']), 1_234));
    assert.equal(reads[0]!.budget, request);
    const later = reads.slice(1).map((r) => r.budget);
    assert.ok(later.every((b) => b instanceof DependencyBudget && b !== request && b.totalMs === 1_234));
    assert.notEqual(later[0], later[1], 'one budget per read, not one for the whole wait');
  });
});
