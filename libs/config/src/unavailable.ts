/**
 * Whether an error means PostgreSQL could not be reached, the connection was lost, or it did not answer in time
 * (the request's dependency budget ran out, Prisma could not start a transaction within its wait, or a
 * transaction outlived its timeout): a temporary dependency failure (the API answers 503 and the client
 * retries), as opposed to a statement PostgreSQL refused (a bug, or a constraint the domain should have
 * checked). Follows `cause` chains, since Prisma, its pg adapter and pg each wrap what they get.
 */
const PRISMA_CONNECTION_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);
const NET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNABORTED']);
/** SQLSTATE class 08 (connection exception) and 57P01–57P03 (the server is shutting down or not yet accepting). */
const SQLSTATE = /^(08[0-9A-Z]{3}|57P0[123])$/;
const MESSAGES =
  /connection terminated|timeout exceeded when trying to connect|connection ended unexpectedly|can't reach database server|server (has )?closed the connection|terminating connection due to administrator command|the database system is (starting up|shutting down)|\(dependency timeout\)|query read timeout|unable to start a transaction in the given time|cannot be executed on an expired transaction|not queryable/i;

export function isDatabaseUnavailable(error: unknown): boolean {
  // Prisma keeps the adapter's error of a failed raw query (P2010) in meta.driverAdapterError, not in cause.
  const pending: unknown[] = [error];
  for (let seen = 0; seen < 12 && pending.length > 0; seen++) {
    const current = pending.shift();
    if (current === null || typeof current !== 'object') continue;
    const { code, message, kind, originalCode, cause, meta } = current as { code?: unknown; message?: unknown; kind?: unknown; originalCode?: unknown; cause?: unknown; meta?: { driverAdapterError?: unknown } };
    if (typeof code === 'string' && (PRISMA_CONNECTION_CODES.has(code) || NET_CODES.has(code) || SQLSTATE.test(code))) return true;
    if (typeof originalCode === 'string' && SQLSTATE.test(originalCode)) return true;
    if (kind === 'DatabaseNotReachable' || kind === 'ConnectionClosed' || kind === 'SocketTimeout') return true;
    if (typeof message === 'string' && MESSAGES.test(message)) return true;
    pending.push(cause, meta?.driverAdapterError);
  }
  return false;
}
