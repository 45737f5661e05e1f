import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { loadConfig } from '@workcell/config';
import { freePort } from './redis-server.js';
import { waitFor } from './wait.js';

const run = promisify(execFile);

/**
 * The test harness's infrastructure modes (docs/scale-out.md): a jest run started with WORKCELL_TEST_REDIS=cluster
 * gets a local three-master Redis Cluster, and every test's config reaches it through REDIS_CLUSTER_NODES; one
 * started with WORKCELL_TEST_PG=pgbouncer gets a PgBouncer in transaction pooling mode in front of the PostgreSQL
 * server, as DATABASE_URL, the server itself staying DATABASE_DIRECT_URL (testConfig routes each test's database
 * through it). Started once per jest run by its global setup (jest.global-setup.js), on free loopback ports under
 * a temp directory (other checkouts test at the same time), and stopped by its global teardown.
 */
export interface HarnessService {
  /** Environment variables that point the tests at the service. */
  readonly env: Readonly<Record<string, string>>;
  stop(): Promise<void>;
}

/** A free loopback port whose cluster bus port (10000 above it) is free too. */
async function freeNodePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = await freePort();
    if (port + 10_000 <= 65_535 && (await bindable(port + 10_000))) return port;
  }
  throw new Error('no free loopback port with a free bus port found');
}

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** Waits until `check` holds; a failing check (a refused connection) counts as not yet. */
const until = (what: string, check: () => Promise<boolean>) => waitFor(what, () => check().catch(() => false));

/** Started services are also killed when this process exits without its teardown (an interrupted jest run). */
function killOnExit(child: ChildProcess): ChildProcess {
  const kill = () => child.kill('SIGKILL');
  process.once('exit', kill);
  child.once('exit', () => process.removeListener('exit', kill));
  return child;
}

async function stopAll(children: readonly ChildProcess[], dir: string): Promise<void> {
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    ),
  );
  await rm(dir, { recursive: true, force: true });
}

