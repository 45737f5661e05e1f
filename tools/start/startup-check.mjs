#!/usr/bin/env node
// `npm run check:startup` (CI runs it; issue 25): `npm start` on a busy machine. Runs tools/start/start.mjs as a
// newcomer would, against a database of its own (made afresh) and free ports, and once the build is done keeps
// every core busy several times over (BUSY_PER_CORE busy processes per core) while the migrations, the seed and the
// four services start. It passes when start.mjs reports ready, the services answer (a v1 call with the printed
// token, a reference page and its script in a prebuilt coding), and Ctrl-C stops everything with exit 0.
// Plain JavaScript, like start.mjs. A few minutes at most; never run while another suite measures time.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const root = fileURLToPath(new URL('../../', import.meta.url));
const BUSY_PER_CORE = 5;
const DATABASE = 'workcell_startup_check';
const ADMIN_URL = process.env.STARTUP_CHECK_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const READY_WITHIN_MS = 6 * 60_000;
const started = Date.now();
const say = (line) => process.stdout.write(`[startup-check ${Math.round((Date.now() - started) / 1000)} s] ${line}\n`);

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function dropDatabase() {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
  await admin.end();
}

const busy = [];
let madeBusy = false;
function makeBusy() {
  madeBusy = true;
  const count = availableParallelism() * BUSY_PER_CORE;
  for (let i = 0; i < count; i++) busy.push(spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
  say(`${count} busy processes started`);
}
const calm = () => {
  for (const child of busy.splice(0)) child.kill('SIGKILL');
};

let launcher;
async function fail(message) {
  process.stderr.write(`startup check failed: ${message}\n`);
  calm();
  // SIGTERM: start.mjs stops the four services before it exits (a SIGKILL would leave them running).
  if (launcher && launcher.exitCode === null && launcher.signalCode === null) {
    const exited = new Promise((resolve) => launcher.once('exit', resolve));
    launcher.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 60_000))]);
  }
  process.exit(1);
}
process.on('SIGINT', () => fail('interrupted'));
process.on('SIGTERM', () => fail('terminated'));

await dropDatabase();
const ports = { API_V0_PORT: await freePort(), API_V1_PORT: await freePort(), AUTH_PORT: await freePort(), WORKER_PORT: await freePort() };
const logDir = mkdtempSync(`${tmpdir()}/workcell-startup-check-`);
const env = {
  ...process.env,
  ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])),
  DATABASE_URL: `postgresql://postgres@127.0.0.1:5432/${DATABASE}`,
  REDIS_PREFIX: `startup-check-${process.pid}:`,
  HOST: '127.0.0.1',
  V0_BASE_URL: `http://127.0.0.1:${ports.API_V0_PORT}`,
  V1_BASE_URL: `http://127.0.0.1:${ports.API_V1_PORT}`,
  WORKCELL_LOG_DIR: logDir,
  WORKCELL_START_TIMEOUT_S: String(READY_WITHIN_MS / 1000),
};
for (const name of ['DATABASE_DIRECT_URL', 'DATABASE_LISTEN_URL', 'REDIS_CLUSTER_NODES', 'DATABASE_STATEMENT_LOG']) delete env[name];

say(`npm start (node tools/start/start.mjs) on ports ${Object.values(ports).join(', ')}, database ${DATABASE}, logs in ${logDir}`);
launcher = spawn(process.execPath, ['tools/start/start.mjs'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
let output = '';
const ready = new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error(`not ready within ${READY_WITHIN_MS / 1000} s`)), READY_WITHIN_MS);
  const onData = (chunk) => {
    const text = chunk.toString();
    output += text;
    for (const line of text.split('\n')) if (line.trim() !== '' && !/token|curl|feed/.test(line)) say(`start: ${line.trim()}`);
    // Busy from the first step after the build: the build is Nx's, measured elsewhere; what failed was start-up.
    if (!madeBusy && output.includes('• applying migrations')) makeBusy();
    if (output.includes('Press Ctrl-C to stop.')) {
      clearTimeout(timer);
      resolve();
    }
  };
  launcher.stdout.on('data', onData);
  launcher.stderr.on('data', onData);
  launcher.on('exit', (code, signal) => reject(new Error(`npm start exited (${signal ?? code}) before it was ready; logs in ${logDir}`)));
});
await ready.catch((error) => fail(error.message));
say(`ready with ${busy.length} busy processes; checking the services`);

const token = /v1 personal access token\s+(\S+)/.exec(output)?.[1];
if (!token) await fail('npm start printed no v1 personal access token');
const v1 = `http://127.0.0.1:${ports.API_V1_PORT}`;
const v0 = `http://127.0.0.1:${ports.API_V0_PORT}`;
const checks = [
  [`${v1}/v1/auth/context`, { authorization: `Bearer ${token}` }, (r) => r.status === 200],
  [`${v1}/v1/docs/`, {}, (r) => r.status === 200 && (r.headers.get('content-type') ?? '').startsWith('text/html')],
  [`${v0}/docs/js/scalar.js`, { 'accept-encoding': 'br' }, (r) => r.status === 200 && r.headers.get('content-encoding') === 'br'],
  ...Object.entries(ports).map(([name, port]) => [`http://127.0.0.1:${port}/readyz`, {}, (r) => r.status === 200, name]),
];
for (const [url, headers, ok] of checks) {
  const answer = await fetch(url, { headers, signal: AbortSignal.timeout(60_000) }).catch((error) => fail(`${url}: ${error.message}`));
  await answer.arrayBuffer();
  if (!ok(answer)) await fail(`${url} answered ${answer.status} ${answer.headers.get('content-encoding') ?? ''}`);
}
calm();
say('every check answered; stopping with Ctrl-C (SIGINT)');

const exit = new Promise((resolve) => launcher.once('exit', (code, signal) => resolve(signal ?? code)));
launcher.kill('SIGINT');
const stopped = await Promise.race([exit, new Promise((resolve) => setTimeout(() => resolve('still running after 60 s'), 60_000))]);
if (stopped !== 0) await fail(`npm start did not stop cleanly: ${stopped}`);
for (const port of Object.values(ports)) {
  const open = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2_000) }).then(
    () => true,
    () => false,
  );
  if (open) await fail(`a service still answers on port ${port} after Ctrl-C`);
}
await dropDatabase();
rmSync(logDir, { recursive: true, force: true });
say('passed: npm start came up on a busy machine and stopped cleanly');
