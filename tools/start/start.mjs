#!/usr/bin/env node
// `npm start`: build, migrate, seed the demo workspace, start the four services, wait until they are ready,
// and print their URLs, the demo tokens and two working curl commands. Ctrl-C stops everything gracefully.
// Plain JavaScript on purpose: it runs before anything is compiled.
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
// WORKCELL_LOG_DIR: another directory for the services' logs (the start-up check keeps its own).
const logDir = process.env.WORKCELL_LOG_DIR ?? `${root}.workcell/logs`;
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 19)) fail(`Node.js 20.19 or newer is required (this is ${process.versions.node}).`);

function fail(message) {
  process.stderr.write(`npm start: ${message}\n`);
  process.exit(1);
}

function step(title, command, args, { capture = false } = {}) {
  process.stdout.write(`• ${title}\n`);
  const result = spawnSync(command, args, { cwd: root, stdio: capture ? ['ignore', 'pipe', 'inherit'] : ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  if (result.status !== 0) fail(`${title} failed${result.stderr ? `:\n${result.stderr}` : ''}`);
  return result.stdout;
}

step('building', `${root}node_modules/.bin/nx`, ['run-many', '-t', 'build', '--output-style=static']);
const { loadConfigOrExit } = await import('@workcell/config');
const config = loadConfigOrExit();
step('applying migrations', process.execPath, ['tools/db/dist/migrate.js']);
// `npm start -- --keep-demo-tokens` (or WORKCELL_KEEP_DEMO_TOKENS=true): reuse the demo tokens of the last start
// while they still work, so a `workcell login` made with them survives a restart (they are saved, clear text,
// in .workcell/demo-tokens.json, mode 0600); by default each start mints new ones and revokes the old.
const keepDemoTokens = process.argv.includes('--keep-demo-tokens') || process.env.WORKCELL_KEEP_DEMO_TOKENS === 'true';
const seedArgs = keepDemoTokens ? ['--keep-demo-tokens', `${root}.workcell/demo-tokens.json`] : ['--refresh-demo-tokens'];
const seed = JSON.parse(step('seeding the demo workspace', process.execPath, ['tools/db/dist/seed.js', '--json', ...seedArgs], { capture: true }));

const services = [
  { name: 'auth', port: config.ports.auth },
  { name: 'worker', port: config.ports.worker },
  // reference: the service's API reference page (docs/reference.md).
  { name: 'api-v0', port: config.ports.apiV0, reference: '/docs' },
  { name: 'api-v1', port: config.ports.apiV1, reference: '/v1/docs' },
];
mkdirSync(logDir, { recursive: true });
let stopping = false;
const children = services.map((service) => {
  const log = createWriteStream(`${logDir}/${service.name}.log`, { flags: 'a' });
  const child = spawn(process.execPath, [`apps/${service.name}/dist/main.js`], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  child.on('exit', (code, signal) => {
    if (!stopping) {
      process.stderr.write(`${service.name} exited (${signal ?? code}); see ${logDir}/${service.name}.log\n`);
      stop(1);
    }
  });
  return child;
});

function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  process.stdout.write('\nstopping…\n');
  let alive = children.filter((c) => c.exitCode === null && c.signalCode === null);
  if (alive.length === 0) process.exit(code);
  for (const child of alive) {
    child.once('exit', () => {
      alive = alive.filter((c) => c !== child);
      if (alive.length === 0) process.exit(code);
    });
    child.kill('SIGTERM');
  }
}
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));

const host = config.host === '0.0.0.0' ? '127.0.0.1' : config.host;
const started = Date.now();
// A loaded machine starts the four services slowly, not wrongly (issue 25): wait while they live, say every 10 s
// which are still starting, and give up only after WORKCELL_START_TIMEOUT_S (default 300). A service that exits
// stops everything at once (above), naming its log.
const readyTimeoutMs = Number(process.env.WORKCELL_START_TIMEOUT_S ?? 300) * 1000;
process.stdout.write('• waiting for the services to be ready\n');
const waiting = new Set(services);
const progress = setInterval(() => {
  if (waiting.size > 0 && !stopping)
    process.stdout.write(`  still starting after ${Math.round((Date.now() - started) / 1000)} s: ${[...waiting].map((s) => `${s.name}${s.notReady ? ` (${s.notReady})` : ''}`).join(', ')}\n`);
}, 10_000);
await Promise.all(
  services.map(async (service) => {
    for (;;) {
      if (stopping) await new Promise(() => undefined);
      const report = await fetch(`http://${host}:${service.port}/readyz`, { signal: AbortSignal.timeout(5_000) }).then(
        async (r) => ({ status: r.status, checks: (await r.json().catch(() => ({}))).checks ?? {} }),
        () => ({ status: 0, checks: {} }),
      );
      if (report.status === 200) break;
      // What the service still waits for, from its readiness report (`auth: down, …`).
      const down = Object.entries(report.checks).filter(([, c]) => c.status !== 'up');
      service.notReady = report.status === 0 ? 'not listening yet' : down.map(([name, c]) => `${name}: ${c.reason ?? 'down'}`).join('; ');
      if (Date.now() - started > readyTimeoutMs) {
        process.stderr.write(`${service.name} is not ready after ${readyTimeoutMs / 1000} s; see ${logDir}/${service.name}.log\n`);
        stop(1);
        await new Promise(() => undefined);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    waiting.delete(service);
  }),
);
clearInterval(progress);

const tokens = seed.tokens;
const lines = [
  '',
  `Workcell is ready (${((Date.now() - started) / 1000).toFixed(1)} s). Logs: ${logDir}/`,
  '',
  ...services.map((s) => `  ${s.name.padEnd(7)} http://${host}:${s.port}   (/healthz, /readyz${s.reference ? `; API reference ${s.reference}` : ''})`),
  '',
];
if (tokens) {
  lines.push(
    seed.kept
      ? `Demo workspace ${tokens.workspaceId}. The tokens of the last start, kept (--keep-demo-tokens; saved in .workcell/demo-tokens.json):`
      : keepDemoTokens
        ? `Demo workspace ${tokens.workspaceId}. New tokens, kept across restarts from now on (--keep-demo-tokens; saved in .workcell/demo-tokens.json):`
        : `Demo workspace ${tokens.workspaceId}. These tokens are shown once; \`npm start\` mints new ones (revoking these) each time (\`npm start -- --keep-demo-tokens\` keeps them).`,
    `  v0 team token             ${tokens.v0TeamToken}`,
    `  v1 personal access token  ${tokens.personalAccessToken}`,
    `  v1 service-account token  ${tokens.serviceAccountCredential}`,
    `  calendar feed             ${config.baseUrls.v0}/calendar/${tokens.calendarFeedToken}.ics`,
    '',
    'Try:',
    `  curl -sS -H 'Authorization: Bearer ${tokens.v0TeamToken}' ${config.baseUrls.v0}/teams`,
    `  curl -sS -H 'Authorization: Bearer ${tokens.personalAccessToken}' ${config.baseUrls.v1}/v1/auth/context`,
    '',
  );
} else {
  lines.push('No demo workspace: the database already held other workspaces, so nothing was seeded.', '');
}
lines.push('Press Ctrl-C to stop.', '');
process.stdout.write(lines.join('\n'));
