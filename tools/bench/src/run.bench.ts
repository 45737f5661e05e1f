import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createTcpServer } from 'node:net';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { type AppConfig, loadConfig } from '@workcell/config';
import { createDatabase, createWorkspace, type Database, issueCredential, issueTeamToken, seedDemoWorkspaceIfEmpty, inTransaction } from '@workcell/db';
import { createTestDatabase, dropRedisPrefix, type TestDatabase } from '@workcell/testing';
import { KEYSET_MAX_RATIO, measureKeysetPagination } from './keyset-pagination.bench.js';
import { measureCompiledSerialization } from './serialization.bench.js';
import type { LoadResult, LoadSpec } from './load-spec.js';
import { median, percentile } from './ratio.js';
import { EventReceiver, latencyPercentiles, SilentReceiver, waitUntil } from './receivers.js';
import { type CreateStatements, type RecordedRead, type RecordedStatement, UNSEQUENCED_START } from './recorded-statements.js';
import { renderDocument, type Row, textTable } from './report.js';

/**
 * `npm run bench` (issue 11): the whole stack side by side with a bare Fastify + pg baseline, in one run.
 * Seeds a database of its own, starts the four services as production processes and the baseline server,
 * drives load from a separate autocannon process on 127.0.0.1 (pairs alternate baseline and candidate), measures
 * webhook latency (alone, and beside receivers that never answer), change-feed latency and each service's memory,
 * prints a table and (full mode, all rows) writes docs/performance.md. Targets are engineering targets: a missed
 * one never fails the run; a harness error does (a service that does not start or dies, too many non-2xx answers, a
 * lost webhook delivery).
 *
 *   npm run bench                     full mode (rounds of 10 s, 100,000 tasks for the deep page, 30 s of events)
 *   npm run bench -- --smoke          a short run that keeps the harness working (CI)
 *   npm run bench -- --only v1-get    one row (repeatable or comma-separated); see ROW_IDS
 *   npm run bench -- --profile DIR    a V8 CPU profile of each service, written when it stops
 */

const ROW_IDS = ['keyset', 'v1-get', 'v0-get', 'v1-list', 'search', 'v0-deep-page', 'v1-create', 'ledger', 'create-ledger', 'webhooks', 'changes', 'rss', 'webhooks-fairness'] as const;
type RowId = (typeof ROW_IDS)[number];

const { values } = parseArgs({
  options: {
    smoke: { type: 'boolean', default: false },
    only: { type: 'string', multiple: true },
    'keep-logs': { type: 'boolean', default: false },
    // Writes a V8 CPU profile of each service (and the baseline) into this folder when it stops (.cpuprofile).
    profile: { type: 'string' },
  },
});
const profileArgs = values.profile === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${resolve(values.profile)}`];
const only = (values.only ?? []).flatMap((v) => v.split(',')).filter((v) => v !== '');
for (const id of only) if (!(ROW_IDS as readonly string[]).includes(id)) fail(`--only ${id}: unknown row; rows: ${ROW_IDS.join(', ')}`);
const wanted = (id: RowId) => only.length === 0 || only.includes(id);
const SMOKE = values.smoke;

/**
 * fairness*: the webhooks-fairness row (events per second in each of its two workspaces, seconds, drain). Its smoke
 * backlog is small enough that an engine serving deliveries strictly in order, each silent attempt holding a slot
 * for the default 10 s, still clears it within the drain: the smoke proves the harness, the full run measures.
 */
const MODE = SMOKE
  ? {
      warmupSeconds: 0,
      pairSeconds: 2,
      rounds: 1,
      readIds: 2_000,
      deepRows: 20_000,
      deepRounds: 1,
      eventRate: 20,
      eventSeconds: 5,
      drainSeconds: 30,
      fairnessRate: 5,
      fairnessSeconds: 5,
      fairnessDrainSeconds: 60,
      rssSettleSeconds: 1,
      keysetRows: 20_000,
      keysetRounds: 20,
      serializationRounds: 10,
    }
  : {
      warmupSeconds: 2,
      pairSeconds: 10,
      rounds: 3,
      readIds: 2_000,
      deepRows: 100_000,
      // One page at a time, about 50 ms each: enough rounds that one disturbed stretch of the machine does not decide the median.
      deepRounds: 11,
      eventRate: 200,
      eventSeconds: 30,
      drainSeconds: 120,
      fairnessRate: 200,
      fairnessSeconds: 30,
      fairnessDrainSeconds: 120,
      // V8's memory reducer starts about 8 s after a full collection and may take a few more (measured: 20 s).
      rssSettleSeconds: 30,
      keysetRows: 1_000_000,
      keysetRounds: 200,
      serializationRounds: 200,
    };
const CONNECTIONS = 20;
/** How long the event rows wait for the worker to publish what the rows before them wrote (relayCaughtUp). */
const RELAY_CATCH_UP_S = 300;
const V0_PAGE_SIZE = 500;
const V0_TEAM_TOKENS = 20;
/**
 * Non-2xx answers or connection errors above this share of a load run make the row a harness error. The smoke run
 * (CI) only proves the harness and the stack still work together, on whatever else the machine is doing: there
 * only a stack that mostly fails is an error (an overloaded machine's 503s within the dependency budget are not).
 */
const MAX_FAILED_SHARE = SMOKE ? 0.5 : 0.01;
/** The change-feed follower's long poll: a caught-up request is held up to this long for the next commit. */
const FOLLOWER_WAIT_SECONDS = 10;

/**
 * Ports 47100–47199 belong to this benchmark's services, which all listen before the first load run. Every webhook
 * receiver takes a port the system assigns, because it starts mid-run: the fixed ports lie within Linux's default
 * range of outgoing (ephemeral) ports, and by then one of the run's many outgoing connections may hold it (a CI run
 * failed with EADDRINUSE on a fixed receiver port that had been free at the start).
 */
const PORTS = { apiV0: 47101, apiV1: 47102, auth: 47103, worker: 47104, baseline: 47105, apiV1Unlogged: 47107 } as const;
/** The most connections each silent receiver of `webhooks-fairness` holds at once (further ones it closes at once). */
const SILENT_MAX_HELD = 1_000;
const origin = (port: number) => `http://127.0.0.1:${port}`;

