import type { RelayRun } from './relay.js';

/** When another process holds the relay lock: its run may have read the outbox before our event committed. */
const BUSY_RETRY_MS = 50;
/** Up to about one poll interval of retries; after that the poll (and that process's own wake-ups) cover it. */
const BUSY_RETRIES = 20;

/**
 * Runs the relay on demand, one run at a time in this process. Every wake-up (a commit's notification, the
 * listener coming up, the safety-net poll) asks for a run; wake-ups arriving while a run is in progress collapse
 * into exactly one more run after it, so a burst of notifications costs two runs, not one per event. A run that
 * filled its batch asks for the next at once (a backlog drains without waiting); one that found the relay lock
 * held by another process retries shortly, a bounded number of times.
 */
export class RelayTrigger {
  private running: Promise<void> | null = null;
  private requested = false;
  private stopped = false;

  constructor(private readonly run: () => Promise<RelayRun>) {}

  /** Asks for a run; resolves once a run that started after this call has ended, rejects with its error. */
  wake(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.requested = true;
    this.running ??= this.loop();
    return this.running;
  }

  /** No further runs; resolves when the one in progress has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.requested = false;
    await this.running?.catch(() => undefined);
  }

  private async loop(): Promise<void> {
    let busyRetries = 0;
    try {
      while (this.requested && !this.stopped) {
        this.requested = false;
        const run = await this.run();
        if (run.full) this.requested = true;
        if (run.busy && busyRetries < BUSY_RETRIES) {
          busyRetries++;
          await new Promise((resolve) => setTimeout(resolve, BUSY_RETRY_MS));
          this.requested = true;
        } else if (!run.busy) busyRetries = 0;
      }
    } finally {
      // Synchronously after the last check of `requested`: a wake-up from here on starts a new loop.
      this.running = null;
    }
  }
}