const cli = (port: number, ...args: string[]) => run('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args], { encoding: 'utf8' });

/** Starts a Redis Cluster of `masters` masters (no replicas) with Debian's redis-server and redis-cli. */
export async function startRedisCluster(masters = 3): Promise<HarnessService> {
  const dir = await mkdtemp(join(tmpdir(), 'workcell-redis-cluster-'));
  const children: ChildProcess[] = [];
  try {
    const ports: number[] = [];
    for (let i = 0; i < masters; i++) {
      const port = await freeNodePort();
      ports.push(port);
      // prettier-ignore
      const child = spawn('redis-server', [
        '--port', String(port), '--bind', '127.0.0.1', '--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`,
        '--cluster-node-timeout', '5000', '--save', '', '--appendonly', 'no', '--dir', dir, '--logfile', join(dir, `${port}.log`),
      ], { stdio: 'ignore' });
      children.push(killOnExit(child));
      await until(`redis-server on port ${port} answering`, async () => (await cli(port, 'ping')).stdout.trim() === 'PONG');
    }
    await cli(ports[0]!, '--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', '0', '--cluster-yes');
    // Every node must see the whole slot map before a client may trust any of them.
    for (const port of ports) {
      await until(`the cluster seen as complete from port ${port}`, async () => {
        const info = (await cli(port, 'cluster', 'info')).stdout;
        return info.includes('cluster_state:ok') && info.includes(`cluster_known_nodes:${masters}`) && info.includes('cluster_slots_ok:16384');
      });
    }
    return { env: { REDIS_CLUSTER_NODES: ports.map((p) => `127.0.0.1:${p}`).join(',') }, stop: () => stopAll(children, dir) };
  } catch (error) {
    await stopAll(children, dir);
    throw error;
  }
}

/** Server connections PgBouncer keeps per database and user: few, so the tests prove many clients share them. */
export const PGBOUNCER_POOL_SIZE = 5;

/**
 * Starts Debian's pgbouncer (transaction pooling) in front of the PostgreSQL server of DATABASE_DIRECT_URL, for
 * every database on it (`* =`), its admin console open to that URL's user. PgBouncer refuses to run as root, so
 * as root it runs as `runAs` (a user that exists: Debian's postgres); its files are readable by that user.
 */
export async function startPgBouncer(runAs = 'postgres'): Promise<HarnessService & { readonly port: number }> {
  const direct = new URL(loadConfig().database.directUrl);
  const user = decodeURIComponent(direct.username || 'postgres');
  const password = decodeURIComponent(direct.password);
  const dir = await mkdtemp(join(tmpdir(), 'workcell-pgbouncer-'));
  await chmod(dir, 0o755);
  const port = await freePort();
  const quoted = (text: string) => `"${text.replace(/"/g, '""')}"`;
  await writeFile(join(dir, 'userlist.txt'), `${quoted(user)} ${quoted(password)}\n`, { mode: 0o644 });
  const ini = [
    '[databases]',
    `* = host=${direct.hostname.replace(/^\[(.*)\]$/, '$1')} port=${direct.port || 5432}`,
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${port}`,
    'unix_socket_dir =',
    'auth_type = trust',
    `auth_file = ${join(dir, 'userlist.txt')}`,
    `admin_users = ${user}`,
    'pool_mode = transaction',
    `default_pool_size = ${PGBOUNCER_POOL_SIZE}`,
    'max_client_conn = 2000',
    // libs/db asks each session for idle_in_transaction_session_timeout, a parameter PgBouncer cannot pass on per
    // client; its own idle_transaction_timeout ends such a client instead (docs/scale-out.md).
    'ignore_startup_parameters = idle_in_transaction_session_timeout',
    'idle_transaction_timeout = 30',
  ].join('\n');
  await writeFile(join(dir, 'pgbouncer.ini'), `${ini}\n`, { mode: 0o644 });
  const args = process.getuid?.() === 0 ? ['-u', runAs, join(dir, 'pgbouncer.ini')] : [join(dir, 'pgbouncer.ini')];
  const child = killOnExit(spawn('pgbouncer', args, { stdio: ['ignore', 'ignore', 'pipe'] }));
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => (output = (output + chunk.toString('utf8')).slice(-4000)));
  const pooled = new URL(direct);
  pooled.hostname = '127.0.0.1';
  pooled.port = String(port);
  try {
    await until('pgbouncer answering', async () => {
      if (child.exitCode !== null) throw new Error(`pgbouncer exited: ${output}`);
      const probe = new URL(pooled);
      probe.pathname = '/postgres';
      const client = new pg.Client({ connectionString: probe.toString() });
      await client.connect();
      try {
        await client.query('SELECT 1');
      } finally {
        await client.end();
      }
      return true;
    });
  } catch (error) {
    await stopAll([child], dir);
    throw new Error(`${(error as Error).message}; pgbouncer said: ${output}`);
  }
  return { port, env: { DATABASE_URL: pooled.toString(), DATABASE_DIRECT_URL: direct.toString() }, stop: () => stopAll([child], dir) };
}

/** The modes named by WORKCELL_TEST_REDIS (and WORKCELL_TEST_PG), started for one jest run. */
export async function startHarnessModes(env: Readonly<Record<string, string | undefined>>): Promise<HarnessService[]> {
  const started: HarnessService[] = [];
  try {
    const redis = env['WORKCELL_TEST_REDIS'];
    if (redis === 'cluster') started.push(await startRedisCluster());
    else if (redis !== undefined && redis !== '' && redis !== 'single') throw new Error(`WORKCELL_TEST_REDIS=${redis}: expected cluster or single`);
    const postgres = env['WORKCELL_TEST_PG'];
    if (postgres === 'pgbouncer') started.push(await startPgBouncer());
    else if (postgres !== undefined && postgres !== '' && postgres !== 'direct') throw new Error(`WORKCELL_TEST_PG=${postgres}: expected pgbouncer or direct`);
  } catch (error) {
    await Promise.all(started.map((s) => s.stop()));
    throw error;
  }
  return started;
}

/**
 * How the test harness runs the platform, chosen by the harness's own environment variables (docs/testing.md,
 * "Harness modes"); they configure the tests, not a service, so they are read here rather than in libs/config.
 * (WORKCELL_TEST_REDIS and WORKCELL_TEST_PG, above, are read once by jest's global setup.)
 * - WORKCELL_TEST_INSTANCES=2: every cell the e2e fixtures start runs two instances of each service (issue 16:
 *   nothing in one instance's memory may contradict another's).
 */
export interface HarnessMode {
  readonly instances: 1 | 2;
}

export function harnessMode(): HarnessMode {
  // eslint-disable-next-line no-restricted-properties -- the harness's own switches, not a service's configuration
  const { WORKCELL_TEST_INSTANCES: instances } = process.env;
  if (instances !== undefined && instances !== '1' && instances !== '2') throw new Error(`WORKCELL_TEST_INSTANCES must be 1 or 2, not ${instances}`);
  return { instances: instances === '2' ? 2 : 1 };
}