const distDir = fileURLToPath(new URL('.', import.meta.url));
const root = fileURLToPath(new URL('../../../', import.meta.url));
const started = Date.now();
const clock = () => {
  const s = Math.round((Date.now() - started) / 1000);
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
};
const progress = (line: string) => process.stdout.write(`[${clock()}] ${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function fail(message: string): never {
  process.stderr.write(`bench: ${message}\n`);
  process.exit(2);
}

// ---------------------------------------------------------------------------------------------------------
// Clean-up: children are stopped and the database and Redis keys dropped on every exit path, Ctrl-C included.

const cleanups: (() => Promise<void>)[] = [];
const children = new Set<ChildProcess>();
/** Harness errors seen outside a row (a service that died): they fail the run. */
const harnessErrors: string[] = [];
/** Set once the services are meant to stop: their exits are no longer errors. */
let stopping = false;
/** The run's temporary directory: service logs and load specs. */
let workDir = '';
let cleaning: Promise<void> | undefined;
function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    for (const step of cleanups.reverse()) {
      try {
        await step();
      } catch (error) {
        process.stderr.write(`bench: clean-up step failed: ${(error as Error).message}\n`);
      }
    }
  })();
  return cleaning;
}
/** Set on Ctrl-C: no further load starts while the clean-up runs. */
let interrupted = false;
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    stopping = true;
    process.stderr.write(`\nbench: ${signal}; stopping the services and dropping the database\n`);
    void cleanup().finally(() => {
      if (workDir !== '' && !values['keep-logs']) rmSync(workDir, { recursive: true, force: true });
      process.exit(code);
    });
  });
}
for (const event of ['uncaughtException', 'unhandledRejection'] as const) {
  process.on(event, (error) => {
    process.stderr.write(`bench: ${(error as Error)?.stack ?? String(error)}\n`);
    void cleanup().finally(() => process.exit(1));
  });
}
// Last resort if the process ends any other way: no child outlives the benchmark.
process.on('exit', () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

// ---------------------------------------------------------------------------------------------------------
// Processes

interface Service {
  readonly name: string;
  readonly child: ChildProcess;
  readonly log: string;
}

function startProcess(name: string, args: string[], env: Record<string, string>, logDir: string): Service {
  const log = join(logDir, `${name}.log`);
  const fd = openSync(log, 'a');
  const child = spawn(process.execPath, [...profileArgs, ...args], { cwd: root, env, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  children.add(child);
  child.on('exit', (code, signal) => {
    children.delete(child);
    if (!stopping) harnessErrors.push(`${name} exited (${signal ?? code}) during the run; see ${log}`);
  });
  cleanups.push(() => stopChild(child));
  return { name, child, log };
}

async function waitReady(service: Service, port: number, timeoutMs = 90_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (service.child.exitCode !== null || service.child.signalCode !== null) throw new Error(`${service.name} exited before it was ready; see ${service.log}`);
    const status = await fetch(`${origin(port)}/readyz`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return;
    if (Date.now() > until) throw new Error(`${service.name} is not ready after ${timeoutMs / 1000} s; see ${service.log}`);
    await sleep(250);
  }
}

/**
 * Waits up to 70 s for a port in use: an earlier run's outgoing connection may hold it in TIME_WAIT for up to a
 * minute (see PORTS; the webhooks-fairness row has the worker open and time out many connections).
 */
async function assertPortFree(port: number): Promise<void> {
  const free = () =>
    new Promise<boolean>((resolve) => {
      const probe = createTcpServer();
      probe.once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
  const until = Date.now() + 70_000;
  for (let told = false; !(await free()); told = true) {
    if (interrupted || Date.now() > until) throw new Error(`port ${port} is in use (another benchmark running?); the benchmark uses 47100–47199`);
    if (!told) progress(`port ${port} is in use; waiting up to 70 s for it (a connection of an earlier run in TIME_WAIT, or another benchmark)`);
    await sleep(1_000);
  }
}

/** One autocannon run in a process of its own (load.ts). */
async function load(spec: LoadSpec): Promise<LoadResult> {
  if (interrupted) throw new Error('interrupted');
  const file = join(workDir, `load-${randomBytes(4).toString('hex')}.json`);
  writeFileSync(file, JSON.stringify(spec));
  const child = spawn(process.execPath, [join(distDir, 'load.js'), file], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const code = await new Promise<number | null>((r) => child.once('exit', r));
  children.delete(child);
  rmSync(file, { force: true });
  if (code !== 0) throw new Error(`the load process failed (${code}): ${err.trim()}`);
  return JSON.parse(out) as LoadResult;
}

// ---------------------------------------------------------------------------------------------------------
// Measurements

interface Side {
  readonly rps: number;
  /** The median of the rounds' p99 (ms). */
  readonly p99: number;
  readonly requests: number;
  readonly failed: number;
  readonly statuses: Record<string, number>;
}

function combine(results: readonly LoadResult[]): Side {
  const statuses: Record<string, number> = {};
  for (const r of results) for (const [code, n] of Object.entries(r.statuses)) statuses[code] = (statuses[code] ?? 0) + n;
  return {
    rps: results.reduce((s, r) => s + r.ok, 0) / results.reduce((s, r) => s + r.seconds, 0),
    p99: median(results.map((r) => r.p99)),
    requests: results.reduce((s, r) => s + r.requests, 0),
    failed: results.reduce((s, r) => s + r.non2xx + r.errors, 0),
    statuses,
  };
}

/** Baseline and candidate alternately, MODE.rounds times (after a warm-up of each), from a separate process. */
async function pair(label: string, baseline: Omit<LoadSpec, 'seconds' | 'connections'>, candidate: Omit<LoadSpec, 'seconds' | 'connections'>): Promise<{ baseline: Side; candidate: Side }> {
  const run = (spec: Omit<LoadSpec, 'seconds' | 'connections'>, seconds: number) => load({ ...spec, seconds, connections: CONNECTIONS });
  if (MODE.warmupSeconds > 0) {
    progress(`${label}: warming up`);
    await run(baseline, MODE.warmupSeconds);
    await run(candidate, MODE.warmupSeconds);
  }
  const a: LoadResult[] = [];
  const b: LoadResult[] = [];
  for (let round = 0; round < MODE.rounds; round++) {
    const order = round % 2 === 0 ? (['baseline', 'candidate'] as const) : (['candidate', 'baseline'] as const);
    for (const side of order) {
      const result = await run(side === 'baseline' ? baseline : candidate, MODE.pairSeconds);
      (side === 'baseline' ? a : b).push(result);
      progress(
        `${label}: round ${round + 1}/${MODE.rounds} ${side} ${result.rps.toFixed(0)} req/s, p99 ${result.p99} ms${result.non2xx + result.errors > 0 ? `, ${result.non2xx} non-2xx, ${result.errors} errors` : ''}`,
      );
    }
  }
  return { baseline: combine(a), candidate: combine(b) };
}

/** Why a pair's numbers do not mean anything (a side answered nothing, or too many non-2xx), or undefined. */
function failureOf(sides: Record<string, Side>): string | undefined {
  for (const [name, side] of Object.entries(sides)) {
    if (side.requests === 0) return `the ${name} answered nothing within the run`;
    if (side.failed / side.requests > MAX_FAILED_SHARE) {
      const codes = Object.entries(side.statuses)
        .map(([c, n]) => `${n}× ${c}`)
        .join(', ');
      return `${side.failed} of ${side.requests} ${name} requests failed (${codes || 'connection errors'})`;
    }
  }
  return undefined;
}

const x = (ratio: number) => `${ratio < 0.1 ? ratio.toFixed(3) : ratio.toFixed(2)}×`;
const ms = (value: number) => `${value < 10 ? value.toFixed(1) : value.toFixed(0)} ms`;
const us = (milliseconds: number) => `${(milliseconds * 1000).toFixed(0)} µs`;
const rps = (value: number) => `${value.toFixed(0)} req/s`;

/**
 * The throughput (and p99) rows of a pair. When the pair failed as a harness (failureOf), its numbers are still
 * shown, but the rows are errors, not verdicts.
 */
function throughputRows(name: string, result: { baseline: Side; candidate: Side }, minRatio: number, maxP99Ratio?: number): Row[] {
  const failure = failureOf(result);
  const judged = (met: boolean) => (failure === undefined ? { met } : { met: null, note: `error: ${failure}` });
  const ratio = result.candidate.rps / result.baseline.rps;
  const rows: Row[] = [
    { name: `${name}: throughput`, measured: rps(result.candidate.rps), baseline: rps(result.baseline.rps), ratio: x(ratio), target: `≥ ${minRatio}×`, ...judged(ratio >= minRatio) },
  ];
  if (maxP99Ratio !== undefined) {
    const p99 = result.candidate.p99 / result.baseline.p99;
    rows.push({ name: `${name}: p99`, measured: ms(result.candidate.p99), baseline: ms(result.baseline.p99), ratio: x(p99), target: `≤ ${maxP99Ratio}×`, ...judged(p99 <= maxP99Ratio) });
  }
  return rows;
}

/** The statements one process recorded (DATABASE_STATEMENT_LOG) that match `text` and carry `value`. */
function recordedStatement(statementLog: string, text: RegExp, value: string): RecordedStatement {
  const found = readdirSync(statementLog)
    .flatMap((file) => readFileSync(join(statementLog, file), 'utf8').split('\n').filter(Boolean))
    .map((line) => JSON.parse(line) as RecordedStatement)
    .find((st) => text.test(st.text) && st.values.some((v) => typeof v === 'string' && v.includes(value)));
  if (!found) throw new Error(`the API sent no statement matching ${text} with ${value}`);
  return found;
}

/**
 * The cost ledger of the keyed create (docs/performance.md): the API's own createTask statements, recorded from the
 * unlogged api-v1 (one unkeyed and one keyed create), run by the raw stack, each pair removing one part, A/B in this
 * run. The unsequenced variant's events (sequences from UNSEQUENCED_START) are deleted
 * afterwards, so no later row meets them.
 */
async function createLedger(unloggedV1: string, baselineOrigin: string, v1: string, v1Token: string, statementLog: string, createStatementFile: string, database: Database): Promise<Row[]> {
  const out: Row[] = [];
  try {
    const create = async (headers: Record<string, string>) => {
      const res = await fetch(`${unloggedV1}/v1/tasks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${v1Token}`, 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ title: 'Ledger probe' }),
      });
      if (res.status !== 201) throw new Error(`the ledger's createTask probe answered ${res.status}`);
      return ((await res.json()) as { data: { id: string } }).data.id;
    };
    const unkeyedId = await create({});
    const key = `ledger-probe-${randomBytes(8).toString('hex')}`;
    const keyedId = await create({ 'idempotency-key': key });
    const claim = recordedStatement(statementLog, /INSERT INTO idempotency_records/, key);
    const [record] = await database.prisma.$queryRaw<{ id: string }[]>`SELECT id::text AS id FROM idempotency_records WHERE key = ${key}`;
    if (!record) throw new Error('the keyed probe left no idempotency record');
    const creates: CreateStatements = {
      unkeyed: { ...recordedStatement(statementLog, /INSERT INTO tasks/, unkeyedId), taskId: unkeyedId },
      keyed: { ...recordedStatement(statementLog, /INSERT INTO tasks/, keyedId), taskId: keyedId, recordId: record.id },
      claim: { ...claim, keyIndex: claim.values.indexOf(key) },
    };
    writeFileSync(createStatementFile, JSON.stringify(creates));
  } catch (error) {
    return [errorRow("ledger: the API's createTask statements", 'reported', error)];
  }
  const post = (path: string) => ({ origin: baselineOrigin, method: 'POST' as const, path, body: { title: 'Ledger task {n}' }, tokens: [] });
  const ledger: [string, string, Omit<LoadSpec, 'seconds' | 'connections'>, Omit<LoadSpec, 'seconds' | 'connections'>][] = [
    [
      "ledger: the API's createTask statement (the task, its event with the workspace's next sequence) vs raw insert",
      'raw createTask statement vs raw insert',
      post('/tasks'),
      post('/statement/tasks'),
    ],
    [
      "ledger: the API's createTask statement with a NOTIFY queued in it (as before the fourteenth session) vs as sent now",
      'createTask statement with vs without NOTIFY',
      post('/statement/tasks'),
      post('/statement-notified/tasks'),
    ],
    [
      "ledger: the API's createTask statement vs the same with a plain sequence for the workspace's counter",
      'createTask statement with vs without the counter',
      post('/statement-unsequenced/tasks'),
      post('/statement/tasks'),
    ],
    [
      "ledger: the idempotency claim + the API's keyed createTask statement vs the unkeyed statement",
      'claim + keyed statement vs unkeyed statement',
      post('/statement/tasks'),
      post('/keyed-statement/tasks'),
    ],
    [
      'ledger: v1 POST /v1/tasks (Idempotency-Key) vs the claim + the keyed createTask statement',
      'v1 keyed createTask vs claim + keyed statement',
      post('/keyed-statement/tasks'),
      { origin: v1, method: 'POST', path: '/v1/tasks', body: { title: 'Bench task {n}' }, idempotencyKey: true, tokens: [v1Token] },
    ],
  ];
  for (const [name, label, without, withLayer] of ledger) out.push(await ledgerRow(name, label, without, withLayer));
  await database.prisma.$executeRaw`DELETE FROM outbox_events WHERE sequence >= ${UNSEQUENCED_START}::bigint`;
  return out;
}

