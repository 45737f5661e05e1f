import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import { percentile } from './ratio.js';

/**
 * The webhook receivers of `npm run bench`, in the benchmark's own process, on 127.0.0.1 only: one that answers
 * every delivery at once and notes its commit-to-delivery latency (the `webhooks` and `webhooks-fairness` rows),
 * and a silent one that accepts connections and never answers (the dead receivers of `webhooks-fairness`).
 */

/**
 * Answers 200 to every request at once. For each event of `eventType` it notes, per resource, the first
 * arrival's time minus the event's `timestamp` (its occurredAt, written in the creating transaction, so the
 * latency includes the commit), and counts every delivery (repeats included).
 */
export class EventReceiver {
  /** resourceId → ms from the event's timestamp to its first arrival. */
  readonly delivered = new Map<string, number>();
  /** resourceId → deliveries that arrived for it. */
  readonly counts = new Map<string, number>();
  deliveries = 0;
  /** Date.now() of the first and the last delivery (0: none yet). */
  firstDelivery = 0;
  lastDelivery = 0;

  private constructor(
    private readonly server: Server,
    readonly url: string,
    eventType: string,
  ) {
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const now = Date.now();
        res.writeHead(200).end();
        this.note(body, now, eventType);
      });
    });
  }

  static async start(port: number, eventType = 'task.created'): Promise<EventReceiver> {
    const server = createHttpServer();
    return new EventReceiver(server, await listen(server, port), eventType);
  }

  private note(body: string, now: number, eventType: string): void {
    try {
      const event = JSON.parse(body) as { type?: string; timestamp?: string; data?: { resourceId?: string } };
      const id = event.data?.resourceId;
      if (event.type !== eventType || !id || !event.timestamp) return;
      this.deliveries++;
      this.counts.set(id, (this.counts.get(id) ?? 0) + 1);
      this.firstDelivery ||= now;
      this.lastDelivery = now;
      if (!this.delivered.has(id)) this.delivered.set(id, now - Date.parse(event.timestamp));
    } catch {
      // not an event: ignored
    }
  }

  /** What arrived for these resources (the ids the load created): latencies in their order, and those missing. */
  summary(createdIds: readonly string[]): DeliverySummary {
    const created = new Set(createdIds);
    return {
      latencies: createdIds.filter((id) => this.delivered.has(id)).map((id) => this.delivered.get(id)!),
      lost: createdIds.filter((id) => !this.delivered.has(id)),
      repeated: [...this.counts.values()].reduce((sum, n) => sum + n - 1, 0),
      unanswered: [...this.counts.keys()].filter((id) => !created.has(id)).length,
      spanSeconds: (this.lastDelivery - this.firstDelivery) / 1000,
    };
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((r) => this.server.close(r));
  }
}

export interface DeliverySummary {
  /** Commit-to-delivery (ms) of each created resource that arrived. */
  readonly latencies: number[];
  /** Created resources whose event never arrived. */
  readonly lost: string[];
  /** Deliveries beyond the first per resource. */
  readonly repeated: number;
  /** Resources that arrived but are not among the created ids (their creating request got no 2xx within the load). */
  readonly unanswered: number;
  /** Seconds from the first delivery to the last. */
  readonly spanSeconds: number;
}

/** p50 / p95 / p99 by nearest rank; NaN for none. */
export function latencyPercentiles(latencies: readonly number[]): { p50: number; p95: number; p99: number } {
  const p = (q: number) => (latencies.length === 0 ? NaN : percentile(latencies, q));
  return { p50: p(50), p95: p(95), p99: p(99) };
}

/**
 * A receiver that accepts the TCP connection, reads and discards what is sent, and never answers: a sender
 * waits until its own timeout. Holds at most `maxHeld` connections at once (further ones are closed at once
 * by the server and counted as `dropped`); close() destroys every held socket.
 */
export class SilentReceiver {
  accepted = 0;
  dropped = 0;
  bytes = 0;
  maxHeldAtOnce = 0;
  private readonly held = new Set<Socket>();

  private constructor(
    private readonly server: TcpServer,
    readonly url: string,
  ) {
    server.on('connection', (socket: Socket) => this.hold(socket));
    server.on('drop', () => this.dropped++);
  }

  static async start(port: number, maxHeld: number): Promise<SilentReceiver> {
    const server = createTcpServer();
    server.maxConnections = maxHeld;
    return new SilentReceiver(server, await listen(server, port));
  }

  /** Connections held now. */
  get heldNow(): number {
    return this.held.size;
  }

  private hold(socket: Socket): void {
    this.accepted++;
    this.held.add(socket);
    this.maxHeldAtOnce = Math.max(this.maxHeldAtOnce, this.held.size);
    socket.on('data', (c: Buffer) => (this.bytes += c.length));
    socket.on('error', () => undefined);
    socket.on('close', () => this.held.delete(socket));
  }

  async close(): Promise<void> {
    const closed = new Promise((r) => this.server.close(r));
    for (const socket of this.held) socket.destroy();
    this.held.clear();
    await closed;
  }
}

/** Listens on 127.0.0.1:`port` (0: any free port); the receiver's URL. */
async function listen(server: Server | TcpServer, port: number): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
}

/** Polls `done` every `intervalMs` until it holds or `timeoutMs` have passed; whether it held. */
export async function waitUntil(done: () => boolean, timeoutMs: number, intervalMs = 100): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (done()) return true;
    if (Date.now() >= until) return false;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
