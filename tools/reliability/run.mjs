#!/usr/bin/env node
// `npm run test:reliability`: runs the reliability checks (one test file each, one after another: each boots
// its own platform, and they would only compete for the CPU) with Jest, streams their output, and closes with
// each check's summary line. Exits non-zero on any finding, so CI fails.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { echoLines } from '../start/jest-output.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const jest = fileURLToPath(new URL('../../node_modules/jest/bin/jest.js', import.meta.url));
const started = Date.now();
// Jest (issue 12), one check file after another in one process (maxWorkers 1); arguments pass through to Jest
// (a path pattern runs one check: `npm run test:reliability -- races`).
// A check may run for many minutes on a busy machine: its bound (jest.timeouts.js) is 30 minutes unless set.
const env = { WORKCELL_TEST_TIMEOUT_MS: '1800000', ...process.env };
const child = spawn(process.execPath, [jest, '--config', 'jest.reliability.config.js', ...process.argv.slice(2)], { cwd: here, stdio: ['ignore', 'pipe', 'inherit'], env });
const summaries = [];
echoLines(child.stdout, (line) => {
  const summary = /^\s*#\s+([a-z0-9-]+: [\d,]+ requests.*)$/.exec(line);
  if (summary) summaries.push(summary[1]);
});
child.on('exit', (code) => {
  process.stdout.write(`\nreliability suite (${Math.round((Date.now() - started) / 1000)} s):\n${summaries.map((s) => `  ${s}`).join('\n')}\n`);
  process.exit(code ?? 1);
});
