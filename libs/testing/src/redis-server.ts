import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { spawnProcess } from './process.js';
import { waitFor } from './wait.js';

/** A Redis server of a test's own (Debian's redis-server on a free loopback port, keeping nothing on disk). */
export interface RedisServer {
  readonly url: string;
  stop(): Promise<void>;
}

/** A free TCP port of 127.0.0.1 (closed again; the caller binds it at once). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Starts a separate Redis server, for tests that need one apart from the machine's (a second cell's own Redis).
 * A port taken between choosing and binding is retried with another.
 */
export async function startRedisServer(binary = 'redis-server'): Promise<RedisServer> {
  const dir = await mkdtemp(join(tmpdir(), 'workcell-redis-'));
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const proc = spawnProcess(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir]);
    try {
      await proc.waitFor(/Ready to accept connections/, 10_000);
    } catch (error) {
      await proc.stop('SIGKILL');
      if (attempt < 3) continue;
      await rm(dir, { recursive: true, force: true });
      throw error;
    }
    const url = `redis://127.0.0.1:${port}`;
    const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await waitFor('the Redis server to answer', async () => (await probe.ping().catch(() => undefined)) === 'PONG');
    probe.disconnect();
    return {
      url,
      async stop() {
        await proc.stop('SIGTERM');
        await rm(dir, { recursive: true, force: true });
      },
    };
  }
}