/**
 * Waits (up to RELAY_CATCH_UP_S) until the worker has published every outbox event: the create rows leave it a
 * backlog of thousands, which the event rows would otherwise measure (as deliveries of a subscription made after
 * their events, and as CPU the relay takes from the API).
 */
async function relayCaughtUp(database: Database): Promise<void> {
  const unpublished = async () => Number((await database.prisma.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM outbox_events WHERE published_at IS NULL`)[0]!.n);
  const until = Date.now() + RELAY_CATCH_UP_S * 1000;
  for (let left = await unpublished(), told = false; left > 0; left = await unpublished(), told = true) {
    if (Date.now() > until) {
      harnessErrors.push(`the worker still had ${left} unpublished events ${RELAY_CATCH_UP_S} s after the rows before the event rows`);
      return;
    }
    if (!told) progress(`waiting for the worker to publish ${left} events left by the rows before`);
    await sleep(1_000);
  }
}

/** One ledger pair: the candidate with the layer, the baseline without it; the ratio is reported, not judged. */
async function ledgerRow(name: string, label: string, without: Omit<LoadSpec, 'seconds' | 'connections'>, withLayer: Omit<LoadSpec, 'seconds' | 'connections'>): Promise<Row> {
  try {
    const result = await pair(label, without, withLayer);
    const failure = failureOf(result);
    return {
      name: `${name}: throughput`,
      measured: rps(result.candidate.rps),
      baseline: rps(result.baseline.rps),
      ratio: x(result.candidate.rps / result.baseline.rps),
      target: 'reported',
      met: null,
      ...(failure === undefined ? {} : { note: `error: ${failure}` }),
    };
  } catch (error) {
    return errorRow(name, 'reported', error);
  }
}

function errorRow(name: string, target: string, error: unknown): Row {
  return { name, measured: '—', baseline: '—', ratio: '—', target, met: null, note: `error: ${(error as Error).message}` };
}

function vmRssMb(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------------------
// The run

const rows: Row[] = [];
const notes: string[] = [];
const base = loadConfig();
const machineLoad = loadavg()[0]!;
const cores = cpus().length;
const command = `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`;
progress(`${command}: ${SMOKE ? 'smoke' : 'full'} mode${only.length > 0 ? `, rows ${only.join(', ')}` : ''}`);

let db: TestDatabase | undefined;
let database: Database | undefined;
let exitCode = 0;
try {
  workDir = mkdtempSync(join(tmpdir(), 'workcell-bench-'));

  if (wanted('keyset')) {
    progress(`keyset pagination: ${MODE.keysetRows.toLocaleString('en')} tags in a database of its own`);
    const name = `v1 listTags page after row N−1,000 vs first page (keyset, N = ${MODE.keysetRows.toLocaleString('en')}, in-process)`;
    try {
      const result = await measureKeysetPagination(MODE.keysetRows, MODE.keysetRounds, (line) => progress(`keyset pagination: ${line}`));
      rows.push({ name, measured: ms(result.candidateMs), baseline: ms(result.baselineMs), ratio: x(result.ratio), target: `≤ ${KEYSET_MAX_RATIO}×`, met: result.ratio <= KEYSET_MAX_RATIO });
    } catch (error) {
      rows.push(errorRow(name, `≤ ${KEYSET_MAX_RATIO}×`, error));
    }
  }

  const needsStack = ROW_IDS.some((id) => id !== 'keyset' && wanted(id));
  if (needsStack) {
    for (const port of Object.values(PORTS)) await assertPortFree(port);
    progress('creating the benchmark database');
    db = await createTestDatabase();
    const created = db;
    cleanups.push(() => created.drop());
    const redisPrefix = `wcb:${process.pid}:${randomBytes(4).toString('hex')}`;
    cleanups.push(() => dropRedisPrefix(redisPrefix));
    const serviceEnv: Record<string, string> = {
      NODE_ENV: 'production',
      // WORKCELL_ENV=production refuses webhook receivers on loopback or plain http, which the benchmark's local
      // receiver is; that refusal is WORKCELL_ENV's only effect on the request path (see How it is measured).
      WORKCELL_ENV: 'development',
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
      DATABASE_URL: db.url,
      REDIS_URL: base.redis.url,
      REDIS_PREFIX: redisPrefix,
      API_V0_PORT: String(PORTS.apiV0),
      API_V1_PORT: String(PORTS.apiV1),
      AUTH_PORT: String(PORTS.auth),
      WORKER_PORT: String(PORTS.worker),
      V0_BASE_URL: origin(PORTS.apiV0),
      V0_BASE_URL_ALT: `http://localhost:${PORTS.apiV0}`,
      V1_BASE_URL: origin(PORTS.apiV1),
      AUTH_INTERNAL_URL: origin(PORTS.auth),
      WORKER_INTERNAL_URL: origin(PORTS.worker),
      CREDENTIAL_SECRET: randomBytes(32).toString('base64url'),
      V1_RATE_LIMIT_READ_PER_MINUTE: '1000000',
      V1_RATE_LIMIT_WRITE_PER_MINUTE: '1000000',
      // The delivery settings the run was given (WEBHOOK_SUBSCRIPTION_CONCURRENCY=16 npm run bench …; defaults
      // otherwise) reach the services: how a setting's cost is measured (docs/performance.md).
      WEBHOOK_DELIVERY_TIMEOUT_MS: String(base.webhooks.timeoutMs),
      WEBHOOK_RETRY_SCHEDULE: base.webhooks.retryScheduleMs.map((ms) => `${ms}ms`).join(','),
      WEBHOOK_BREAKER_THRESHOLD: String(base.webhooks.breakerThreshold),
      WEBHOOK_DELIVERY_CONCURRENCY: String(base.webhooks.deliveryConcurrency),
      WEBHOOK_SUBSCRIPTION_CONCURRENCY: String(base.webhooks.subscriptionConcurrency),
    };
    const config = loadConfig(serviceEnv);
    const opened = createDatabase(config, { poolSize: 4 });
    database = opened;
    cleanups.push(() => opened.close());

    progress(`seeding: the demo workspace, ${MODE.deepRows.toLocaleString('en')} tasks, ${V0_TEAM_TOKENS} v0 team tokens`);
    const demo = await seedDemoWorkspaceIfEmpty(opened, config);
    if (!demo) throw new Error('the new benchmark database already had a workspace');
    const workspaceId = demo.workspaceId;
    const ownerMemberId = (await opened.prisma.workspaceMember.findFirstOrThrow({ where: { workspaceId } })).id;
    const { v1Token, v0Tokens } = await inTransaction(opened, async (tx) => {
      const minted = await issueCredential(tx, config, {
        workspaceId,
        kind: 'personal_access_token',
        name: 'bench tasks',
        scopes: ['tasks:read', 'tasks:write', 'search:read'],
        memberId: ownerMemberId,
      });
      const team: string[] = [];
      for (let i = 0; i < V0_TEAM_TOKENS; i++) team.push(await issueTeamToken(tx, config, { workspaceId, name: `bench ${i + 1}`, createdByMemberId: ownerMemberId }));
      return { v1Token: minted.token, v0Tokens: team };
    });
    // webhooks-fairness: a second workspace with a silent receiver of its own; its administrator's first token
    // (every scope) subscribes and creates its tasks.
    const otherWorkspace = wanted('webhooks-fairness')
      ? await createWorkspace(opened, config, { name: 'Bench other workspace', administrator: { email: 'owner@other.bench.workcell.test', name: 'Other Owner' } })
      : null;
    const seeding = Date.now();
    await opened.prisma
      .$executeRaw`INSERT INTO tasks (workspace_id, title, description) SELECT ${workspaceId}::uuid, 'Bench task ' || g, 'Seeded by npm run bench' FROM generate_series(1, ${MODE.deepRows}) g`;
    // The state autovacuum keeps a table in: statistics, and a visibility map that lets index-only scans skip the heap.
    await opened.prisma.$executeRawUnsafe('VACUUM (ANALYZE)');
    const readIds = (await opened.prisma.$queryRaw<{ id: string }[]>`SELECT id::text AS id FROM tasks WHERE workspace_id = ${workspaceId}::uuid ORDER BY random() LIMIT ${MODE.readIds}`).map(
      (r) => r.id,
    );
    progress(`seeded in ${((Date.now() - seeding) / 1000).toFixed(1)} s`);

    progress('starting auth, worker, api-v0, api-v1 (NODE_ENV=production, LOG_LEVEL=info) and the baseline server');
    const services = [
      startProcess('auth', ['apps/auth/dist/main.js'], serviceEnv, workDir),
      startProcess('worker', ['apps/worker/dist/main.js'], serviceEnv, workDir),
      startProcess('api-v0', ['apps/api-v0/dist/main.js'], serviceEnv, workDir),
      startProcess('api-v1', ['apps/api-v1/dist/main.js'], serviceEnv, workDir),
    ];
    const statementFile = join(workDir, 'get-task-statement.json');
    const statementLog = join(workDir, 'statements');
    const createStatementFile = join(workDir, 'create-task-statements.json');
    const baselineServer = startProcess(
      'baseline',
      [join(distDir, 'baseline-server.bench.js'), String(PORTS.baseline), db.url, workspaceId, base.redis.url, redisPrefix, statementFile, createStatementFile],
      {},
      workDir,
    );
    // The cost ledger's A/B of the request log: a second api-v1, the same build with LOG_LEVEL=warn (no request line),
    // recording the statements it sends (the ledger's raw stack runs its getTask statement).
    const unlogged =
      wanted('ledger') || wanted('create-ledger')
        ? startProcess('api-v1-unlogged', ['apps/api-v1/dist/main.js'], { ...serviceEnv, LOG_LEVEL: 'warn', API_V1_PORT: String(PORTS.apiV1Unlogged), DATABASE_STATEMENT_LOG: statementLog }, workDir)
        : null;
    const servicePorts: Record<string, number> = { auth: PORTS.auth, worker: PORTS.worker, 'api-v0': PORTS.apiV0, 'api-v1': PORTS.apiV1, 'api-v1-unlogged': PORTS.apiV1Unlogged };
    await Promise.all([...[...services, ...(unlogged ? [unlogged] : [])].map((s) => waitReady(s, servicePorts[s.name]!)), waitReady(baselineServer, PORTS.baseline)]);
    progress(`services ready (logs in ${workDir})`);

    const baselineOrigin = origin(PORTS.baseline);
    const v1 = origin(PORTS.apiV1);
    const v0 = origin(PORTS.apiV0);

    if (wanted('v1-get')) {
      const name = 'v1 GET /v1/tasks/{id} vs baseline row read';
      try {
        const result = await pair(
          'v1 getTask',
          { origin: baselineOrigin, method: 'GET', path: '/tasks/{id}', ids: readIds, tokens: [] },
          { origin: v1, method: 'GET', path: '/v1/tasks/{id}', ids: readIds, tokens: [v1Token] },
        );
        rows.push(...throughputRows(name, result, 0.5, 3));
      } catch (error) {
        rows.push(errorRow(name, '≥ 0.5×, p99 ≤ 3×', error));
      }
    }

    if (wanted('v0-get')) {
      const name = 'v0 GET /tasks/{_id} vs baseline row read';
      try {
        const result = await pair(
          'v0 GET /tasks/{_id}',
          { origin: baselineOrigin, method: 'GET', path: '/tasks/{id}', ids: readIds, tokens: [] },
          { origin: v0, method: 'GET', path: '/tasks/{id}', ids: readIds, tokens: v0Tokens },
        );
        rows.push(...throughputRows(name, result, 0.5, 3));
      } catch (error) {
        rows.push(errorRow(name, '≥ 0.5×, p99 ≤ 3×', error));
      }
    }

    if (wanted('v1-list')) {
      const name = 'v1 GET /v1/tasks?limit=100 vs baseline page read';
      try {
        const result = await pair(
          'v1 listTasks',
          { origin: baselineOrigin, method: 'GET', path: '/tasks?limit=100', tokens: [] },
          { origin: v1, method: 'GET', path: '/v1/tasks?limit=100', tokens: [v1Token] },
        );
        rows.push(...throughputRows(name, result, 0.5));
      } catch (error) {
        rows.push(errorRow(name, '≥ 0.5×', error));
      }
    }

    if (wanted('search')) {
      // A selective query (one seeded task's number) over every seeded task: the GIN index finds the match, ts_rank
      // orders it, the keyset cursor pages; against the baseline's plain page read.
      const name = `v1 GET /v1/search?q=<one task's number>&types=tasks vs baseline page read (${MODE.deepRows.toLocaleString('en')} tasks)`;
      try {
        const result = await pair(
          'v1 searchResources',
          { origin: baselineOrigin, method: 'GET', path: '/tasks?limit=100', tokens: [] },
          { origin: v1, method: 'GET', path: `/v1/search?q=${Math.floor(MODE.deepRows / 2)}&types=tasks`, tokens: [v1Token] },
        );
        rows.push(...throughputRows(name, result, 0.3));
      } catch (error) {
        rows.push(errorRow(name, '≥ 0.3×', error));
      }
    }

    if (wanted('v0-deep-page')) {
      const deepPage = Math.floor(MODE.deepRows / V0_PAGE_SIZE);
      const name = `v0 GET /tasks?page=${deepPage}&limit=${V0_PAGE_SIZE} vs page 1 (${MODE.deepRows.toLocaleString('en')} tasks, sequential)`;
      try {
        let turn = 0;
        /** Time to the answer; a deep page that the server gives up on (503: its dependency budget ran out) is a result, not a harness error. */
        const refusals: string[] = [];
        const timed = async (page: number) => {
          const token = v0Tokens[turn++ % v0Tokens.length]!;
          const begin = performance.now();
          const res = await fetch(`${v0}/tasks?page=${page}&limit=${V0_PAGE_SIZE}`, { headers: { authorization: `Bearer ${token}` } });
          const body = (await res.json()) as unknown;
          const elapsed = performance.now() - begin;
          if (res.status === 503 && page !== 1) {
            refusals.push(`${res.status} after ${ms(elapsed)}`);
            return elapsed;
          }
          if (res.status !== 200) throw new Error(`page ${page} answered ${res.status}: ${JSON.stringify(body).slice(0, 200)}`);
          const items = Array.isArray(body) ? body : ((body as { data?: unknown[] }).data ?? []);
          if (items.length !== V0_PAGE_SIZE) throw new Error(`page ${page} held ${items.length} tasks, not ${V0_PAGE_SIZE}`);
          return elapsed;
        };
        if (MODE.warmupSeconds > 0) await timed(1);
        const first: number[] = [];
        const deep: number[] = [];
        for (let round = 0; round < MODE.deepRounds; round++) {
          for (const page of round % 2 === 0 ? [1, deepPage] : [deepPage, 1]) (page === 1 ? first : deep).push(await timed(page));
          progress(`v0 deep page: round ${round + 1}/${MODE.deepRounds} page 1 ${ms(first.at(-1)!)}, page ${deepPage} ${ms(deep.at(-1)!)}`);
        }
        const ratio = median(deep) / median(first);
        rows.push(
          refusals.length === 0
            ? { name, measured: ms(median(deep)), baseline: ms(median(first)), ratio: x(ratio), target: '≤ 2×', met: ratio <= 2 }
            : {
                name,
                measured: `503 (${refusals.length} of ${deep.length})`,
                baseline: ms(median(first)),
                ratio: `≥ ${x(ratio)}`,
                target: '≤ 2×',
                met: false,
                note: `the deep page was refused with ${refusals.join(', ')}: the request's dependency budget (DEPENDENCY_TIMEOUT_MS, ${serviceEnv['DEPENDENCY_TIMEOUT_MS'] ?? 'default 2000'} ms) ran out before the page was built; the ratio is a lower bound`,
              },
        );
      } catch (error) {
        rows.push(errorRow(name, '≤ 2×', error));
      }
    }

    if (wanted('v1-create')) {
      const name = 'v1 POST /v1/tasks (Idempotency-Key) vs baseline insert';
      try {
        const result = await pair(
          'v1 createTask',
          { origin: baselineOrigin, method: 'POST', path: '/tasks', body: { title: 'Baseline task {n}' }, tokens: [] },
          { origin: v1, method: 'POST', path: '/v1/tasks', body: { title: 'Bench task {n}' }, idempotencyKey: true, tokens: [v1Token] },
        );
        rows.push(...throughputRows(name, result, 0.3));
      } catch (error) {
        rows.push(errorRow(name, '≥ 0.3×', error));
      }
    }

    // Right after the keyed creates, so the read ledger's minutes give the worker time to publish these events.
    if (wanted('create-ledger')) {
      rows.push(...(await createLedger(origin(PORTS.apiV1Unlogged), baselineOrigin, v1, v1Token, statementLog, createStatementFile, opened)));
    }

    if (wanted('ledger')) {
      // The API's getTask statement, as the unlogged api-v1 sent it, for the raw stack's /gated-statement route (its
      // pairs are harness errors when it could not be recorded).
      try {
        const probeId = readIds[0]!;
        const probe = await fetch(`${origin(PORTS.apiV1Unlogged)}/v1/tasks/${probeId}`, { headers: { authorization: `Bearer ${v1Token}` } });
        if (probe.status !== 200) throw new Error(`the ledger's getTask probe answered ${probe.status}`);
        const recorded = recordedStatement(statementLog, /FROM tasks t\b/, probeId);
        const read: RecordedRead = { ...recorded, idIndex: recorded.values.indexOf(probeId) };
        writeFileSync(statementFile, JSON.stringify(read));
      } catch (error) {
        rows.push(errorRow("ledger: the API's getTask statement", 'reported', error));
      }
      // The cost ledger of the v1 read (docs/performance.md): each pair removes one layer, A/B in this run.
      const ledger: [string, string, Omit<LoadSpec, 'seconds' | 'connections'>, Omit<LoadSpec, 'seconds' | 'connections'>][] = [
        [
          "ledger: raw row read + the gate's Redis script vs raw row read",
          'raw + gate script',
          { origin: baselineOrigin, method: 'GET', path: '/tasks/{id}', ids: readIds, tokens: [] },
          { origin: baselineOrigin, method: 'GET', path: '/gated/tasks/{id}', ids: readIds, tokens: [] },
        ],
        [
          "ledger: raw + the gate's Redis script + the API's getTask statement vs raw + the gate's Redis script",
          'raw + gate script + API statement',
          { origin: baselineOrigin, method: 'GET', path: '/gated/tasks/{id}', ids: readIds, tokens: [] },
          { origin: baselineOrigin, method: 'GET', path: '/gated-statement/tasks/{id}', ids: readIds, tokens: [] },
        ],
        [
          "ledger: the API's getTask statement prepared once per connection vs planned every time (raw + gate script)",
          'API statement prepared vs unprepared',
          { origin: baselineOrigin, method: 'GET', path: '/gated-statement/tasks/{id}', ids: readIds, tokens: [] },
          { origin: baselineOrigin, method: 'GET', path: '/gated-statement-prepared/tasks/{id}', ids: readIds, tokens: [] },
        ],
        [
          "ledger: v1 GET /v1/tasks/{id} vs raw + the gate's Redis script + the API's getTask statement",
          'v1 getTask vs raw + gate script + API statement',
          { origin: baselineOrigin, method: 'GET', path: '/gated-statement/tasks/{id}', ids: readIds, tokens: [] },
          { origin: v1, method: 'GET', path: '/v1/tasks/{id}', ids: readIds, tokens: [v1Token] },
        ],
        [
          'ledger: v1 GET /v1/tasks/{id} with the request log vs without (LOG_LEVEL=warn)',
          'v1 getTask logged vs unlogged',
          { origin: origin(PORTS.apiV1Unlogged), method: 'GET', path: '/v1/tasks/{id}', ids: readIds, tokens: [v1Token] },
          { origin: v1, method: 'GET', path: '/v1/tasks/{id}', ids: readIds, tokens: [v1Token] },
        ],
      ];
      for (const [name, label, without, withLayer] of ledger) rows.push(await ledgerRow(name, label, without, withLayer));
      // The serializer issue 28 proposed, compiled from the registry's response schema, on a real page of the API.
      const serialization = 'ledger: a listTasks page (100) serialized by fast-json-stringify compiled from the v1 schema vs JSON.stringify';
      try {
        const page = await fetch(`${v1}/v1/tasks?limit=100`, { headers: { authorization: `Bearer ${v1Token}` } });
        if (page.status !== 200) throw new Error(`listTasks answered ${page.status}`);
        const result = await measureCompiledSerialization('listTasks', await page.json(), MODE.serializationRounds);
        rows.push({
          name: `${serialization}: time per page`,
          measured: us(result.candidateMs),
          baseline: us(result.baselineMs),
          ratio: x(result.ratio),
          target: 'reported',
          met: null,
          ...(result.identical ? {} : { note: 'the compiled serializer wrote other bytes than JSON.stringify' }),
        });
      } catch (error) {
        rows.push(errorRow(serialization, 'reported', error));
      }
    }

    if (wanted('webhooks') || wanted('changes')) {
      await relayCaughtUp(opened);
      rows.push(...(await events(v1, demo.personalAccessToken, v1Token)));
    }

    if (wanted('rss')) {
      // After every load above: what each service holds once it has served the run, at once (the target) and again
      // after RSS_SETTLE_SECONDS without load (reported): V8 gives back the heap it grew under load only when its
      // memory reducer runs, some seconds after the last full collection once allocation has slowed.
      const readings = (label: string, target: string, judge: (mb: number) => boolean | null) =>
        services.map((service): Row => {
          const name = `RSS of ${service.name} ${label}`;
          const mb = vmRssMb(service.child.pid);
          const baselineMb = vmRssMb(baselineServer.child.pid);
          if (mb === null) return errorRow(name, target, new Error('the process is gone'));
          return { name, measured: `${mb.toFixed(0)} MB`, baseline: baselineMb === null ? '—' : `${baselineMb.toFixed(0)} MB`, ratio: '—', target, met: judge(mb) };
        });
      rows.push(...readings('after the run', '≤ 250 MB', (mb) => mb <= 250));
      await sleep(MODE.rssSettleSeconds * 1000);
      rows.push(...readings(`${MODE.rssSettleSeconds} s after the run, without load`, 'reported', () => null));
    }
    if (wanted('webhooks-fairness')) {
      // Last, after the RSS readings: the silent receivers leave the worker a backlog of failing deliveries (their
      // subscriptions are removed at the row's end, so the retries already queued end without sending).
      rows.push(
        ...(await webhookFairness(
          v1,
          { subscribeToken: demo.personalAccessToken, writeToken: v1Token },
          { subscribeToken: otherWorkspace!.personalAccessToken, writeToken: otherWorkspace!.personalAccessToken },
          config.webhooks,
        )),
      );
    }
    stopping = true;
  }

  const versions = await describeVersions(database);
  notes.push(...describeMethod());
  process.stdout.write(`\n${textTable(rows)}\n\n`);
  for (const row of rows) if (row.note) process.stdout.write(`${row.name}: ${row.note}\n`);
  for (const error of harnessErrors) process.stdout.write(`harness: ${error}\n`);

  const failed = rows.some((r) => r.note?.startsWith('error')) || harnessErrors.length > 0;
  if (!SMOKE && only.length === 0) {
    const target = join(root, 'docs/performance.md');
    const document = renderDocument({ generatedAt: new Date().toISOString(), command, machine: describeMachine(), versions, notes, rows }, existsSync(target) ? readFileSync(target, 'utf8') : null);
    mkdirSync(join(root, 'docs'), { recursive: true });
    writeFileSync(target, document);
    progress(`wrote ${target}`);
  } else {
    progress('docs/performance.md is written by the full run of every row only (not by --smoke or --only)');
  }
  if (failed) {
    process.stderr.write('bench: harness errors (see above); targets missed are not errors\n');
    exitCode = 1;
  }
} catch (error) {
  process.stderr.write(`bench: ${(error as Error).stack ?? String(error)}\n`);
  exitCode = 1;
} finally {
  stopping = true;
  progress('stopping the services and dropping the benchmark database');
  await cleanup();
  if (workDir !== '') {
    if (exitCode === 0 && !values['keep-logs']) rmSync(workDir, { recursive: true, force: true });
    else process.stdout.write(`service logs kept in ${workDir}\n`);
  }
}
process.exit(exitCode);

