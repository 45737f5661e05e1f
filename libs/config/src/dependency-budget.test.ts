import assert from 'node:assert/strict';
import net from 'node:net';
import { Worker } from 'node:worker_threads';
import { setTimeout as sleep } from 'node:timers/promises';
import { currentDependencyBudget, DependencyBudget, dependencyDeadline, startDependencyCall, withDependencyBudget } from './dependency-budget.js';

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

  it('a deadline reads the answers that arrived before it expires (issue 25: a process late on its loop answered 503)', async () => {
    // A dependency on another thread (an echo server in a worker), so it answers while this thread is busy. It
    // raises a shared flag once its answer is written, so the busy wait below lasts until the answer has arrived,
    // however slowly a loaded machine schedules it. (A child process printing its port on stdout once hung CI
    // here for good; a worker's message and an Atomics flag cannot be lost on the way.)
    const answered = new Int32Array(new SharedArrayBuffer(4));
    const echo = new Worker(
      `const { parentPort, workerData } = require('node:worker_threads');
       const server = require('node:net').createServer((c) => c.on('data', (d) => c.write(d, () => { Atomics.store(workerData, 0, 1); })));
       server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));`,
      { eval: true, workerData: answered },
    );
    try {
      const port = await new Promise<number>((resolve, reject) => {
        echo.once('message', resolve);
        echo.once('error', reject);
      });
      const socket = net.connect(port, '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      let received = false;
      let expired = false;
      const cancel = dependencyDeadline(50, () => {
        expired = true;
      });
      socket.once('data', () => {
        received = true;
        cancel();
      });
      socket.write('ping');
      // The thread is busy past the deadline while the answer arrives: timers run before sockets are read. Bounded,
      // so a lost answer fails the test instead of spinning for ever.
      const until = Date.now() + 300;
      const giveUp = Date.now() + 30_000;
      while ((Date.now() < until || Atomics.load(answered, 0) === 0) && Date.now() < giveUp) {
        /* busy */
      }
      assert.equal(Atomics.load(answered, 0), 1, 'the echo answered within 30 s');
      await sleep(100);
      assert.deepEqual({ received, expired }, { received: true, expired: false });
      // With no answer it expires.
      const silent = await new Promise<boolean>((resolve) => dependencyDeadline(20, () => resolve(true)));
      assert.equal(silent, true);
      socket.destroy();
    } finally {
      await echo.terminate();
    }
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
