import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { type AppConfig, currentDependencyBudget, DependencyBudget, dependencyDeadline, DependencyTimeoutError, startDependencyCall, withDependencyBudget } from '@workcell/config';
import { changingAuthorization, createRedis, type Redis } from '@workcell/redis';
import { type Prisma, PrismaClient } from './generated/prisma/client.js';
import { outboxWaker, WAKE_STATEMENT } from './outbox-wakes.js';
import { managePool } from './pool.js';
import { StatementLog, statementOf } from './statement-log.js';
import { statementTypes } from './timestamps.js';
import { dbQueryDuration, endSpan, observePool, SpanKind, startChildSpan } from '@workcell/telemetry';

export { PrismaClient };
export type { Prisma } from './generated/prisma/client.js';

/** The mark of a Db that is one transaction (Db[IN_TRANSACTION]). */
export const IN_TRANSACTION: unique symbol = Symbol('one transaction');

/**
 * Where statements run: the pool (Database) or one transaction (inTransaction, Database.transaction). Every
 * data-layer function takes it, so one written for the pool runs unchanged inside a caller's transaction. The caller
 * says what it wants back, the rows or the count, so no layer has to guess it from the statement's text.
 */
export interface Db {
  /** Set on a Db that is one transaction (inTransaction's, Database.transaction's): a transaction asked of it joins it. */
  readonly [IN_TRANSACTION]?: true;
  /** The statement's rows as pg decodes them (timestamps as Date, text arrays as arrays; int8 and numeric as strings). */
  rows<T>(query: Prisma.Sql): Promise<T[]>;
  /** The number of rows the statement affected. */
  execute(query: Prisma.Sql): Promise<number>;
  /**
   * Prisma's models on the pool or in the transaction. A pool transaction (Database.transaction), the thin path for
   * statements only, has none: reading it there throws.
   */
  readonly prisma: Prisma.TransactionClient;
  /**
   * Wakes the outbox's listeners of `workspaceId` (the webhook relay, the change feed's long polls) once this Db's
   * writes have committed: soon on the pool, whose statements commit by themselves; after the commit of a transaction,
   * and never for one that rolls back. Whoever appends an outbox event calls it (outbox.ts).
   */
  wakeOutbox(workspaceId: string): void;
}

/**
 * The data-access layer's handle on PostgreSQL: one pg pool shared by the Prisma client and by the
 * readiness probe. A lost server surfaces as failed queries, and the pool reconnects by itself when the
 * server is back, so no service restart is ever needed.
 */
