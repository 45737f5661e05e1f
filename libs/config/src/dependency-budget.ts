import { AsyncLocalStorage } from 'node:async_hooks';
import { performance } from 'node:perf_hooks';

/**
 * The time a request may spend waiting on its dependencies (PostgreSQL, Redis, the auth service): one budget
 * of DEPENDENCY_TIMEOUT_MS per request, shared by every call the request makes, so a request that makes three
 * round trips still answers within the bound (per-call timeouts would stack up to three times it). The budget
 * runs only while at least one dependency call of the request is outstanding: the request's own processing (a
 * cold start, a loaded machine) and the client's upload are not a dependency's time, so they never turn a
 * healthy request into a 503. Each dependency client starts its calls with `startDependencyCall()`, which tells
 * how long the call may take (0: the budget is spent, fail at once as unavailable); the HTTP layer opens a
 * budget for each request (libs/http server-limits.ts). Code outside a request (jobs, tools, tests' fixtures)
 * has no budget and each client applies its own fallback.
 *
 * It lives with the configuration because it is what DEPENDENCY_TIMEOUT_MS means at run time, and because
 * every library that talks to a dependency already depends on this one.
 */
export class DependencyBudget {
  private spent = 0;
  private outstanding = 0;
  private since = 0;

  constructor(readonly totalMs: number) {}

  /** Milliseconds of waiting left (0 when spent). */
  remaining(): number {
    const running = this.outstanding > 0 ? performance.now() - this.since : 0;
    return Math.max(0, Math.floor(this.totalMs - this.spent - running));
  }

  /** Marks one call outstanding; the returned function (idempotent) marks it settled. */
  begin(): () => void {
    if (this.outstanding++ === 0) this.since = performance.now();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      if (--this.outstanding === 0) this.spent += performance.now() - this.since;
    };
  }
}

/** One dependency call: how long it may take (0: not at all) and what to call when it has settled. */
export interface DependencyCall {
  readonly timeoutMs: number;
  end(): void;
}

// An AsyncLocalStorage rather than a field of the request's operation (issue 28 passes everything else explicitly):
// the budget is read where no operation reaches: inside pg's pool and clients (libs/db BudgetedPool, BudgetedClient)
// when Prisma's driver adapter runs a statement, and in the Redis commands, job enqueues and internal calls that
// libraries make on a request's behalf.
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
 * Starts a dependency call: within a request, it may take what is left of the request's budget (at most
 * `fallbackMs`; 0 when the budget is spent: fail at once, as unavailable), and the budget runs until `end()`;
 * outside a request it may take `fallbackMs`.
 */
export function startDependencyCall(fallbackMs: number): DependencyCall {
  const budget = storage.getStore();
  if (!budget) return { timeoutMs: fallbackMs, end: () => undefined };
  return { timeoutMs: Math.min(fallbackMs, budget.remaining()), end: budget.begin() };
}

/**
 * Calls `onExpire` once `ms` have passed and the answers that had arrived by then have been read; the returned
 * function cancels it. A timer fires in the event loop's timers phase, before the poll phase reads the sockets, so on
 * a loaded machine (the process late on its own loop) an answer already waiting in a socket would be judged late and
 * a healthy request answered 503 (issue 25). The verdict is taken after that poll phase (setImmediate): only a
 * dependency that has really not answered expires. Every dependency timeout goes through here.
 */
export function dependencyDeadline(ms: number, onExpire: () => void): () => void {
  let cancelled = false;
  let immediate: NodeJS.Immediate | undefined;
  // Unreferenced, like AbortSignal.timeout: a deadline alone never keeps a process running.
  const timer = setTimeout(() => {
    immediate = setImmediate(() => {
      if (!cancelled) onExpire();
    }).unref();
  }, ms).unref();
  return () => {
    cancelled = true;
    clearTimeout(timer);
    if (immediate) clearImmediate(immediate);
  };
}

/**
 * A dependency did not answer within the time it had: a temporary failure (503 with Retry-After), never a
 * verdict. `code` is the errno name Node uses for a timed-out socket, so anything that classifies network errors
 * (isDependencyUnavailable, unavailable.ts, among them) recognises it.
 */
export class DependencyTimeoutError extends Error {
  readonly code = 'ETIMEDOUT';

  constructor(dependency: string, timeoutMs: number) {
    super(`${dependency} did not answer within ${timeoutMs} ms (dependency timeout)`);
    this.name = 'DependencyTimeoutError';
  }
}
