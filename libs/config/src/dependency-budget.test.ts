import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { currentDependencyBudget, DependencyBudget, startDependencyCall, withDependencyBudget } from './dependency-budget.js';

describe('dependency budget', () => {
  it('outside a request a call gets the fallback and nothing is counted', () => {
    assert.equal(currentDependencyBudget(), undefined);
    assert.equal(startDependencyCall(2_000).timeoutMs, 2_000);
  });

  it('runs only while a call is outstanding, once for concurrent calls, and is shared by every call of the request', async () => {
    const budget = new DependencyBudget(1_000);
    await withDependencyBudget(budget, async () => {
      await sleep(200); // the request's own work: not a dependency's time
      assert.ok(budget.remaining() >= 990);
      const a = startDependencyCall(2_000);
      const b = startDependencyCall(2_000);
      assert.ok(a.timeoutMs <= 1_000 && b.timeoutMs <= 1_000, 'a call never gets more than the rest of the budget');
      await sleep(300);
      a.end();
      b.end();
      a.end(); // idempotent
      const left = budget.remaining();
      assert.ok(left <= 720 && left >= 500, `two concurrent 300 ms calls spend 300 ms, left ${left}`);
      const c = startDependencyCall(2_000);
      assert.ok(c.timeoutMs <= left);
      c.end();
    });
  });

  it('a spent budget gives the next call no time at all', async () => {
    const budget = new DependencyBudget(100);
    await withDependencyBudget(budget, async () => {
      const call = startDependencyCall(2_000);
      await sleep(150);
      call.end();
      assert.equal(startDependencyCall(2_000).timeoutMs, 0);
    });
  });

  it('follows the request across asynchronous work, and not beyond it', async () => {
    const budget = new DependencyBudget(500);
    const seen = await withDependencyBudget(budget, async () => {
      await sleep(1);
      return new Promise((resolve) => setImmediate(() => resolve(currentDependencyBudget())));
    });
    assert.equal(seen, budget);
    assert.equal(currentDependencyBudget(), undefined);
  });
});
