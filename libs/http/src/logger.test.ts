import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

/** A process logging three lines through createLogger's standard-output destination, then exiting or idling. */
const child = (then: 'exit' | 'idle') => `
  const { createLogger } = await import(${JSON.stringify(fileURLToPath(new URL('./logger.js', import.meta.url)))});
  const logger = createLogger({ logLevel: 'info', region: 'r1', cell: 'c1' }, 'logger-test');
  for (let i = 0; i < 3; i++) logger.info({ i }, 'line');
  ${then === 'exit' ? 'process.exit(0);' : 'setInterval(() => undefined, 60_000);'}`;

const lines = (text: string) =>
  text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as { i: number; service: string; msg: string });

describe('request log destination (batched standard output)', () => {
  it('writes what is pending when the process exits at once', () => {
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', child('exit')], { encoding: 'utf8' });
    assert.equal(result.status, 0, result.stderr);
    assert.deepEqual(
      lines(result.stdout).map((l) => [l.service, l.msg, l.i]),
      [0, 1, 2].map((i) => ['logger-test', 'line', i]),
    );
  });

  it('writes a batch smaller than its size while the process keeps running (the periodic flush)', async () => {
    const running = spawn(process.execPath, ['--input-type=module', '-e', child('idle')], { stdio: ['ignore', 'pipe', 'inherit'] });
    // Without the flush the lines would never come: end the child so that the test fails instead of hanging.
    const giveUp = setTimeout(() => running.kill(), 20_000);
    let out = '';
    try {
      running.stdout.setEncoding('utf8');
      for await (const chunk of running.stdout) {
        out += chunk as string;
        if (out.split('\n').length > 3) break;
      }
      assert.deepEqual(
        lines(out).map((l) => l.i),
        [0, 1, 2],
      );
    } finally {
      clearTimeout(giveUp);
      running.kill();
      if (running.exitCode === null) await once(running, 'exit');
    }
  });
});
