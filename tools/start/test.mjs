#!/usr/bin/env node
// `npm test`: typecheck, lint and every test project through Nx, then one closing line
// "N passed, N failed" summed over every project's node:test summary.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const nx = `${root}node_modules/.bin/nx`;
const args = ['run-many', '-t', 'typecheck', 'lint', 'test', '--output-style=stream', ...process.argv.slice(2)];
const child = spawn(nx, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
let passed = 0;
let failed = 0;
let buffered = '';
child.stdout.on('data', (chunk) => {
  process.stdout.write(chunk);
  buffered += chunk.toString('utf8');
  const lines = buffered.split('\n');
  buffered = lines.pop() ?? '';
  for (const line of lines) {
    const pass = /#\s+pass\s+(\d+)\s*$/.exec(line);
    const fail = /#\s+fail\s+(\d+)\s*$/.exec(line);
    if (pass) passed += Number(pass[1]);
    if (fail) failed += Number(fail[1]);
  }
});
child.on('exit', (code) => {
  process.stdout.write(`\n${passed} passed, ${failed} failed\n`);
  process.exit(code ?? 1);
});
