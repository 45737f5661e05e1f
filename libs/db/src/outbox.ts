import pg from 'pg';
import type { AppConfig } from '@workcell/config';
import type { Db } from './database.js';
import { Prisma } from './generated/prisma/client.js';
import { type HeldIdempotencyKey, keyCompletion } from './idempotency.js';
import { currentTraceparent } from '@workcell/telemetry';
import { OUTBOX_CHANNEL } from './outbox-wakes.js';

export interface DomainEvent {
  readonly workspaceId: string;
  /** e.g. project, task */
  readonly aggregateType: string;
  readonly aggregateId: string;
  /** e.g. project.created, task.updated, task.archived */
  readonly eventType: string;
  readonly payload: Prisma.InputJsonValue;
  readonly occurredAt?: Date;
  /**
   * The operation's result, on the event of a mutation that answers an idempotent request: stored with the
   * request's held key by the same statement (keyCompletion), so the key is completed exactly when the change
   * commits. Not part of the event.
   */
  readonly result?: unknown;
  /** Who made the change: the principal of the operation that made it; null for the platform itself. */
  readonly actor: EventActor | null;
  /** The automation run whose step made the change (docs/automations.md: loops); null for anything else. */
  readonly cause: EventCause | null;
  /** The idempotency key the operation holds, completed with `result` by the event's own statement (keyCompletion). */
  readonly heldKey?: HeldIdempotencyKey | null;
}

/** The principal whose request made a change: recorded with its events (`actor_type`, `actor_id`). */
export interface EventActor {
  readonly type: 'member' | 'service_account';
  readonly id: string;
}

/** The automation run whose step is writing (docs/automations.md: loops): recorded with every event it appends. */
export interface EventCause {
  readonly definitionId: string;
  readonly runId: string;
  /** The run's depth in a chain of automations (1: triggered by a change no automation made). */
  readonly depth: number;
}

/**
 * Writes a domain event to the outbox inside the mutation's own transaction, so the event exists exactly
 * when the change commits. Its per-workspace sequence comes from next_event_sequence(), which holds the
 * workspace's counter row until commit: sequences appear in commit order and a change-feed reader paging by
 * sequence never skips an event that commits late. Once it has committed, the workspace's outbox listeners are
 * woken (Db.wakeOutbox: the relay at once instead of at its next poll, the change feed's long polls).
 */
export async function appendOutboxEvent(tx: Db, event: DomainEvent): Promise<bigint> {
  // int8 comes back as a string through pg, as a bigint through Prisma's transaction client.
  const [row] = await tx.rows<{ sequence: string | bigint }>(Prisma.sql`WITH ${outboxAppend(event)}`);
  tx.wakeOutbox(event.workspaceId);
  return BigInt(row!.sequence);
}

/**
 * A mutation that writes its change and its event in one statement (a data-modifying WITH, atomic without a
 * transaction of its own): `changes` are its CTEs before the event's (`task AS (…), tags AS (…)`). Like
 * appendOutboxEvent it wakes the workspace's outbox listeners once the statement has committed.
 */
export async function executeWithOutboxEvent(db: Db, changes: Prisma.Sql, event: DomainEvent): Promise<void> {
  await db.execute(Prisma.sql`WITH ${changes}, ${outboxAppend(event)}`);
  db.wakeOutbox(event.workspaceId);
}

/**
 * An event that a data-layer writer appends itself, in its own statement (outboxAppend), rather than through
 * appendOutboxEvent. It returns the event unchanged: the name is what matters, so that the event catalog's source
 * check (libs/domain events/catalog.test.ts) sees every event a write path emits, whichever way it is written.
 */
export function outboxEvent(event: DomainEvent): DomainEvent {
  return event;
}

/**
 * The event's append after a WITH: the CTE `appended` inserting the event with its sequence (and completing the
 * held idempotency key, keyCompletion), and the SELECT returning the sequence. No NOTIFY: queued in the writing
 * transaction it would take a database-wide lock through the commit's flush (outbox-wakes.ts); the wake-up follows
 * the commit instead.
 */
function outboxAppend(event: DomainEvent): Prisma.Sql {
  const { actor, cause } = event;
  return Prisma.sql`appended AS (
      INSERT INTO outbox_events (workspace_id, sequence, aggregate_type, aggregate_id, event_type, payload, occurred_at, actor_type, actor_id, caused_by_definition_id, caused_by_run_id, automation_depth, trace_context)
      VALUES (${event.workspaceId}::uuid, next_event_sequence(${event.workspaceId}::uuid), ${event.aggregateType}, ${event.aggregateId}::uuid,
              ${event.eventType}, ${JSON.stringify(event.payload)}::jsonb, COALESCE(${event.occurredAt ?? null}::timestamptz, clock_timestamp()),
              ${actor?.type ?? null}, ${actor?.id ?? null}::uuid, ${cause?.definitionId ?? null}::uuid, ${cause?.runId ?? null}::uuid, ${cause?.depth ?? 0}::int, ${currentTraceparent()}::text)
      RETURNING sequence)${keyCompletion(event.heldKey, event.workspaceId, event.result)}
    SELECT appended.sequence FROM appended`;
}