// ---------------------------------------------------------------------------------------------------------
// Webhooks and the change feed: one fixed-rate stream of task creations, watched by a local webhook receiver
// and by a change-feed follower.

async function events(v1: string, adminToken: string, writeToken: string): Promise<Row[]> {
  const label = `events at ${MODE.eventRate}/s for ${MODE.eventSeconds} s`;
  const webhookName = `Webhooks: commit-to-delivery (${MODE.eventRate} events/s for ${MODE.eventSeconds} s)`;
  const feedName = 'Change feed: commit-to-follower';
  const receiver = await EventReceiver.start(0);
  let subscription: string | undefined;
  const follower = { stop: false, seen: new Map<string, number>(), polls: 0, failures: 0, lastFailure: '' };
  // Stopping the follower ends its held request rather than waiting out the long poll. One controller per request:
  // fetch leaves its listener on a signal it was given, so one signal shared by thousands of polls would collect them.
  let polling = new AbortController();
  const stopFollower = () => {
    follower.stop = true;
    polling.abort();
  };
  let following: Promise<void> = Promise.resolve();
  try {
    const auth = { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' };
    subscription = await subscribe(v1, adminToken, receiver.url);

    // The follower starts at the feed's current end, then asks again as soon as a page came back, with `wait`: a
    // caught-up request is held by the server until the next commit (or FOLLOWER_WAIT_SECONDS).
    type ChangesPage = { data: { resourceId: string; action: string; occurredAt: string }[]; meta: { nextCursor: string }; links: { next: string | null } };
    const page = async (cursor: string | null, wait = 0): Promise<ChangesPage> => {
      const query = `types=tasks&limit=200${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}${wait > 0 ? `&wait=${wait}` : ''}`;
      polling = new AbortController();
      if (follower.stop) polling.abort();
      const res = await fetch(`${v1}/v1/changes?${query}`, { headers: auth, signal: polling.signal });
      if (res.status !== 200) throw new Error(`the change feed answered ${res.status}: ${await res.text()}`);
      return (await res.json()) as ChangesPage;
    };
    let cursor: string | null = null;
    for (let failures = 0; ;) {
      const current: ChangesPage | null = await page(cursor).catch((error: Error) => {
        if (++failures > 10) throw error;
        return null;
      });
      if (current === null) {
        await sleep(200);
        continue;
      }
      cursor = current.meta.nextCursor;
      if (current.links.next === null) break;
    }
    following = (async () => {
      while (!follower.stop) {
        // A client retries a failed poll (a 503 under load) after a pause; the misses show in the row's note.
        const current: ChangesPage | null = await page(cursor, FOLLOWER_WAIT_SECONDS).catch((error: Error) => {
          if (follower.stop) return null;
          follower.failures++;
          follower.lastFailure = error.message.slice(0, 200);
          return null;
        });
        if (current === null) {
          if (!follower.stop) await sleep(100);
          continue;
        }
        follower.polls++;
        const now = Date.now();
        for (const change of current.data) {
          if (change.action === 'created' && !follower.seen.has(change.resourceId)) follower.seen.set(change.resourceId, now - Date.parse(change.occurredAt));
        }
        cursor = current.meta.nextCursor;
      }
    })();

    progress(`${label}: creating tasks through v1 at a fixed rate`);
    const result = await load({
      origin: v1,
      connections: CONNECTIONS,
      seconds: MODE.eventSeconds,
      overallRate: MODE.eventRate,
      method: 'POST',
      path: '/v1/tasks',
      body: { title: 'Event task {n}' },
      idempotencyKey: true,
      tokens: [writeToken],
      collectCreatedIds: true,
    });
    const createdIds = result.createdIds;
    const achieved = createdIds.length / result.seconds;
    progress(`${label}: ${createdIds.length} tasks created (${achieved.toFixed(0)}/s, ${result.non2xx} non-2xx); waiting for the deliveries`);
    await waitUntil(() => createdIds.every((id) => receiver.delivered.has(id) && follower.seen.has(id)), MODE.drainSeconds * 1000);
    stopFollower();
    await following;

    const { latencies, lost, repeated, unanswered, spanSeconds: span } = receiver.summary(createdIds);
    const unseen = createdIds.filter((id) => !follower.seen.has(id));
    const feed = createdIds.filter((id) => follower.seen.has(id)).map((id) => follower.seen.get(id)!);
    const out: Row[] = [];
    const rateNote =
      achieved < MODE.eventRate * 0.9
        ? `the API created only ${achieved.toFixed(0)} tasks/s of the ${MODE.eventRate}/s asked (its create path is the limit), so the events arrived at that rate`
        : undefined;
    if (result.ok === 0) throw new Error(`no task was created (${JSON.stringify(result.statuses)})`);
    // Too many failed creations make the latencies (of the ones that succeeded) no verdict, but they are still shown.
    const createFailure =
      result.non2xx + result.errors > result.requests * MAX_FAILED_SHARE
        ? `${result.non2xx + result.errors} of ${result.requests} task creations failed (${JSON.stringify(result.statuses)})`
        : undefined;
    const judged = (met: boolean, note?: string) => (createFailure === undefined ? { met, ...(note === undefined ? {} : { note }) } : { met: null, note: `error: ${createFailure}` });
    if (wanted('webhooks')) {
      out.push({ ...commitToDelivery(webhookName, latencies), ...judged(latencies.length > 0 && latencyPercentiles(latencies).p99 <= 300, rateNote) });
      out.push(
        lost.length === 0
          ? { name: 'Webhooks: events delivered at least once', measured: `${createdIds.length} of ${createdIds.length}`, baseline: '—', ratio: '—', target: 'none lost', met: true }
          : errorRow('Webhooks: events delivered at least once', 'none lost', new Error(`${lost.length} of ${createdIds.length} events not delivered within ${MODE.drainSeconds} s after the load`)),
      );
      const { deliveries } = receiver;
      out.push({
        name: 'Webhooks: deliveries per second of the one worker',
        measured: span > 0 ? `${(deliveries / span).toFixed(0)}/s` : '—',
        baseline: '—',
        ratio: '—',
        target: 'reported',
        met: null,
        note: `${deliveries} deliveries (${repeated} repeated${unanswered > 0 ? `; ${unanswered} for tasks committed by requests that got no 2xx within the load (an error answer, or still in flight when it ended)` : ''}) over ${span.toFixed(1)} s while events arrived at ${achieved.toFixed(0)}/s`,
      });
    }
    if (wanted('changes')) {
      const p = (q: number) => (feed.length === 0 ? NaN : percentile(feed, q));
      out.push(
        unseen.length > 0
          ? errorRow(`${feedName} p99`, '≤ 100 ms', new Error(`${unseen.length} of ${createdIds.length} commits never seen by the follower`))
          : {
              name: `${feedName}: p50 / p95 / p99`,
              measured: `${ms(p(50))} / ${ms(p(95))} / ${ms(p(99))}`,
              baseline: '—',
              ratio: '—',
              target: 'p99 ≤ 100 ms',
              ...judged(
                p(99) <= 100,
                `${follower.polls} answers to a long poll (wait=${FOLLOWER_WAIT_SECONDS})${follower.failures > 0 ? `; ${follower.failures} polls failed and were retried (last: ${follower.lastFailure})` : ''}`,
              ),
            },
      );
    }
    return out;
  } catch (error) {
    return [errorRow(webhookName, 'p99 ≤ 300 ms', error)];
  } finally {
    stopFollower();
    await following.catch(() => undefined);
    // A subscription left behind would fan every later task out to a closed port (the fairness row's workspace).
    if (subscription !== undefined) await unsubscribe(v1, adminToken, subscription).catch((error: Error) => harnessErrors.push(error.message));
    await receiver.close();
  }
}

/** Subscribes `url` to task.created with the credential `token` (POST /v1/webhooks); the subscription's id. */
async function subscribe(v1: string, token: string, url: string): Promise<string> {
  const res = await fetch(`${v1}/v1/webhooks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url, eventTypes: ['task.created'] }),
  });
  if (res.status !== 201) throw new Error(`subscribing ${url} answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { data: { id: string } }).data.id;
}

/** Removes a subscription (DELETE /v1/webhooks/{id}): no event is fanned out to it any more, and its pending deliveries end without being sent. */
async function unsubscribe(v1: string, token: string, id: string): Promise<void> {
  const res = await fetch(`${v1}/v1/webhooks/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
  if (res.status !== 204) throw new Error(`removing the benchmark's webhook subscription ${id} answered ${res.status}: ${await res.text()}`);
}

/** A commit-to-delivery row's numbers (p50 / p95 / p99 of the receiver's latencies); the caller judges it. */
function commitToDelivery(name: string, latencies: readonly number[]): Omit<Row, 'met'> {
  const { p50, p95, p99 } = latencyPercentiles(latencies);
  return { name: `${name}: p50 / p95 / p99`, measured: `${ms(p50)} / ${ms(p95)} / ${ms(p99)}`, baseline: '—', ratio: '—', target: 'p99 ≤ 300 ms' };
}

interface BenchWorkspace {
  /** Owns the workspace's subscriptions (webhooks:write). */
  readonly subscribeToken: string;
  /** Creates its tasks (tasks:write). */
  readonly writeToken: string;
}

// ---------------------------------------------------------------------------------------------------------
// Webhook fairness (issue 26): one healthy receiver beside three that accept the connection and never answer,
// two in its workspace and one in another; tasks are created in both workspaces at the same fixed rate.

async function webhookFairness(v1: string, home: BenchWorkspace, other: BenchWorkspace, webhooks: AppConfig['webhooks']): Promise<Row[]> {
  const label = 'webhook fairness';
  const name = `Webhook fairness: healthy receiver beside 3 silent ones (${MODE.fairnessRate} events/s in each of 2 workspaces for ${MODE.fairnessSeconds} s)`;
  const lostName = "Webhook fairness: the healthy receiver's events delivered";
  const silentName = 'Webhook fairness: attempts at the silent receivers';
  const target = 'p99 ≤ 300 ms, none lost';
  const receivers: { close(): Promise<void> }[] = [];
  const subscriptions: { token: string; id: string }[] = [];
  try {
    const healthy = await EventReceiver.start(0);
    receivers.push(healthy);
    const silent = {
      same1: await SilentReceiver.start(0, SILENT_MAX_HELD),
      same2: await SilentReceiver.start(0, SILENT_MAX_HELD),
      other: await SilentReceiver.start(0, SILENT_MAX_HELD),
    };
    receivers.push(...Object.values(silent));
    // The silent receivers are subscribed first, the healthy one last: an engine that works through a workspace's
    // deliveries in the order they were fanned out meets the silent ones first.
    for (const [token, url] of [
      [home.subscribeToken, silent.same1.url],
      [home.subscribeToken, silent.same2.url],
      [other.subscribeToken, silent.other.url],
      [home.subscribeToken, healthy.url],
    ] as const) {
      subscriptions.push({ token, id: await subscribe(v1, token, url) });
    }

    progress(`${label}: creating tasks through v1 at ${MODE.fairnessRate}/s in each of 2 workspaces for ${MODE.fairnessSeconds} s (3 silent receivers, 1 healthy)`);
    const spec = (token: string): LoadSpec => ({
      origin: v1,
      connections: CONNECTIONS,
      seconds: MODE.fairnessSeconds,
      overallRate: MODE.fairnessRate,
      method: 'POST',
      path: '/v1/tasks',
      body: { title: 'Fairness task {n}' },
      idempotencyKey: true,
      tokens: [token],
      collectCreatedIds: true,
    });
    const [homeLoad, otherLoad] = await Promise.all([load(spec(home.writeToken)), load(spec(other.writeToken))]);
    const loadEnded = Date.now();
    const createdIds = homeLoad.createdIds;
    const achieved = (r: LoadResult) => r.createdIds.length / r.seconds;
    progress(
      `${label}: ${createdIds.length} tasks created in the healthy receiver's workspace (${achieved(homeLoad).toFixed(0)}/s), ${otherLoad.createdIds.length} in the other (${achieved(otherLoad).toFixed(0)}/s); waiting up to ${MODE.fairnessDrainSeconds} s for the healthy receiver`,
    );
    await waitUntil(() => createdIds.every((id) => healthy.delivered.has(id)), MODE.fairnessDrainSeconds * 1000);
    const { latencies, lost } = healthy.summary(createdIds);
    const drained = healthy.lastDelivery > loadEnded ? `the last arrived ${((healthy.lastDelivery - loadEnded) / 1000).toFixed(1)} s after the load ended` : 'all arrived during the load';
    const attempts = Object.values(silent).map((s) => ({ accepted: s.accepted, maxHeld: s.maxHeldAtOnce, dropped: s.dropped }));
    progress(
      `${label}: ${createdIds.length - lost.length} of ${createdIds.length} delivered to the healthy receiver; the silent ones accepted ${attempts.map((a) => a.accepted).join(', ')} connections`,
    );

    if (homeLoad.ok === 0 || otherLoad.ok === 0)
      throw new Error(`no task was created in ${homeLoad.ok === 0 ? "the healthy receiver's" : 'the other'} workspace (${JSON.stringify((homeLoad.ok === 0 ? homeLoad : otherLoad).statuses)})`);
    const failures = [homeLoad, otherLoad].filter((r) => r.non2xx + r.errors > r.requests * MAX_FAILED_SHARE);
    const createFailure = failures.length > 0 ? failures.map((r) => `${r.non2xx + r.errors} of ${r.requests} task creations failed (${JSON.stringify(r.statuses)})`).join('; ') : undefined;
    const slow = [homeLoad, otherLoad].some((r) => achieved(r) < MODE.fairnessRate * 0.9);
    const settings =
      `the services run with every WEBHOOK_* setting at its default, as an operator starts them; what matters here: WEBHOOK_DELIVERY_TIMEOUT_MS ${webhooks.timeoutMs} ` +
      `(how long an attempt at a silent receiver holds its slot before it fails), WEBHOOK_DELIVERY_CONCURRENCY ${webhooks.deliveryConcurrency} (attempts in flight in the one worker), ` +
      `WEBHOOK_SUBSCRIPTION_CONCURRENCY ${webhooks.subscriptionConcurrency} (a subscription's share of them) and WEBHOOK_BREAKER_THRESHOLD ${webhooks.breakerThreshold} ` +
      `(consecutive failures after which a silent receiver gets one attempt at a time, rested by the retry schedule: first ${webhooks.retryScheduleMs[0]! / 1000} s)` +
      (slow
        ? `; the API created only ${achieved(homeLoad).toFixed(0)} and ${achieved(otherLoad).toFixed(0)} tasks/s of the ${MODE.fairnessRate}/s asked in each workspace, so the events arrived at that rate`
        : '');
    const judged = (met: boolean, note: string) => (createFailure === undefined ? { met, note } : { met: null, note: `error: ${createFailure}` });

    const p99 = latencyPercentiles(latencies).p99;
    const out: Row[] = [
      {
        ...commitToDelivery(name, latencies),
        target,
        ...judged(
          lost.length === 0 && p99 <= 300,
          `${lost.length > 0 ? `percentiles of the ${latencies.length} events that arrived (${lost.length} never did, so the true tail is longer); ` : ''}${settings}`,
        ),
      },
      lost.length === 0
        ? { name: lostName, measured: `${createdIds.length} of ${createdIds.length}`, baseline: '—', ratio: '—', target: 'none lost', met: true, note: drained }
        : {
            name: lostName,
            measured: `${lost.length} lost of ${createdIds.length}`,
            baseline: '—',
            ratio: '—',
            target: 'none lost',
            met: null,
            note: `error: ${lost.length} of ${createdIds.length} events never reached the healthy receiver within ${MODE.fairnessDrainSeconds} s after the load`,
          },
    ];
    const idle = Object.entries(silent)
      .filter(([, s]) => s.accepted === 0)
      .map(([key]) => key);
    const silentNote =
      `same workspace: ${attempts[0]!.accepted} and ${attempts[1]!.accepted} connections accepted (at most ${attempts[0]!.maxHeld} and ${attempts[1]!.maxHeld} held at once); ` +
      `other workspace: ${attempts[2]!.accepted} (at most ${attempts[2]!.maxHeld}); ${otherLoad.createdIds.length} tasks created there` +
      (attempts.some((a) => a.dropped > 0) ? `; ${attempts.reduce((s, a) => s + a.dropped, 0)} connections over the bound of ${SILENT_MAX_HELD} held per receiver were closed at once` : '');
    out.push({
      name: silentName,
      measured: `${attempts.reduce((s, a) => s + a.accepted, 0)} connections`,
      baseline: '—',
      ratio: '—',
      target: 'reported',
      met: null,
      note: idle.length === 0 ? silentNote : `error: no delivery was attempted at the silent receiver(s) ${idle.join(', ')}, so the row did not measure what it is for; ${silentNote}`,
    });
    return out;
  } catch (error) {
    return [errorRow(`${name}: p50 / p95 / p99`, target, error)];
  } finally {
    // Removed subscriptions end their pending deliveries without sending; then the receivers let go of every socket.
    for (const { token, id } of subscriptions) await unsubscribe(v1, token, id).catch((error: Error) => harnessErrors.push(error.message));
    for (const receiver of receivers) await receiver.close();
  }
}

// ---------------------------------------------------------------------------------------------------------
// Description of the run

function describeMachine(): string[] {
  let model = cpus()[0]?.model ?? 'unknown';
  try {
    model = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? model;
  } catch {
    // not Linux: os.cpus() has it
  }
  return [
    `${cores} cores: ${model}`,
    `${(totalmem() / 2 ** 30).toFixed(1)} GiB of memory`,
    `load average when the run started: ${machineLoad.toFixed(2)} (1 min)${machineLoad > cores / 2 ? ': other processes were using the CPU during this run, so absolute numbers are noisy; the ratios compare sides measured alternately in one run' : ''}`,
  ];
}

async function describeVersions(opened: Database | undefined): Promise<string[]> {
  const lines = [`Node.js ${process.version}`];
  const autocannonPackage = join(root, 'node_modules/autocannon/package.json');
  if (existsSync(autocannonPackage)) lines.push(`autocannon ${(JSON.parse(readFileSync(autocannonPackage, 'utf8')) as { version: string }).version}`);
  if (opened) {
    const [row] = await opened.prisma.$queryRaw<{ server_version: string }[]>`SHOW server_version`;
    lines.push(`PostgreSQL ${row?.server_version ?? 'unknown'}`);
  }
  const redis = new Redis(base.redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    const info = await redis.info('server');
    lines.push(`Redis ${/redis_version:(\S+)/.exec(info)?.[1] ?? 'unknown'}`);
  } catch {
    lines.push('Redis: version unavailable');
  } finally {
    redis.disconnect();
  }
  const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' });
  if (commit.status === 0) lines.push(`commit ${commit.stdout.trim()}`);
  return lines;
}

function describeMethod(): string[] {
  return [
    `Load: autocannon with ${CONNECTIONS} connections from a process of its own, on 127.0.0.1. Each pair runs baseline and candidate alternately, ${MODE.rounds} round(s) of ${MODE.pairSeconds} s each${MODE.warmupSeconds > 0 ? ` after a ${MODE.warmupSeconds} s warm-up of each` : ''}; throughput is 2xx answers per second over all rounds, p99 the median of the rounds' p99. Ratios are candidate / baseline. A load at a fixed rate (the event rows) is paced evenly by the load process instead, one request every 1/rate s with at most ${CONNECTIONS} in flight, latency counted from when each was due: autocannon's fixed rate spends each connection's budget for a second at once, so a second's requests would all leave at its start.`,
    'Services: `node apps/<name>/dist/main.js` for auth, worker, api-v0 and api-v1, each a process with NODE_ENV=production and LOG_LEVEL=info (the request log on, written to a file). WORKCELL_ENV is development because production refuses webhook receivers on a loopback or plain http address, which the local receiver is; nothing else on the request path reads it.',
    'Limits: the v1 read and write rate limits are raised to 1,000,000 per minute so that nothing answers 429. v0 keeps its fixed 100 per minute per token and path: its getTask load spreads over 2,000 ids (one path each) and 20 team tokens, so no token and path pair comes near it (a row with more than 1% non-2xx answers is a harness error, never a number).',
    'Baseline: a bare Fastify server over a `pg` pool (10 connections) in a process of its own, on the same database, tables and workspace: one SELECT of the task row, one SELECT of the first 100 unarchived tasks in id order, one single-row INSERT.',
    "Cost ledger (rows `ledger: …`): pairs that each remove one layer of the v1 read in the same run. The baseline server's `/gated/tasks/{id}` runs the gate's own Redis script (ADMIT_KNOWN, over ioredis with auto-pipelining, as the API does) before the same row read, so the raw stack carries the guarantee the API keeps (one exact shared rate limit and the authorization epoch, one round trip); its `/gated-statement/tasks/{id}` then runs the API's own getTask statement instead of the plain row read (the text and values the API sent, recorded with DATABASE_STATEMENT_LOG: tags, the caller's timer and the visibility rule), unnamed as the API sends it (`/gated-statement-prepared/…` prepares it once per connection: what preparing would buy), so the pair against v1 is the platform's own cost in the API process; a second api-v1 process, the same build with LOG_LEVEL=warn, answers without the request log line. Ratios are with the layer / without it. The serialization row takes one real listTasks page (100 tasks) from the API and serializes it in the harness's process, alternately with `JSON.stringify` (what the API does) and with fast-json-stringify compiled from the operation's success schema in the published v1 document (what Fastify would do with a route's `response` schema), per page; the ratio is compiled / JSON.stringify, and a note says when their bytes differ.",
    "Cost ledger of the keyed create (rows `ledger: … createTask …`): the unlogged api-v1 answers one unkeyed and one keyed POST /v1/tasks and records the statements it sent (DATABASE_STATEMENT_LOG); the baseline server then runs them with a fresh task id (and a fresh key) per request: `/statement/tasks` the unkeyed createTask statement (the task and its event with the workspace's next sequence from the counter row that stays locked to commit; the API wakes the relay after the commit, in a statement of its own), `/statement-notified/…` the same with the NOTIFY queued in it as the API sent it before the fourteenth session, `/statement-unsequenced/…` the same with nextval of a plain sequence in place of the counter (those events are deleted after the rows), `/keyed-statement/…` the idempotency claim and then the keyed statement, which completes the key: what a keyed create sends. Each pair removes one part; the last pair is the API process's own cost on a keyed create. The worker's relay publishes every event these routes write, as it does the API's.",
    `Data: a fresh database (the test harness's template, migrated) with the demo workspace and ${MODE.deepRows.toLocaleString('en')} tasks inserted by one INSERT … SELECT generate_series; each getTask request reads a random one of ${MODE.readIds.toLocaleString('en')} of them. v1 requests use a personal access token with tasks:read and tasks:write; v0 requests a random one of ${V0_TEAM_TOKENS} team tokens.`,
    `v0 deep page: one request at a time, page 1 and the deep page alternately, ${MODE.deepRounds} round(s); the ratio of their medians.`,
    `Webhooks and change feed: tasks are created through v1 at ${MODE.eventRate} per second for ${MODE.eventSeconds} s, evenly paced (one every ${(1000 / MODE.eventRate).toFixed(0)} ms); a receiver in the benchmark process, subscribed through POST /v1/webhooks to task.created, notes each arrival; latency is arrival minus the event's occurredAt (written in the creating transaction, so it includes the commit). A follower reads GET /v1/changes?types=tasks from its end before the load, asking again at once after each answer with wait=${FOLLOWER_WAIT_SECONDS} (a caught-up request is held until the next commit in the workspace); latency is when it first sees a created task minus its occurredAt.`,
    `RSS: VmRSS from /proc/<pid>/status of each service after all the load above (the baseline column shows the baseline server), and again ${MODE.rssSettleSeconds} s later with no load (reported: V8 returns the heap it grew under load when its memory reducer runs, seconds after the last full collection once allocation slows).`,
    `Webhook fairness (run last, after the RSS readings): four task.created subscriptions made through POST /v1/webhooks: in the demo workspace one healthy receiver (answers 200 at once, measured as in the webhooks row) and two silent ones, and one silent one in a second workspace; a silent receiver is a TCP server in the benchmark process that accepts the connection, reads and never answers (at most ${SILENT_MAX_HELD.toLocaleString('en')} connections held each). Tasks are created through v1 at ${MODE.fairnessRate} per second for ${MODE.fairnessSeconds} s in each workspace at once (two load processes, each evenly paced), so the other workspace's silent receiver has a backlog of its own. Reported: the healthy receiver's commit-to-delivery p50 / p95 / p99 and the events it never got within ${MODE.fairnessDrainSeconds} s after the load (a harness error), with every WEBHOOK_* setting at its default (the row's note names the ones that matter). All four subscriptions are removed at the row's end (their pending deliveries then end unsent) and the receivers close every socket.`,
  ];
}