export interface Database extends Db {
  readonly prisma: PrismaClient;
  /** Resolves when PostgreSQL answers within the timeout; rejects otherwise. */
  ping(timeoutMs?: number): Promise<void>;
  /**
   * Runs `change`, a transaction that changes who may do what in the workspace (a credential, team token, member,
   * role, grant, service account or the lock), between the two moves of the workspace's authorization epoch, so
   * that every API instance's cached verifications see it on the very next request (libs/redis
   * authorization-epochs.ts). Every such write goes through here (a test in this library finds any that does not).
   */
  changeAuthorization<T>(workspaceId: string, change: () => Promise<T>): Promise<T>;
  /** Resolves once every outbox wake-up asked of it so far has been sent (outbox-wakes.ts). */
  wakesSent(): Promise<void>;
  /**
   * `rows` and `execute` run one statement straight through the pool (within the request's dependency budget like
   * every statement), bypassing Prisma's client: the thinnest path for a hot statement (issue 11: a task read
   * through Prisma's raw query costs about twice as much CPU as through pg). It commits by itself.
   *
   * One transaction on a pool client of its own, its statements straight through pg like `rows`/`execute`: the thin
   * path for a hot transaction (the webhook relay's; Prisma's interactive transaction cost it most of its CPU).
   * `work`'s throw rolls back and is rethrown; a client whose ROLLBACK failed is destroyed, not reused.
   */
  transaction<T>(work: (tx: Db) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * The workspace whose authorization change is running in this async context (Database.changeAuthorization). The one
 * AsyncLocalStorage left in this library (issue 28), and on purpose: it carries nothing an operation uses, it only lets
 * the data layer's authorization writes check that they run inside the epoch's two moves, so a write that forgot
 * them fails in every test that reaches it. An explicit argument would be trusted instead of checked.
 */
const authorizationChange = new AsyncLocalStorage<string>();

/**
 * Every data-layer function that changes who may do what in a workspace calls this first: outside
 * Database.changeAuthorization for that workspace it throws, so a write that would leave API instances' cached
 * verifications stale fails in every test that reaches it instead of slipping through.
 */
export function assertChangingAuthorization(workspaceId: string): void {
  if (authorizationChange.getStore() !== workspaceId) throw new Error(`an authorization change of workspace ${workspaceId} must run inside Database.changeAuthorization`);
}

/** Runs `change` as an authorization change without moving any epoch (a Database no API instance caches against). */
export function runAsAuthorizationChange<T>(workspaceId: string, change: () => Promise<T>): Promise<T> {
  return authorizationChange.run(workspaceId, change);
}

type Callback = (error: Error | undefined, result?: unknown) => void;
type Discardable = { connection?: { stream?: { destroy(error?: Error): void } } };

const baseQuery = pg.Client.prototype.query as (this: pg.Client, ...args: unknown[]) => unknown;

/**
 * A pg client whose every statement, inside a request, ends within what is left of the request's dependency
 * budget (libs/config dependency-budget.ts), and counts against it while it waits. When the time runs out the
 * client is discarded: its socket is destroyed, failing the statement with DependencyTimeoutError (unavailable:
 * 503), so a late answer can never be read as the answer to someone else's statement, a transaction cut short is
 * rolled back by the server, and the pool drops the client on release instead of reusing it mid-protocol. A statement is never sent once the budget
 * is spent. Outside a request (jobs, tools) statements are not timed here: they may legitimately run long, and a
 * dead peer is detected by TCP keepalive.
 */
class BudgetedClient extends pg.Client {
  /** DATABASE_STATEMENT_LOG's recorder, handed down from the pool's options (createDatabase). */
  readonly statementLog: StatementLog | undefined;
  /** Settles when the last statement sent on this client has (sendInTurn); undefined while none is outstanding. */
  turn: Promise<void> | undefined;

  constructor(config?: pg.ClientConfig & { statementLog?: StatementLog; connectTimeoutMillis?: number }) {
    // The connect timeout is the client's own: the pool has none (BudgetedPool).
    super({ ...config, connectionTimeoutMillis: config?.connectTimeoutMillis ?? config?.connectionTimeoutMillis ?? 0 });
    this.statementLog = config?.statementLog;
    // A discarded client reports its error through the failed statements; an 'error' event nobody awaits
    // (emitted again when the socket ends) must not crash the process.
    this.on('error', () => undefined);
  }

  discard(error: Error): void {
    (this as unknown as Discardable).connection?.stream?.destroy(error);
  }
}

function budgetedQuery(this: BudgetedClient, ...args: unknown[]): unknown {
  if (this.statementLog) {
    const statement = statementOf(args);
    if (statement) this.statementLog.record(statement.text, statement.values);
  }
  const budget = currentDependencyBudget();
  const first = args[0] as { submit?: unknown } | undefined;
  if (first !== null && typeof first === 'object' && typeof first.submit === 'function') return baseQuery.apply(this, args);
  if (!budget) return sendInTurn(this, args);
  const call = startDependencyCall(Infinity);
  const callbackAt = typeof args[2] === 'function' ? 2 : typeof args[1] === 'function' ? 1 : -1;
  if (call.timeoutMs === 0) {
    call.end();
    // Nothing sent; the client may still hold an open transaction whose ROLLBACK can no longer be sent in time.
    const error = new DependencyTimeoutError('PostgreSQL', budget.totalMs);
    this.discard(error);
    if (callbackAt < 0) return Promise.reject(error);
    process.nextTick(() => (args[callbackAt] as Callback)(error));
    return undefined;
  }
  const cancel = dependencyDeadline(call.timeoutMs, () => this.discard(new DependencyTimeoutError('PostgreSQL', budget.totalMs)));
  const settled = () => {
    cancel();
    call.end();
  };
  if (callbackAt >= 0) {
    const callback = args[callbackAt] as Callback;
    args[callbackAt] = (error: Error | undefined, result?: unknown) => {
      settled();
      callback(error, result);
    };
    return sendInTurn(this, args);
  }
  const result = sendInTurn(this, args) as Promise<unknown>;
  result.then(settled, settled);
  return result;
}

/**
 * Sends a statement once the statement sent before it on this client has settled. pg 8 queues a statement sent
 * while another runs on the same client, deprecated (pg 9 refuses it), and Prisma's pg adapter sends a read's
 * relation queries at once inside an interactive transaction, all on its one client (prisma/orm#29468, open): the
 * client keeps the turn itself. With nothing outstanding the statement goes out at once, as before.
 */
function sendInTurn(client: BudgetedClient, args: unknown[]): unknown {
  const previous = client.turn;
  let done!: () => void;
  const turn = new Promise<void>((resolve) => (done = resolve));
  client.turn = turn;
  void turn.then(() => {
    if (client.turn === turn) client.turn = undefined;
  });
  const callbackAt = typeof args[2] === 'function' ? 2 : typeof args[1] === 'function' ? 1 : -1;
  if (callbackAt >= 0) {
    const callback = args[callbackAt] as Callback;
    args[callbackAt] = (error: Error | undefined, result?: unknown) => {
      done();
      callback(error, result);
    };
    // Sent later, a statement pg refuses at once still answers through its callback.
    if (previous) void previous.then(() => baseQuery.apply(client, args)).catch((error: Error) => (args[callbackAt] as Callback)(error));
    else baseQuery.apply(client, args);
    return undefined;
  }
  const result = previous ? previous.then(() => baseQuery.apply(client, args) as Promise<unknown>) : (baseQuery.apply(client, args) as Promise<unknown>);
  result.then(done, done);
  return result;
}

const queryOk = dbQueryDuration.labels('ok');
const queryError = dbQueryDuration.labels('error');

/** The statement's SQL verb (SELECT, INSERT, …, BEGIN), the span's name: never its text or values. */
function verbOf(query: unknown): string {
  const text = typeof query === 'string' ? query : (query as { text?: unknown } | null)?.text;
  if (typeof text !== 'string') return 'query';
  return (/^\s*([A-Za-z]+)/.exec(text)?.[1] ?? 'query').toUpperCase();
}

/**
 * Every statement of every client is timed (db_query_duration_seconds) and, inside a traced request or job, is a
 * client span of it; then it runs budgeted as above.
 */
function observedQuery(this: BudgetedClient, ...args: unknown[]): unknown {
  const first = args[0] as { submit?: unknown } | undefined;
  if (first !== null && typeof first === 'object' && typeof first.submit === 'function') return budgetedQuery.apply(this, args);
  const started = performance.now();
  const span = startChildSpan('db.query', SpanKind.CLIENT, { 'db.system.name': 'postgresql' });
  span?.updateName(`db ${verbOf(first)}`);
  const finish = (error: unknown) => {
    (error ? queryError : queryOk).observe((performance.now() - started) / 1000);
    endSpan(span, error ?? undefined);
  };
  const callbackAt = typeof args[2] === 'function' ? 2 : typeof args[1] === 'function' ? 1 : -1;
  if (callbackAt >= 0) {
    const callback = args[callbackAt] as Callback;
    args[callbackAt] = (error: Error | undefined, result?: unknown) => {
      finish(error);
      callback(error, result);
    };
    return budgetedQuery.apply(this, args);
  }
  const result = budgetedQuery.apply(this, args) as Promise<unknown>;
  result.then(() => finish(undefined), finish);
  return result;
}
BudgetedClient.prototype.query = observedQuery as typeof pg.Client.prototype.query;

type ConnectCallback = (error: Error | undefined, client?: pg.PoolClient, release?: (error?: Error | boolean) => void) => void;
const baseConnect = pg.Pool.prototype.connect as (this: pg.Pool, callback?: ConnectCallback) => Promise<pg.PoolClient> | undefined;

/**
 * A pool that tells waiting on PostgreSQL from waiting behind this process's own work (issue 25: healthy-but-busy
 * requests answered 503).
 * - A checkout that gets an idle client or connects a new one is a dependency call of the request: it ends within
 *   the rest of the budget, and a new connection within `connectTimeoutMs` (the client's own connect timeout).
 * - A checkout that must queue (every client is checked out) waits behind the process's other requests, which is
 *   not PostgreSQL's time: it spends no budget and waits while the pool makes progress (a client given back,
 *   connected or removed), and fails as unavailable only when the pool has made none for `stallMs`: every client is
 *   stuck on a server that does not answer. So ten concurrent writers on ten connections, or a hundred long polls
 *   woken by one commit, queue and answer, slower; a black-holed server still fails every request within the bound.
 * A client that arrives after the caller gave up goes straight back to the pool.
 */
class BudgetedPool extends pg.Pool {
  private lastProgress = performance.now();

  constructor(
    options: pg.PoolConfig,
    readonly stallMs: number,
  ) {
    super(options);
    const progress = () => {
      this.lastProgress = performance.now();
    };
    this.on('release', progress);
    this.on('connect', progress);
    this.on('remove', progress);
  }

  /** Milliseconds since the pool last made progress. */
  stalledFor(): number {
    return performance.now() - this.lastProgress;
  }
}

function budgetedConnect(this: BudgetedPool, callback?: ConnectCallback): Promise<pg.PoolClient> | undefined {
  const budget = currentDependencyBudget();
  // Queued: more checkouts already wait than there are idle clients and room for new ones.
  const queued = this.waitingCount >= this.idleCount + Math.max(0, (this.options.max ?? 10) - this.totalCount);
  if (!budget && !queued) return baseConnect.call(this, callback);
  const call = queued ? null : startDependencyCall(Infinity);
  const acquired = new Promise<pg.PoolClient>((resolve, reject) => {
    if (call?.timeoutMs === 0) return reject(new DependencyTimeoutError('PostgreSQL', budget!.totalMs));
    let settled = false;
    let cancel = () => undefined as void;
    const giveUp = () => {
      settled = true;
      reject(new DependencyTimeoutError('PostgreSQL', call ? budget!.totalMs : this.stallMs));
    };
    if (call) cancel = dependencyDeadline(call.timeoutMs, giveUp);
    else {
      // Queued: look again whenever `stallMs` may have passed without progress.
      const watch = (ms: number) => {
        cancel = dependencyDeadline(ms, () => {
          const left = this.stallMs - this.stalledFor();
          if (left <= 0) giveUp();
          else watch(left);
        });
      };
      watch(this.stallMs);
    }
    void baseConnect.call(this, (error, client, release) => {
      cancel();
      if (settled) return void (client && !error ? release?.() : undefined);
      settled = true;
      if (error || !client) reject(error ?? new Error('no client'));
      else resolve(client);
    });
  });
  if (call) acquired.then(call.end, call.end);
  if (!callback) return acquired;
  acquired.then(
    (client) => callback(undefined, client, client.release.bind(client)),
    (error: Error) => callback(error, undefined, () => undefined),
  );
  return undefined;
}
BudgetedPool.prototype.connect = budgetedConnect as typeof pg.Pool.prototype.connect;

/**
 * How a statement is sent: named (prepared once per connection) or unnamed (planned on every execution); `renew`
 * gives a text a new name, so every connection prepares it again (a stale plan, stalePlan).
 */
interface StatementNaming {
  (query: Prisma.Sql): pg.QueryConfig;
  renew?(text: string): void;
}

const unnamed: StatementNaming = (query) => ({ text: query.text, values: query.values });

/**
 * PostgreSQL refuses to execute a prepared statement whose result's row type has changed since it was prepared (a
 * migration altered the type of a column it returns): the connection keeps the statement, so it would fail there
 * until the connection ends.
 */
const stalePlan = (error: unknown): boolean => (error as { code?: string }).code === '0A000' && /cached plan must not change result type/.test((error as Error).message);

/** How many distinct read texts one process prepares at most; later ones are sent unnamed. */
export const PREPARED_READS_LIMIT = 500;

/**
 * Tables the platform fills at the rate of requests or events (queues, logs, keys, short-lived capabilities): their
 * statistics lag their size by up to an autovacuum cycle, so a generic plan made on them can be a sequential scan
 * over a table that has since grown by thousands of rows. A read that names one is planned every time.
 */
export const FAST_GROWING_TABLES = [
  'outbox_events',
  'webhook_deliveries',
  'idempotency_records',
  'audit_events',
  'automation_runs',
  'task_occurrences',
  'project_lifecycle_operations',
  'file_upload_reservations',
  'file_download_intents',
  'invitation_messages',
  'sign_in_links',
  'sessions',
  'device_authorizations',
  'exports',
] as const;
const FAST_GROWING = new RegExp(`\\b(?:${FAST_GROWING_TABLES.join('|')})\\b`);

/**
 * Names the reads (`SELECT …`) that `rows` sends, so each connection prepares a text once and PostgreSQL, after five
 * executions, runs its generic plan instead of planning the statement on every request: planning is the largest layer
 * of the v1 read (docs/performance.md, "Cost ledger"). A generic plan is as good as the statistics it was made with,
 * so only reads of tables whose statistics keep up (not FAST_GROWING_TABLES), and no write: with every statement
 * prepared, the keyed create's key completion ran a sequential scan planned while `idempotency_records` was empty,
 * holding its workspace's event-sequence row (measured: 0.16× → 0.089×). Only on a direct session (`prepare`): a
 * transaction pooler hands each statement any server connection, where the name may not exist. The texts are
 * bounded (`limit`): one built per request (an IN list of any length) must not add prepared statements to every
 * connection without end.
 */
export function preparedReads(prepare: boolean, limit = PREPARED_READS_LIMIT): StatementNaming {
  if (!prepare) return unnamed;
  const names = new Map<string, string>();
  const nameOf = (text: string) => `wc_${createHash('sha256').update(text).digest('base64url').slice(0, 24)}`;
  let renewals = 0;
  const naming: StatementNaming = (query) => {
    const { text, values } = query;
    if (!/^\s*SELECT\b/i.test(text) || FAST_GROWING.test(text)) return { text, values };
    let name = names.get(text);
    if (name === undefined) {
      if (names.size >= limit) return { text, values };
      name = nameOf(text);
      names.set(text, name);
    }
    return { name, text, values };
  };
  // A renewed text gets a name no connection has prepared yet, so each prepares it again on its next use (the old
  // statement stays on it, unused, until the connection ends).
  naming.renew = (text) => {
    if (names.has(text)) names.set(text, `${nameOf(text)}_${++renewals}`);
  };
  return naming;
}

/** Statements straight through pg on `client` (the pool, or a client holding a transaction). */
function pgStatements(client: pg.Pool | pg.PoolClient, naming: StatementNaming): Pick<Db, 'rows' | 'execute'> {
  return {
    async rows<T>(query: Prisma.Sql) {
      const config = naming(query);
      try {
        return (await client.query(config)).rows as T[];
      } catch (error) {
        if (config.name === undefined || !stalePlan(error)) throw error;
        naming.renew?.(query.text);
        // On the pool the read runs again, under its new name; in a transaction the refusal has aborted it.
        if (client instanceof pg.Pool) return (await client.query(naming(query))).rows as T[];
        throw error;
      }
    },
    execute: async (query: Prisma.Sql) => (await client.query(unnamed(query))).rowCount ?? 0,
  };
}

/** A pool transaction's Db: its statements go straight through pg, and Prisma cannot join it. */
function withoutModels(statements: Pick<Db, 'rows' | 'execute' | 'wakeOutbox'>): Db {
  return Object.defineProperty({ ...statements, [IN_TRANSACTION]: true as const }, 'prisma', {
    get(): never {
      throw new Error("a pool transaction (Database.transaction) runs statements only: Prisma's models need inTransaction");
    },
  }) as Db;
}

/**
 * Database.rows, Database.execute and Database.transaction on a pool. A transaction that has not ended after
 * `transactionTimeoutMs` (a statement the server never answers: a partition, a black hole) has its connection
 * destroyed: the statement fails, the server rolls the transaction back when it notices, and its locks (the relay
 * lock among them) cannot be held for ever. Requests' statements are bounded sooner by their dependency budget.
 */
export function poolStatements(
  pool: pg.Pool,
  options: { transactionTimeoutMs: number; naming?: StatementNaming; wakeOutbox: (workspaceId: string) => void },
): Pick<Database, 'rows' | 'execute' | 'transaction' | 'wakeOutbox'> {
  const naming = options.naming ?? unnamed;
  const { wakeOutbox } = options;
  return {
    ...pgStatements(pool, naming),
    wakeOutbox,
    async transaction<T>(work: (tx: Db) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      // A destroyed connection also emits 'error' on the client; the failed statement reports it.
      const ignore = () => undefined;
      client.on('error', ignore);
      const timer = setTimeout(
        () => (client as unknown as Discardable).connection?.stream?.destroy(new Error(`the transaction did not end within ${options.transactionTimeoutMs} ms`)),
        options.transactionTimeoutMs,
      );
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        const woken = new Set<string>();
        const result = await work(withoutModels({ ...pgStatements(client, naming), wakeOutbox: (workspaceId) => void woken.add(workspaceId) }));
        await client.query('COMMIT');
        for (const workspaceId of woken) wakeOutbox(workspaceId);
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
        throw error;
      } finally {
        clearTimeout(timer);
        client.off('error', ignore);
        client.release(broken);
      }
    },
  };
}

/** Longest an interactive transaction (Prisma's or Database.transaction) may live (a backstop for jobs; a request's statements are bounded by its budget). */
const TRANSACTION_TIMEOUT_MS = 15_000;

/**
 * `service`: the service this pool serves (api-v1, worker, …): PostgreSQL sees it as the sessions' application_name
 * (pg_stat_activity, the server's log), and only a service's statements are recorded into DATABASE_STATEMENT_LOG
 * (tests' and tools' own statements are not what the platform sends).
 */
export function createDatabase(config: AppConfig, options: { poolSize?: number; service?: string } = {}): Database {
  const statementLog = options.service && config.database.statementLog ? StatementLog.in(config.database.statementLog) : undefined;
  const managed = managePool(
    new BudgetedPool(
      {
        connectionString: config.database.url,
        ...(options.service ? { application_name: `workcell-${options.service}` } : {}),
        max: options.poolSize ?? 10,
        // No pool-level timeout (pg-pool's would also cut a queued checkout short: BudgetedPool bounds that by the
        // pool's progress); each new connection has DEPENDENCY_TIMEOUT_MS to connect (BudgetedClient).
        connectionTimeoutMillis: 0,
        connectTimeoutMillis: config.dependencyTimeoutMs,
        idleTimeoutMillis: 30_000,
        Client: BudgetedClient,
        // A peer that vanished without a word (a partition) is found by TCP keepalive rather than never.
        keepAlive: true,
        keepAliveInitialDelayMillis: 10_000,
        // A session its client abandoned mid-transaction (discarded above, or cut off by a partition the server
        // never noticed) is ended by the server, so its locks cannot outlive the fault.
        idle_in_transaction_session_timeout: 2 * TRANSACTION_TIMEOUT_MS,
        // Our statements' timestamptz values in UTC without the general parser (timestamps.ts); Prisma's adapter brings its own.
        types: statementTypes,
        // pg hands the pool's options to each client it makes (BudgetedClient's constructor).
        ...(statementLog ? { statementLog } : {}),
      } as pg.PoolConfig,
      config.dependencyTimeoutMs,
    ),
  );
  // managePool: an idle client whose server went away emits 'error' on the pool, which is listened to; and close()
  // returns only once every connection has ended, so a database dropped right after finds no session of ours.
  const { pool } = managed;
  const unobserve = observePool(pool);
  // An interactive transaction (inTransaction, and any direct $transaction) starts once the pool hands it a
  // connection, which BudgetedPool bounds (the budget for PostgreSQL's part, the pool's progress for the queue);
  // Prisma's own wait is only the backstop, so it must not cut a healthy queue short (issue 25). Prisma's timeout
  // errors count as unavailable (libs/config unavailable.ts).
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool), transactionOptions: { maxWait: TRANSACTION_TIMEOUT_MS, timeout: TRANSACTION_TIMEOUT_MS } });
  // Loads the query engine now rather than inside the first request's dependency budget; a database that is
  // down at start is found by the first query instead (the client connects lazily).
  void prisma.$connect().catch(() => undefined);
  let closed = false;
  // Connected on the first authorization change only: most users of a Database (tools, jobs) never make one.
  let redis: Redis | undefined;
  // Each wake-up within a dependency budget of its own: a server that stops answering fails it (dropped: the listeners'
  // polls cover it) instead of holding the waker, and the shutdown that waits for it, until TCP gives up.
  const waker = outboxWaker((channel, workspaceIds) => withDependencyBudget(new DependencyBudget(config.dependencyTimeoutMs), () => pool.query(WAKE_STATEMENT, [channel, workspaceIds])));
  return {
    prisma,
    // DATABASE_DIRECT_URL names another address when DATABASE_URL goes through a transaction pooler.
    ...poolStatements(pool, { transactionTimeoutMs: TRANSACTION_TIMEOUT_MS, naming: preparedReads(config.database.directUrl === config.database.url), wakeOutbox: waker.wake }),
    changeAuthorization(workspaceId, change) {
      redis ??= createRedis(config, 'authorization-epochs');
      return changingAuthorization(redis, config.dependencyTimeoutMs, workspaceId, () => authorizationChange.run(workspaceId, change));
    },
    wakesSent: waker.idle,
    async ping(timeoutMs = config.dependencyTimeoutMs) {
      let cancel: (() => void) | undefined;
      const timeout = new Promise<never>((_, reject) => {
        cancel = dependencyDeadline(timeoutMs, () => reject(new DependencyTimeoutError('PostgreSQL', timeoutMs)));
      });
      try {
        await Promise.race([pool.query('SELECT 1'), timeout]);
      } finally {
        cancel?.();
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      unobserve();
      await waker.idle();
      await prisma.$disconnect();
      await managed.end();
      redis?.disconnect();
    },
  };
}
