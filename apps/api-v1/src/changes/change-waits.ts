import { type BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '@workcell/config';
import { listenForOutboxEvents, type OutboxWaiter, OutboxWaiters } from '@workcell/db';
import { APP_CONFIG, LOGGER, type Logger } from '@workcell/http';

/**
 * Most `GET /v1/changes?wait=` requests one instance holds at once; the next one is answered at once, as with
 * `wait=0`. A held request costs a socket and a timer (no database connection); the bound keeps a crowd of
 * followers from holding an instance's memory and file descriptors.
 */
export const MAX_CHANGE_WAITERS = 1_000;

/**
 * The change feed's long poll on this instance: the waiters of held `GET /v1/changes?wait=` requests and the one
 * LISTEN session on the outbox channel that wakes them, started by the first held request. Before the HTTP server
 * drains on shutdown, every held request is ended (it answers its current page at once) and no new one is held,
 * so shutdown never waits out a long poll.
 */
@Injectable()
export class ChangeWaits implements BeforeApplicationShutdown {
  readonly waiters: OutboxWaiters;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.waiters = new OutboxWaiters({
      maxWaiters: MAX_CHANGE_WAITERS,
      listen: (handlers) =>
        listenForOutboxEvents(config, {
          ...handlers,
          onError: (error) => logger.warn({ err: error.message }, 'outbox listener lost; reconnecting (held change-feed requests re-read when it is back)'),
        }),
    });
  }

  /**
   * A waiter for a request asking to wait `seconds`, ending early when `signal` aborts (the client went away); null
   * for `wait=0` and when the instance holds MAX_CHANGE_WAITERS already or is shutting down. The wait is cut to fit
   * the connection's idle timeout with a read on either side of it: nothing flows to the client while it is held.
   */
  take(workspaceId: string, seconds: number, signal: AbortSignal): OutboxWaiter | null {
    const { idleTimeoutMs } = this.config.http;
    const timeoutMs = Math.min(seconds * 1000, idleTimeoutMs - 2 * this.config.dependencyTimeoutMs);
    return timeoutMs > 0 ? this.waiters.take(workspaceId, { timeoutMs, signal }) : null;
  }

  async beforeApplicationShutdown() {
    await this.waiters.close();
  }
}
