import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * The test harness's infrastructure modes (docs/scale-out.md): a jest run started with WORKCELL_TEST_REDIS=cluster
 * gets a local three-master Redis Cluster, and every test's config reaches it through REDIS_CLUSTER_NODES. Started
 * once per jest run by its global setup (jest.global-setup.js), on free loopback ports under a temp directory (other
 * checkouts test at the same time), and stopped by its global teardown.
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
      children.push(child);
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

/** The modes named by WORKCELL_TEST_REDIS (and WORKCELL_TEST_PG), started for one jest run. */
export async function startHarnessModes(env: Readonly<Record<string, string | undefined>>): Promise<HarnessService[]> {
  const started: HarnessService[] = [];
  try {
    const redis = env['WORKCELL_TEST_REDIS'];
    if (redis === 'cluster') started.push(await startRedisCluster());
    else if (redis !== undefined && redis !== '' && redis !== 'single') throw new Error(`WORKCELL_TEST_REDIS=${redis}: expected cluster or single`);
  } catch (error) {
    await Promise.all(started.map((s) => s.stop()));
    throw error;
  }
  return started;
}
