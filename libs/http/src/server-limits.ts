import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { type AppConfig, DependencyBudget, withDependencyBudget } from '@workcell/config';

/**
 * What one client may hold of a service, and how long a request may wait on the service's dependencies. Applied
 * to every service's HTTP server by createHttpApplication (docs/protocol.md "Dependency failures and server limits").
 */
export function applyServerLimits(fastify: FastifyInstance, config: AppConfig): void {
  boundConnections(fastify.server, config.http);
  openDependencyBudgets(fastify, config.dependencyTimeoutMs);
}

/**
 * Time and connection bounds on the HTTP server, so a client that trickles its request (slow loris) or sits on
 * connections cannot hold them without end:
 *
 * - the headers must arrive within HTTP_HEADERS_TIMEOUT_MS and the whole request (headers and body) within
 *   HTTP_REQUEST_TIMEOUT_MS of its first byte, or the connection is answered 408 and closed;
 * - a connection with nothing flowing, and a keep-alive connection between requests, is closed after
 *   HTTP_IDLE_TIMEOUT_MS (longer than the idle timeout of common load balancers, so they close first);
 * - a client address may hold at most HTTP_MAX_CONNECTIONS_PER_CLIENT connections at once; the next one is
 *   closed as soon as it is accepted. Behind a proxy every connection comes from the proxy's address, so there
 *   the proxy must bound connections per client and this limit is set to 0 (off) or above the proxy's pool.
 *
 * Fastify's defaults leave the request unbounded (requestTimeout 0). Node checks the header and request bounds
 * on a timer (30 s by default, which would let a trickle outlive a short bound by that much); it is set here to
 * a quarter of the header bound, at most a second. All of these are read when the server starts listening.
 */
function boundConnections(server: Server, limits: AppConfig['http']): void {
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  server.keepAliveTimeout = limits.idleTimeoutMs;
  server.setTimeout(limits.idleTimeoutMs);
  // A public property of http.Server (an option of createServer) that @types/node does not declare.
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = Math.max(50, Math.min(1_000, Math.floor(limits.headersTimeoutMs / 4)));
  if (limits.maxConnectionsPerClient === 0) return;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (address === undefined) return;
    const count = (open.get(address) ?? 0) + 1;
    if (count > limits.maxConnectionsPerClient) {
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}

/**
 * Every request gets one dependency budget of DEPENDENCY_TIMEOUT_MS (libs/config dependency-budget.ts), which
 * every dependency call it makes draws on: the rate limit's Redis command, the auth service, each PostgreSQL
 * checkout, statement and transaction, a job enqueue. When the budget is spent the next call fails at once as
 * unavailable, so a request answers 503 `service_unavailable` within the budget plus its own processing time,
 * however many round trips it makes.
 *
 * The budget is carried by async context. Fastify runs the hooks after body parsing in the body stream's
 * context, not the request's, so it is entered again once the body is in (preValidation comes before any
 * operation's compiled request path).
 */
function openDependencyBudgets(fastify: FastifyInstance, timeoutMs: number): void {
  const budgets = new WeakMap<object, DependencyBudget>();
  fastify.addHook('onRequest', (request, _reply, done) => {
    const budget = new DependencyBudget(timeoutMs);
    budgets.set(request, budget);
    withDependencyBudget(budget, () => done());
  });
  fastify.addHook('preValidation', (request, _reply, done) => {
    const budget = budgets.get(request);
    if (!budget) return done();
    withDependencyBudget(budget, () => done());
  });
}
