import type { ProcedureContext } from '../kernel/procedure.js';
import { invoke } from '../kernel/procedure.js';
import { deliverWebhook, DeliveryRetry } from './deliver.js';

/** A pending signed delivery handed to the queue: `attempt` is the number of its next attempt, due in `delayMs`. */
export interface QueuedDelivery {
  readonly workspaceId: string;
  readonly deliveryId: string;
  readonly attempt: number;
  readonly delayMs: number;
}

/**
 * The first attempt of each new signed delivery, made in the worker's own process right after the relay's commit
 * instead of through a BullMQ job (issue 11: a job's enqueue, fetch, lock and completion cost the worker more CPU
 * than the delivery itself). At most WEBHOOK_DELIVERY_CONCURRENCY attempts run at once; when all are busy `start`
 * refuses and the caller queues the delivery, so a slow receiver never stalls the relay nor holds more than that
 * many deliveries in memory. A failed attempt has recorded itself (deliverWebhook) and its retry is queued, delayed
 * by its backoff; from there BullMQ retries as for any queued delivery. Nothing is lost: until an attempt ends, its
 * row stays pending, and a process that dies meanwhile leaves it to reviveStaleDeliveries (relay.ts).
 */
export class FirstAttempts {
  private readonly inFlight = new Set<Promise<void>>();
  private closed = false;

  constructor(
    private readonly ctx: ProcedureContext,
    private readonly enqueue: (delivery: QueuedDelivery) => Promise<void>,
    private readonly onError: (error: Error, delivery: { workspaceId: string; deliveryId: string }) => void = () => undefined,
  ) {}

  /** Attempts currently running. */
  get size(): number {
    return this.inFlight.size;
  }

  /** Starts the delivery's first attempt and returns true; false when every slot is busy or the pool is closed. */
  start(delivery: { workspaceId: string; deliveryId: string }): boolean {
    if (this.closed || this.inFlight.size >= this.ctx.config.webhooks.deliveryConcurrency) return false;
    const running: Promise<void> = this.attempt(delivery).finally(() => this.inFlight.delete(running));
    this.inFlight.add(running);
    return true;
  }

  /** Takes no more attempts; resolves when those in flight have ended (each within the webhook timeout). */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.inFlight]);
  }

  private async attempt(delivery: { workspaceId: string; deliveryId: string }): Promise<void> {
    const { attempts } = this.ctx.config.webhooks;
    try {
      await invoke(deliverWebhook, this.ctx, { ...delivery, attempts, lastRun: false });
    } catch (error) {
      try {
        if (!(error instanceof DeliveryRetry)) throw error;
        await this.enqueue({ ...delivery, attempt: error.attempt + 1, delayMs: error.delayMs });
      } catch (failure) {
        // The row is still pending (with its next retry time when the attempt was recorded): the relay's poll
        // revives it through the queue once it is stale.
        this.onError(failure instanceof Error ? failure : new Error(String(failure)), delivery);
      }
    }
  }
}
