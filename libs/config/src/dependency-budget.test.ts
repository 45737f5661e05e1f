import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import net from 'node:net';
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
    // A dependency in another process (an echo server), so it answers while this process is busy.
    // It marks a file once its answer is on the way, so the busy wait below lasts until the answer has arrived,
    // however slowly a loaded machine schedules the child.
    const marker = join(mkdtempSync(join(tmpdir(), 'deadline-')), 'answered');
    const echo = spawn(process.execPath, ['-e', `const fs=require('fs');const s=require('net').createServer((c)=>c.on('data',(d)=>c.write(d,()=>fs.writeFileSync(${JSON.stringify(marker)},'')))).listen(0,'127.0.0.1',()=>console.log(s.address().port))`], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      // The port, from the child's whole first line (output may arrive in pieces, or after other lines).
      const port = await new Promise<number>((resolve, reject) => {
        let printed = '';
        echo.stdout.on('data', (d: Buffer) => {
          printed += d.toString();
          const found = /^(\d+)$/m.exec(printed);
          if (found) resolve(Number(found[1]));
        });
        echo.once('exit', () => reject(new Error(`the echo server exited: ${printed}`)));
      });
      const socket = net.connect(port, '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      let expired = false;
      let answered = false;
      const cancel = dependencyDeadline(50, () => {
        expired = true;
      });
      socket.once('data', () => {
        answered = true;
        cancel();
      });
      socket.write('ping');
      // The process is busy past the deadline while the answer arrives: timers run before sockets are read.
      const until = Date.now() + 300;
      while (Date.now() < until || !existsSync(marker)) {
        /* busy */
      }
      await sleep(100);
      assert.deepEqual({ answered, expired }, { answered: true, expired: false });
      // With no answer it expires.
      const silent = await new Promise<boolean>((resolve) => dependencyDeadline(20, () => resolve(true)));
      assert.equal(silent, true);
      socket.destroy();
    } finally {
      echo.kill();
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
