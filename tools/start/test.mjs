#!/usr/bin/env node
// `npm test`: typecheck, lint and every test project through Nx (Jest), then one closing line
// "N passed, N failed" summed over every project's Jest totals. A test file that could not run at all (it failed
// to load) counts as one failure of its project when no test of that project failed.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { echoLines, JestTotals } from './jest-output.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const nx = `${root}node_modules/.bin/nx`;
const args = ['run-many', '-t', 'typecheck', 'lint', 'test', '--output-style=stream', ...process.argv.slice(2)];
const child = spawn(nx, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
const totals = new JestTotals();
echoLines(child.stdout, (line) => totals.read(line));
child.on('exit', (code) => {
  process.stdout.write(`\n${totals}\n`);
  process.exit(code ?? 1);
});
