import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { type AppConfig, configFrom, loadConfig } from '@workcell/config';
import { createTestDatabase, type TestDatabase } from './database.js';
import { createRedisPrefix, dropRedisPrefix } from './redis.js';

/** What the harness needs of a NestJS (Fastify) application; NestFastifyApplication satisfies it. */
export interface ListeningApp {
  listen(port: number, host: string): Promise<unknown>;
  getHttpServer(): { address(): AddressInfo | string | null };
  close(): Promise<void>;
}

export type AppFactory<A extends ListeningApp = ListeningApp> = (config: AppConfig) => Promise<A>;

/**
 * The harness's PgBouncer mode (WORKCELL_TEST_PG=pgbouncer, harness.ts) makes DATABASE_URL the pooler and
 * DATABASE_DIRECT_URL the server. A database `url` names on either is then reached through the pooler, with its
 * direct twin for sessions (LISTEN, migrations); a URL elsewhere (a fault test's proxy) is used as given. Without
 * the mode both are the one URL.
 */
function databaseUrls(base: AppConfig, url: string): { DATABASE_URL: string; DATABASE_DIRECT_URL?: string } {
  const pooler = new URL(base.database.url);
  const server = new URL(base.database.directUrl);
  if (pooler.host === server.host) return { DATABASE_URL: url };
  const on = (at: URL) => {
    const moved = new URL(url);
    moved.host = at.host;
    return moved.toString();
  };
  const host = new URL(url).host;
  if (host === server.host || host === pooler.host) return { DATABASE_URL: on(pooler), DATABASE_DIRECT_URL: on(server) };
  return { DATABASE_URL: url };
}

/**
 * A config for tests: the machine's PostgreSQL and Redis (or DATABASE_URL/REDIS_URL if set; DATABASE_STATEMENT_LOG too), random ports,
 * silent logs, plus the overrides given.
 */
export function testConfig(overrides: Record<string, string | undefined> = {}): AppConfig {
  const base = loadConfig();
  const database = databaseUrls(base, overrides['DATABASE_URL'] ?? base.database.url);
  return configFrom({
    REDIS_URL: base.redis.url,
    // The harness's Redis Cluster mode (WORKCELL_TEST_REDIS=cluster, harness.ts) reaches every app this way, except
    // one given a REDIS_URL of its own: a fault test's TcpProxy stands in front of one server, never a cluster
    // (whose nodes hand clients their own addresses), so that app talks to the one Redis behind the proxy.
    REDIS_CLUSTER_NODES: overrides['REDIS_URL'] === undefined ? base.redis.clusterNodes.map((n) => `${n.host}:${n.port}`).join(',') || undefined : undefined,
    // The statement check's recording (tools/statement-check) reaches every service a test boots.
    DATABASE_STATEMENT_LOG: base.database.statementLog,
    LOG_LEVEL: 'silent',
    API_V0_PORT: '0',
    API_V1_PORT: '0',
    AUTH_PORT: '0',
    WORKER_PORT: '0',
    SHUTDOWN_TIMEOUT_MS: '5000',
    // Tests make many requests with one credential; the rate-limit tests set their own limits.
    V1_RATE_LIMIT_READ_PER_MINUTE: '1000000',
    V1_RATE_LIMIT_WRITE_PER_MINUTE: '1000000',
    ...overrides,
    ...database,
    ...(overrides['DATABASE_DIRECT_URL'] === undefined ? {} : { DATABASE_DIRECT_URL: overrides['DATABASE_DIRECT_URL'] }),
  });
}

export interface RunningApp<A extends ListeningApp = ListeningApp> {
  readonly app: A;
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/** Boots any of the four apps in-process on a random port of 127.0.0.1. */
export async function startApp<A extends ListeningApp>(factory: AppFactory<A>, config: AppConfig): Promise<RunningApp<A>> {
  const app = await factory(config);
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address();
  if (address === null || typeof address === 'string') throw new Error('the app is not listening on a TCP port');
  return { app, url: `http://127.0.0.1:${address.port}`, port: address.port, close: () => app.close() };
}

export interface TestEnvironment {
  readonly config: AppConfig;
  readonly databaseUrl: string;
  readonly redisPrefix: string;
}

/**
 * Registers before/after hooks giving this test file its own database and Redis prefix, and returns
 * accessors for the resulting config. Pass config overrides as needed.
 */
export function useTestEnvironment(overrides: Record<string, string | undefined> = {}): TestEnvironment {
  let db: TestDatabase | undefined;
  let config: AppConfig | undefined;
  const redisPrefix = createRedisPrefix();
  // The mail outbox driver's directory (config.mail.outboxDir): one per test file, like the database.
  const mailOutboxDir = join(tmpdir(), `workcell-mail-${redisPrefix.replace(/[^A-Za-z0-9_-]/g, '-')}`);
  beforeAll(async () => {
    db = await createTestDatabase();
    config = testConfig({ DATABASE_URL: db.url, REDIS_PREFIX: redisPrefix, MAIL_OUTBOX_DIR: mailOutboxDir, ...overrides });
  });
  afterAll(async () => {
    await db?.drop();
    await dropRedisPrefix(redisPrefix);
    await rm(mailOutboxDir, { recursive: true, force: true });
  });
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('useTestEnvironment(): available only inside tests and hooks');
    return value;
  };
  return {
    get config() {
      return ready(config);
    },
    get databaseUrl() {
      return ready(db).url;
    },
    redisPrefix,
  };
}
