import { AsyncResource } from 'node:async_hooks';
import type { OutboxListener, OutboxListenerOptions } from './outbox.js';

/**
 * Why OutboxWaiter.next() returned: `event` (an outbox event was committed in the waiter's workspace, or the
 * LISTEN session was (re-)established and anything may have been missed: read again), `deadline` (its time is
 * up), `aborted` (its signal aborted: nobody is waiting for the answer), `closed` (the registry closed: the
 * instance is shutting down).
 */
export type WakeReason = 'event' | 'deadline' | 'aborted' | 'closed';

/** One caller waiting for its workspace's next commit (OutboxWaiters.take). */
export interface OutboxWaiter {
  /**
   * Resolves with `event` at the first wake since the previous call (or since the waiter was taken): at once when
   * one came in between, so a commit that lands while the caller reads is not missed. Wakes in between coalesce into
   * one. Once the waiter has ended (`deadline`, `aborted`, `closed`) every call answers that reason at once (after
   * one last `event` for a wake that came before the deadline).
   */
  next(): Promise<WakeReason>;
  /** Ends the waiter and gives its slot back (idempotent); the caller's `finally`. */
  release(): void;
}

export interface OutboxWaitersOptions {
  /** Most waiters at once; take() answers null beyond it, and the caller answers without waiting. */
  readonly maxWaiters: number;
  /**
   * Starts the LISTEN session whose notifications wake the waiters (listenForOutboxEvents with the caller's own
   * onError); called once, when the first waiter is taken. `onListening` fires on every (re-)connection.
   */
  readonly listen: (options: Pick<OutboxListenerOptions, 'onEvent' | 'onListening'>) => OutboxListener;
}

class Waiter implements OutboxWaiter {
  private pending = false;
  private ended: WakeReason | null = null;
  private resolveNext: ((reason: WakeReason) => void) | null = null;
  private shared: Promise<WakeReason> | null = null;
  private readonly timer: NodeJS.Timeout;
  private readonly onAbort = () => this.end('aborted');

  constructor(
    readonly workspaceId: string,
    timeoutMs: number,
    private readonly signal: AbortSignal | undefined,
    private readonly remove: (waiter: Waiter) => void,
  ) {
    this.timer = setTimeout(() => this.end('deadline'), timeoutMs);
    signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  wake(): void {
    if (this.ended) return;
    const resolve = this.resolveNext;
    if (resolve === null) {
      this.pending = true;
      return;
    }
    this.resolveNext = null;
    this.shared = null;
    resolve('event');
  }

  end(reason: WakeReason): void {
    if (this.ended) return;
    this.ended = reason;
    clearTimeout(this.timer);
    this.signal?.removeEventListener('abort', this.onAbort);
    this.remove(this);
    const resolve = this.resolveNext;
    this.resolveNext = null;
    this.shared = null;
    resolve?.(reason);
  }

  /** Whether the caller is blocked in next() now. */
  get waiting(): boolean {
    return this.resolveNext !== null;
  }

  next(): Promise<WakeReason> {
    // A wake that came before the deadline is still read; one before an abort or close is not (nobody gets it).
    if (this.pending && (this.ended === null || this.ended === 'deadline')) {
      this.pending = false;
      return Promise.resolve('event');
    }
    if (this.ended) return Promise.resolve(this.ended);
    // A second call while one waits shares its answer rather than orphaning it.
    this.shared ??= new Promise((resolve) => (this.resolveNext = resolve));
    return this.shared;
  }

  release(): void {
    // A caller that releases has stopped listening for the answer: for it, the same as an abort.
    this.end('aborted');
  }
}

/**
 * The waiters of one instance for their workspaces' next outbox commit (the change feed's long poll, `GET
 * /v1/changes?wait=`), woken by the instance's one LISTEN session on OUTBOX_CHANNEL: a notification for workspace
 * W wakes only W's waiters, and every (re-)established session wakes them all, since what was committed while it
 * was down was notified to nobody. A waiter is a timer and a callback, never a database connection: callers read,
 * take no connection while they wait, and read again when woken.
 *
 * The session starts with the first waiter, in the async context the registry was created in (not the first
 * caller's request, whose dependency budget and other request state it must not carry for its lifetime).
 */
export class OutboxWaiters {
  private readonly byWorkspace = new Map<string, Set<Waiter>>();
  private count = 0;
  private closed = false;
  private listener: OutboxListener | undefined;
  private readonly scope = new AsyncResource('OutboxWaiters');

  constructor(private readonly options: OutboxWaitersOptions) {}

  /** Waiters taken and not yet ended. */
  get size(): number {
    return this.count;
  }

  /** Waiters whose caller is blocked in next() now (read, found nothing, and waits). */
  get waiting(): number {
    let n = 0;
    for (const waiters of this.byWorkspace.values()) for (const waiter of waiters) if (waiter.waiting) n++;
    return n;
  }

  /**
   * A waiter for `workspaceId` that ends after `timeoutMs` or when `signal` aborts; null when the registry holds
   * `maxWaiters` already or is closed (the caller does not wait). Take it before the first read: every commit from
   * then on wakes it.
   */
  take(workspaceId: string, options: { readonly timeoutMs: number; readonly signal?: AbortSignal }): OutboxWaiter | null {
    if (this.closed || this.count >= this.options.maxWaiters || options.signal?.aborted) return null;
    this.listener ??= this.scope.runInAsyncScope(() => this.options.listen({ onEvent: (id) => this.wake(id), onListening: () => this.wakeAll() }));
    const waiter = new Waiter(workspaceId, options.timeoutMs, options.signal, (w) => this.remove(w));
    let waiters = this.byWorkspace.get(workspaceId);
    if (!waiters) this.byWorkspace.set(workspaceId, (waiters = new Set()));
    waiters.add(waiter);
    this.count++;
    return waiter;
  }

  /** Wakes the waiters of one workspace (a notification). */
  wake(workspaceId: string): void {
    for (const waiter of this.byWorkspace.get(workspaceId) ?? []) waiter.wake();
  }

  /** Wakes every waiter (the LISTEN session was (re-)established). */
  wakeAll(): void {
    for (const waiters of this.byWorkspace.values()) for (const waiter of waiters) waiter.wake();
  }

  /** Ends every waiter (`closed`), refuses new ones and closes the LISTEN session: the instance is shutting down. */
  async close(): Promise<void> {
    this.closed = true;
    for (const waiters of [...this.byWorkspace.values()]) for (const waiter of [...waiters]) waiter.end('closed');
    await this.listener?.close();
  }

  private remove(waiter: Waiter): void {
    const waiters = this.byWorkspace.get(waiter.workspaceId);
    if (!waiters?.delete(waiter)) return;
    this.count--;
    if (waiters.size === 0) this.byWorkspace.delete(waiter.workspaceId);
  }
}