export interface OutboxListener {
  /** Whether the LISTEN session is established now. */
  readonly listening: boolean;
  close(): Promise<void>;
}

export interface OutboxListenerOptions {
  /** One call per notification received (the workspace id); bursts arrive as many calls, so coalesce. */
  readonly onEvent: (workspaceId: string) => void;
  /** Each time LISTEN is (re-)established: events committed while it was down were notified to nobody. */
  readonly onListening?: () => void;
  /** The session failed (it is re-established with backoff). */
  readonly onError?: (error: Error) => void;
}

const RECONNECT_MIN_MS = 100;
const RECONNECT_MAX_MS = 10_000;
/** How often the session is probed: a partitioned peer never closes it, and TCP keepalive takes minutes. */
const HEARTBEAT_MS = 5_000;

type Discardable = { connection?: { stream?: { destroy(): void } } };

/**
 * A dedicated connection LISTENing on OUTBOX_CHANNEL. LISTEN belongs to a session, so it is a direct `pg`
 * client on DATABASE_LISTEN_URL (default DATABASE_DIRECT_URL, else DATABASE_URL), never a pooled connection and never through a
 * transaction pooler (which would hand the session to others and lose the LISTEN). On any failure (error, end,
 * a heartbeat unanswered within DEPENDENCY_TIMEOUT_MS) the session is dropped and re-established with doubling
 * backoff (0.1 s … 10 s). A missed notification only delays: the relay's poll is the safety net.
 */
export function listenForOutboxEvents(config: AppConfig, options: OutboxListenerOptions): OutboxListener {
  let closed = false;
  let listening = false;
  let current: pg.Client | null = null;
  let backoffMs = RECONNECT_MIN_MS;
  let retry: NodeJS.Timeout | undefined;
  let heartbeat: NodeJS.Timeout | undefined;

  const connect = async () => {
    const client = new pg.Client({
      connectionString: config.database.listenUrl,
      connectionTimeoutMillis: config.dependencyTimeoutMs,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    current = client;
    let failed = false;
    const fail = (error: Error) => {
      if (failed) return;
      failed = true;
      listening = false;
      clearInterval(heartbeat);
      // Destroy rather than end: a partitioned server would never answer the goodbye.
      (client as unknown as Discardable).connection?.stream?.destroy();
      if (closed) return;
      options.onError?.(error);
      retry = setTimeout(() => void connect(), backoffMs);
      retry.unref();
      backoffMs = Math.min(2 * backoffMs, RECONNECT_MAX_MS);
    };
    client.on('error', fail);
    client.on('end', () => fail(new Error('the LISTEN session ended')));
    client.on('notification', (message) => {
      if (message.channel === OUTBOX_CHANNEL) options.onEvent(message.payload ?? '');
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${OUTBOX_CHANNEL}`);
    } catch (error) {
      return fail(error as Error);
    }
    if (failed) return;
    if (closed) return void client.end().catch(() => undefined);
    listening = true;
    backoffMs = RECONNECT_MIN_MS;
    let probing = false;
    heartbeat = setInterval(() => {
      if (probing) return;
      probing = true;
      const timer = setTimeout(() => fail(new Error(`the LISTEN session did not answer within ${config.dependencyTimeoutMs} ms`)), config.dependencyTimeoutMs);
      client.query('SELECT 1').then(
        () => {
          clearTimeout(timer);
          probing = false;
        },
        (error: Error) => {
          clearTimeout(timer);
          fail(error);
        },
      );
    }, HEARTBEAT_MS);
    heartbeat.unref();
    options.onListening?.();
  };
  void connect();

  return {
    get listening() {
      return listening;
    },
    async close() {
      closed = true;
      listening = false;
      clearTimeout(retry);
      clearInterval(heartbeat);
      const client = current;
      current = null;
      if (!client) return;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([client.end().catch(() => undefined), new Promise((r) => (timer = setTimeout(r, config.dependencyTimeoutMs)))]);
      clearTimeout(timer);
      (client as unknown as Discardable).connection?.stream?.destroy();
    },
  };
}
