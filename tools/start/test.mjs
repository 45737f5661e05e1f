#!/usr/bin/env node
// `npm test`: the formatting (Prettier; `npm run format` fixes it), then typecheck, lint and every test project through
// Nx (Jest), then one closing line "N passed, N failed" summed over every project's Jest totals. A test file that
// could not run at all (it failed to load) counts as one failure of its project when no test of that project failed.
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { echoLines, JestTotals } from './jest-output.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const nx = `${root}node_modules/.bin/nx`;
// Checked first and reported, but the tests still run: one badly formatted file should not hide a failing test.
const formatted = spawnSync(`${root}node_modules/.bin/prettier`, ['--check', '--log-level', 'warn', '.'], { cwd: root, stdio: 'inherit' }).status === 0;
if (!formatted) process.stdout.write("Formatting: the files above differ from Prettier's; `npm run format` rewrites them.\n");
const args = ['run-many', '-t', 'typecheck', 'lint', 'test', '--output-style=stream', ...process.argv.slice(2)];
const child = spawn(nx, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
const totals = new JestTotals();
echoLines(child.stdout, (line) => totals.read(line));
child.on('exit', (code) => {
  process.stdout.write(`\n${totals}${formatted ? '' : ' (and the formatting check failed)'}\n`);
  process.exit(code || (formatted ? 0 : 1));
});
