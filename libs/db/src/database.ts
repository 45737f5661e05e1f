import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import type { AppConfig } from '@workcell/config';
import { PrismaClient } from './generated/prisma/client.js';

export { PrismaClient };
export type { Prisma } from './generated/prisma/client.js';

/**
 * The data-access layer's handle on PostgreSQL: one pg pool shared by the Prisma client and by the
 * readiness probe. A lost server surfaces as failed queries, and the pool reconnects by itself when the
 * server is back, so no service restart is ever needed.
 */
export interface Database {
  readonly prisma: PrismaClient;
  /** Resolves when PostgreSQL answers within the timeout; rejects otherwise. */
  ping(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export function createDatabase(config: AppConfig, options: { poolSize?: number } = {}): Database {
  const pool = new pg.Pool({
    connectionString: config.database.url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: config.dependencyTimeoutMs,
    idleTimeoutMillis: 30_000,
  });
  // An idle client whose server went away emits 'error' on the pool; without a listener that kills the process.
  pool.on('error', () => undefined);
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  let closed = false;
  return {
    prisma,
    async ping(timeoutMs = config.dependencyTimeoutMs) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`PostgreSQL did not answer within ${timeoutMs} ms`)), timeoutMs);
      });
      try {
        await Promise.race([pool.query('SELECT 1'), timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await prisma.$disconnect();
      await pool.end();
    },
  };
}
