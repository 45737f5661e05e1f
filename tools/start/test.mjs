#!/usr/bin/env node
// `npm test`: typecheck, lint and every test project through Nx (Jest), then one closing line
// "N passed, N failed" summed over every project's Jest totals. A test file that could not run at all (it failed
// to load) counts as one failure of its project when no test of that project failed.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const nx = `${root}node_modules/.bin/nx`;
const args = ['run-many', '-t', 'typecheck', 'lint', 'test', '--output-style=stream', ...process.argv.slice(2)];
const child = spawn(nx, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
let passed = 0;
let failed = 0;
/** Each project's failed test files, by the line prefix Nx gives its output, until its Tests line. */
const failedSuites = new Map();
let buffered = '';
child.stdout.on('data', (chunk) => {
  process.stdout.write(chunk);
  buffered += chunk.toString('utf8');
  const lines = buffered.split('\n');
  buffered = lines.pop() ?? '';
  for (const raw of lines) {
    // eslint-disable-next-line no-control-regex -- Jest colours its summary
    const line = raw.replace(/\u001b\[[0-9;]*m/g, '');
    const suites = /^(.*)Test Suites:\s+(?:(\d+) failed)?/.exec(line);
    if (suites) failedSuites.set(suites[1], Number(suites[2] ?? 0));
    const tests = /^(.*)Tests:\s+(.*?)\d+ total/.exec(line);
    if (!tests) continue;
    const count = (what) => Number(new RegExp(`(\\d+) ${what}`).exec(tests[2])?.[1] ?? 0);
    passed += count('passed');
    failed += Math.max(count('failed'), failedSuites.get(tests[1]) ?? 0);
    failedSuites.delete(tests[1]);
  }
});
child.on('exit', (code) => {
  process.stdout.write(`\n${passed} passed, ${failed} failed\n`);
  process.exit(code ?? 1);
});
