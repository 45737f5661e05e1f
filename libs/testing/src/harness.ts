import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { loadConfig } from '@workcell/config';

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

/** A free loopback port, and (`plus`) the port that far above it free too (a cluster node's bus port). */
async function freePort(plus?: number): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = await listenOnce(0);
    if (plus === undefined) return port;
    if (port + plus <= 65_535 && (await listenOnce(port + plus).then(() => true, () => false))) return port;
  }
  throw new Error('no free loopback port pair found');
}

function listenOnce(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

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
      const port = await freePort(10_000);
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
