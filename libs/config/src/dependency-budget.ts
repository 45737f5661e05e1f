import { AsyncLocalStorage } from 'node:async_hooks';
import { performance } from 'node:perf_hooks';

/**
 * The time a request may spend waiting on its dependencies (PostgreSQL, Redis, the auth service): one budget
 * of DEPENDENCY_TIMEOUT_MS per request, shared by every call the request makes, so a request that makes three
 * round trips still answers within the bound (per-call timeouts would stack up to three times it). Each
 * dependency client asks `dependencyTimeout()` how long its next call may take; the HTTP layer opens the
 * budget when a request arrives (libs/http server-limits.ts) and pauses it while the body is uploaded, which is
 * the client's time, not a dependency's. Code outside a request (jobs, tools, tests' fixtures) has no budget
 * and each client applies its own fallback.
 *
 * It lives with the configuration because it is what DEPENDENCY_TIMEOUT_MS means at run time, and because
 * every library that talks to a dependency already depends on this one.
 */
export class DependencyBudget {
  private deadline: number;
  private pausedAt: number | null = null;

  constructor(readonly totalMs: number) {
    this.deadline = performance.now() + totalMs;
  }

  /** Milliseconds left (0 when spent); while paused, what was left when the pause began. */
  remaining(): number {
    return Math.max(0, Math.floor(this.deadline - (this.pausedAt ?? performance.now())));
  }

  /** Stops the clock (the request body is arriving: the client's time, not a dependency's). */
  pause(): void {
    this.pausedAt ??= performance.now();
  }

  resume(): void {
    if (this.pausedAt === null) return;
    this.deadline += performance.now() - this.pausedAt;
    this.pausedAt = null;
  }
}

const storage = new AsyncLocalStorage<DependencyBudget>();

/** Runs `work` (and everything it starts asynchronously) under `budget`. */
export function withDependencyBudget<T>(budget: DependencyBudget, work: () => T): T {
  return storage.run(budget, work);
}

/** The budget of the request being handled, if any. */
export function currentDependencyBudget(): DependencyBudget | undefined {
  return storage.getStore();
}

/**
 * How long the next dependency call may take: what is left of the current request's budget (0 when it is
 * spent: the call must fail at once, as unavailable), or `fallbackMs` outside a request. `fallbackMs` of 0 means
 * unbounded outside a request.
 */
export function dependencyTimeout(fallbackMs: number): number {
  const budget = storage.getStore();
  return budget ? budget.remaining() : fallbackMs;
}

/**
 * A dependency did not answer within the time it had: a temporary failure (503 with Retry-After), never a
 * verdict. `code` is the errno name Node uses for a timed-out socket, so every classifier of network errors
 * (isDatabaseUnavailable in libs/db among them) recognises it.
 */
export class DependencyTimeoutError extends Error {
  readonly code = 'ETIMEDOUT';

  constructor(dependency: string, timeoutMs: number) {
    super(`${dependency} did not answer within ${timeoutMs} ms (dependency timeout)`);
    this.name = 'DependencyTimeoutError';
  }
}
