/**
 * Whether an error means a dependency (PostgreSQL, Redis) is unavailable: it could not be reached, the connection
 * was lost, it did not answer in time (the request's dependency budget ran out, Prisma could not start a
 * transaction within its wait, or a transaction outlived its timeout), or it is up but refuses work for now (too
 * many connections, out of resources, shutting down or starting up, loading its dataset, a failover under way).
 * That is a temporary failure (the API answers 503 with Retry-After and the client retries), as opposed to a
 * statement or command the dependency refused for what it said (a bug, or a constraint the domain should have
 * checked). The one classifier of it: the edge (libs/http problems.ts) and the internal channel
 * (libs/internal-api) both ask here. Follows `cause` chains, since Prisma, its pg adapter and pg each wrap what
 * they get.
 */
/** Prisma's: can't reach (P1001), timed out reaching (P1002) or reading (P1008), closed (P1017), pool timeout (P2024), too many connections (P2037). */
const PRISMA_CONNECTION_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2037']);
const NET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNABORTED']);
/**
 * SQLSTATE class 08 (connection exception), class 53 (insufficient resources: 53300 too many connections, 53100
 * disk full, 53200 out of memory, …) and 57P01–57P03 (shutting down, crashed, not accepting connections yet).
 */
const SQLSTATE = /^(08[0-9A-Z]{3}|53[0-9A-Z]{3}|57P0[123])$/;
/** The pg adapter's kinds of the same failures (it names 53300 rather than passing its code as `postgres`). */
const ADAPTER_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);
/**
 * Redis replies of a server that cannot serve yet: loading its dataset, its master lost, the cluster down or
 * resharding, or a master demoted to a replica by a failover (READONLY, until the client reconnects to the new one).
 */
const REDIS_REPLIES = /^(LOADING|MASTERDOWN|CLUSTERDOWN|TRYAGAIN|READONLY) /;
const MESSAGES = new RegExp(
  [
    // pg and pg-pool
    'connection terminated',
    'timeout exceeded when trying to connect',
    // pg's client-level connect timeout (the pools' connections, BudgetedClient in libs/db)
    '^timeout expired$',
    'connection ended unexpectedly',
    // Prisma
    "can't reach database server",
    'server (has )?closed the connection',
    'unable to start a transaction in the given time',
    'cannot be executed on an expired transaction',
    'not queryable',
    'query read timeout',
    // PostgreSQL's texts of the SQLSTATEs above, for a wrapper that kept only the message
    'terminating connection due to administrator command',
    'the database system is (starting up|shutting down)',
    // ioredis: a command on a connection that closed or is not open, a cluster it cannot map
    '^connection is closed\\.$',
    "stream isn't writeable",
    'reached the max retries per request limit',
    'none of startup nodes is available',
    'failed to refresh slots cache',
    'too many cluster redirections',
    // A prepared read refused once because a migration changed its result's type (libs/db preparedReads renews its
    // name, so the retry is served)
    '^cached plan must not change result type$',
    // DependencyTimeoutError (dependency-budget.ts)
    '\\(dependency timeout\\)',
  ].join('|'),
  'i',
);

export function isDependencyUnavailable(error: unknown): boolean {
  // Prisma keeps the adapter's error of a failed query (P2010, P2037, …) in meta.driverAdapterError, not in cause.
  const pending: unknown[] = [error];
  for (let seen = 0; seen < 12 && pending.length > 0; seen++) {
    const current = pending.shift();
    if (current === null || typeof current !== 'object') continue;
    const { code, message, kind, originalCode, cause, meta } = current as {
      code?: unknown;
      message?: unknown;
      kind?: unknown;
      originalCode?: unknown;
      cause?: unknown;
      meta?: { driverAdapterError?: unknown };
    };
    if (typeof code === 'string' && (PRISMA_CONNECTION_CODES.has(code) || NET_CODES.has(code) || SQLSTATE.test(code))) return true;
    if (typeof originalCode === 'string' && SQLSTATE.test(originalCode)) return true;
    if (typeof kind === 'string' && ADAPTER_KINDS.has(kind)) return true;
    if (typeof message === 'string' && (MESSAGES.test(message) || REDIS_REPLIES.test(message))) return true;
    pending.push(cause, meta?.driverAdapterError);
  }
  return false;
}
