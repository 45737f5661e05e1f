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
  /connection terminated|timeout exceeded when trying to connect|connection ended unexpectedly|can't reach database server|server closed the connection|terminating connection due to administrator command|the database system is (starting up|shutting down)|\(dependency timeout\)|query read timeout|unable to start a transaction in the given time|cannot be executed on an expired transaction|not queryable/i;

export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current !== null && typeof current === 'object'; depth++) {
    const { code, message, kind, originalCode } = current as { code?: unknown; message?: unknown; kind?: unknown; originalCode?: unknown };
    if (typeof code === 'string' && (PRISMA_CONNECTION_CODES.has(code) || NET_CODES.has(code) || SQLSTATE.test(code))) return true;
    if (typeof originalCode === 'string' && SQLSTATE.test(originalCode)) return true;
    if (kind === 'DatabaseNotReachable' || kind === 'ConnectionClosed' || kind === 'SocketTimeout') return true;
    if (typeof message === 'string' && MESSAGES.test(message)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
