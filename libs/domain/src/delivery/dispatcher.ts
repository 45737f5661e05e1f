import { claimDueDeliveries } from '@workcell/db';
import { withTraceparent } from '@workcell/telemetry';
import type { ProcedureContext } from '../kernel/procedure.js';
import { attemptDelivery } from './attempt.js';

/**
 * The worker's signed-delivery dispatcher (docs/webhooks.md "Delivery"). The database is the queue: each round
 * claims due deliveries fairly (claimDueDeliveries: every subscription at most WEBHOOK_SUBSCRIPTION_CONCURRENCY in
 * flight across workers, one while its breaker is open, none while it rests; the one waiting longest first) into the
 * free slots of this worker's WEBHOOK_DELIVERY_CONCURRENCY, and makes their attempts in this process. So a receiver
 * that never answers holds at most its own share of slots, for at most the delivery timeout, and then — its breaker
 * open — one slot per rest of the retry schedule; other subscriptions, and the worker's queues, go on.
 *
 * Rounds run one at a time; wake-ups during a round collapse into one more. Woken by the relay after each commit
 * of new deliveries, by every ended attempt (a slot, or a subscription's room, is free again: coalesced per turn
 * of the event loop), and by a poll every WEBHOOK_RELAY_POLL_MS (retries fall due, breakers end their rest). A
 * claim leases its rows: an attempt lost with its process is claimed again when the lease ends (at least once,
 * under the same `webhook-id`).
 */
export class DeliveryDispatcher {
  private readonly inFlight = new Set<Promise<void>>();
  private round: Promise<void> | null = null;
  private requested = false;
  private soon: NodeJS.Immediate | undefined;
  private poll: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly ctx: ProcedureContext,
    private readonly onError: (error: Error, deliveryId: string | null) => void = () => undefined,
  ) {}

  /** Attempts in flight in this process. */
  get size(): number {
    return this.inFlight.size;
  }

  /** How long a claim holds its delivery: past any attempt's end (timeout, then recording), and at least a minute. */
  get leaseMs(): number {
    return Math.max(60_000, 3 * this.ctx.config.webhooks.timeoutMs);
  }

  /** Starts the poll (idempotent). */
  start(): void {
    if (this.closed || this.poll) return;
    this.poll = setInterval(() => this.wake(), this.ctx.config.webhooks.relayPollMs);
    this.poll.unref();
    this.wake();
  }

  /** Asks for a round; resolves when a round that started after this call has ended (never rejects). */
  wake(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.requested = true;
    this.round ??= this.rounds();
    return this.round;
  }

  /** Claims nothing more; resolves when the round and the attempts in flight have ended (each within the timeout). */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.poll);
    if (this.soon) clearImmediate(this.soon);
    await this.round;
    await Promise.all([...this.inFlight]);
  }

  private async rounds(): Promise<void> {
    const { webhooks } = this.ctx.config;
    // Yield first: `this.round` is assigned by the caller before the `finally` below can clear it.
    await Promise.resolve();
    try {
      while (this.requested && !this.closed) {
        this.requested = false;
        const take = webhooks.deliveryConcurrency - this.inFlight.size;
        // No free slot: the next ended attempt wakes a round.
        if (take <= 0) break;
        const claimed = await claimDueDeliveries(this.ctx.database, {
          take,
          perSubscription: webhooks.subscriptionConcurrency,
          breakerThreshold: webhooks.breakerThreshold,
          leaseMs: this.leaseMs,
        });
        for (const delivery of claimed) {
          // Each attempt continues the trace of the request that appended its event (outbox trace_context).
          const running: Promise<void> = withTraceparent(delivery.event.traceContext, () => attemptDelivery(this.ctx, delivery))
            .catch((error: unknown) => this.onError(error instanceof Error ? error : new Error(String(error)), delivery.id))
            .finally(() => {
              this.inFlight.delete(running);
              this.wakeSoon();
            });
          this.inFlight.add(running);
        }
        // Every slot taken: more may be due at once.
        if (claimed.length === take) this.requested = true;
      }
    } catch (error) {
      // The database refused the claim: the poll tries again.
      this.onError(error instanceof Error ? error : new Error(String(error)), null);
    } finally {
      // Synchronously after the last check of `requested`: a wake-up from here on starts a new round.
      this.round = null;
    }
  }

  /** Attempts ending in the same turn of the event loop wake one round. */
  private wakeSoon(): void {
    if (this.closed || this.soon) return;
    this.soon = setImmediate(() => {
      this.soon = undefined;
      void this.wake();
    });
  }
}
