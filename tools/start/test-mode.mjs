#!/usr/bin/env node
// `node tools/start/test-mode.mjs redis-cluster|pgbouncer|scale-out [--list]`: runs, from the dist npm test built,
// the test files a harness infrastructure mode concerns (docs/scale-out.md), each project's with its own jest,
// under WORKCELL_TEST_REDIS=cluster, WORKCELL_TEST_PG=pgbouncer, or both with WORKCELL_TEST_INSTANCES=2 (scale-out,
// what CI runs, over the whole e2e suite). The files are
// chosen by a rule, not by hand: a file that starts services through the harness (useTestEnvironment: its configs
// follow the mode) and whose source names a component that depends on what the mode changes, or that drives every
// registry operation (each request passes the Redis rate limit and runs its statements through the pooler).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

// The registry-driven suites: they iterate the registry's operations.
const EVERY_OPERATION = /\bv[01]Operations\b/;
// Redis: its clients (@workcell/redis, BullMQ through @workcell/jobs and the worker), the rate limits and the
// authorization epochs read with them, readiness.
const REDIS = /@workcell\/redis|@workcell\/jobs|createWorkerApp|x-ratelimit|RateLimit|readyz|changingAuthorization|VerifiedCredentials/;
// PostgreSQL sessions: LISTEN/NOTIFY (the relay, the change feed's wait), advisory locks, migrations, and the
// worker that holds them.
const SESSIONS = /LISTEN|DATABASE_LISTEN_URL|DATABASE_DIRECT_URL|advisory|withRelayLock|createWorkerApp|migrate\(|wait=/;

const either = (...patterns) => ({ test: (text) => patterns.some((p) => p.test(text)) });
const MODES = {
  'redis-cluster': { env: { WORKCELL_TEST_REDIS: 'cluster' }, names: either(REDIS, EVERY_OPERATION) },
  pgbouncer: { env: { WORKCELL_TEST_PG: 'pgbouncer' }, names: either(SESSIONS, EVERY_OPERATION) },
  // What CI runs: both infrastructure modes with two instances of every service, over the whole e2e suite (every
  // file that boots the platform) and the other projects' files the rule picks.
  'scale-out': {
    env: { WORKCELL_TEST_REDIS: 'cluster', WORKCELL_TEST_PG: 'pgbouncer', WORKCELL_TEST_INSTANCES: '2' },
    names: either(REDIS, SESSIONS, EVERY_OPERATION),
    whole: new Set(['tools/e2e']),
  },
};

const [modeName, flag] = process.argv.slice(2);
const mode = MODES[modeName];
if (!mode) {
  console.error(`usage: test-mode.mjs ${Object.keys(MODES).join('|')} [--list]`);
  process.exit(2);
}

function* testSources(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* testSources(path);
    else if (entry.name.endsWith('.test.ts')) yield path;
  }
}

const byProject = new Map();
for (const group of ['libs', 'apps', 'tools']) {
  for (const project of readdirSync(join(root, group))) {
    const dir = join(root, group, project);
    if (!existsSync(join(dir, 'jest.config.js')) || !existsSync(join(dir, 'src'))) continue;
    for (const source of testSources(join(dir, 'src'))) {
      const text = readFileSync(source, 'utf8');
      const whole = mode.whole?.has(relative(root, dir)) ?? false;
      if (!text.includes('useTestEnvironment') || !(whole || mode.names.test(text))) continue;
      const compiled = join('dist', relative(join(dir, 'src'), source)).replace(/\.ts$/, '.js');
      if (!byProject.has(dir)) byProject.set(dir, []);
      byProject.get(dir).push(compiled);
    }
  }
}

if (flag === '--list') {
  for (const [dir, files] of byProject) for (const file of files) console.log(join(relative(root, dir), file));
  process.exit(0);
}

let failed = false;
for (const [dir, files] of byProject) {
  console.log(`\n${modeName}: ${relative(root, dir)} (${files.length} files)`);
  const result = spawnSync(join(root, 'node_modules/.bin/jest'), files, { cwd: dir, stdio: 'inherit', env: { ...process.env, ...mode.env } });
  if (result.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
