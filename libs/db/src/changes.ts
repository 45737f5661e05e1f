import { ResourceType } from './generated/prisma/enums.js';
import type { GrantResourceType } from './resource-grants.js';
import { Prisma } from './generated/prisma/client.js';
import type { Db } from './database.js';
import { eventReadableSql, type Viewer } from './visibility.js';

/**
 * The v1 change feed reads the transactional outbox (outbox_events) in per-workspace `sequence` order.
 *
 * Why paging by sequence is gap-free: appendOutboxEvent allocates the sequence with next_event_sequence(), an
 * upsert on the workspace's event_sequence_counters row. That row stays locked until the writing transaction
 * ends, so a second writer of the same workspace waits, gets n+1 only after the holder of n committed (or rolled
 * back, which also rolls the counter back: no holes), and commits after it. Commit order therefore equals
 * sequence order, and the committed counter value (`committedEventHead`) is a position up to which every event
 * is committed and visible: a reader never advances past an event that could still appear.
 */

export interface ChangeRecord {
  /** The event's id (uuid): a webhook delivery's `webhook-id`. */
  readonly id: string;
  readonly sequence: bigint;
  readonly aggregateType: string;
  readonly aggregateId: string;
  readonly eventType: string;
  readonly payload: unknown;
  readonly occurredAt: Date;
}

/** Whether an outbox aggregate type is also a resource-grant type (kernel/grants.ts); `workspace` is not. */
export function isGrantResourceType(aggregateType: string): aggregateType is GrantResourceType {
  return Object.hasOwn(ResourceType, aggregateType);
}

/** An outbox event's columns as a statement straight through pg reads them (int8 `sequence` as text). */
export interface OutboxEventColumns {
  readonly sequence: string;
  readonly aggregate_type: string;
  readonly aggregate_id: string;
  readonly event_type: string;
  readonly payload: unknown;
  readonly occurred_at: Date;
}

type WindowRow = OutboxEventColumns & { id: string };

/** The event read as `r`, whose id is `id` (a row naming another id too, a claimed delivery's, reads it as `event_id`). */
export const changeRecord = (r: OutboxEventColumns, id: string): ChangeRecord => ({
  id,
  sequence: BigInt(r.sequence),
  aggregateType: r.aggregate_type,
  aggregateId: r.aggregate_id,
  eventType: r.event_type,
  payload: r.payload,
  occurredAt: r.occurred_at,
});

const windowRecord = (r: WindowRow): ChangeRecord => changeRecord(r, r.id);

/**
 * The highest committed sequence of the workspace (0 before its first event); every event up to it is visible.
 * The feed's two statements go straight through pg (Db.rows on the pool): a follower reads on every commit it is woken for.
 */
export async function committedEventHead(client: Db, workspaceId: string): Promise<bigint> {
  const [row] = await client.rows<{ last_sequence: string }>(Prisma.sql`SELECT last_sequence::text AS last_sequence FROM event_sequence_counters WHERE workspace_id = ${workspaceId}::uuid`);
  return row ? BigInt(row.last_sequence) : 0n;
}

/**
 * The workspace's events with after < sequence <= upTo of these types whose aggregate the viewer may read now
 * (visibility.ts, in the statement), in sequence order, at most `take`. The window bound keeps the
 * (workspace_id, sequence) index range scan short however sparse the matching types are.
 */
export async function listOutboxWindow(client: Db, workspaceId: string, window: { after: bigint; upTo: bigint; eventTypes: readonly string[]; take: number; viewer: Viewer }): Promise<ChangeRecord[]> {
  if (window.eventTypes.length === 0 || window.upTo <= window.after) return [];
  const rows = await client.rows<WindowRow>(
    // ORDER BY names the column, not the text alias of the same name (which would order 10000 before 8199).
    Prisma.sql`SELECT o.id::text AS id, o.sequence::text AS sequence, aggregate_type, aggregate_id::text AS aggregate_id, event_type, payload, occurred_at
      FROM outbox_events o
     WHERE o.workspace_id = ${workspaceId}::uuid AND o.sequence > ${window.after.toString()}::bigint AND o.sequence <= ${window.upTo.toString()}::bigint
       AND o.event_type = ANY(${[...window.eventTypes]}::text[]) AND ${eventReadableSql(window.viewer)}
     ORDER BY o.sequence LIMIT ${window.take}`,
  );
  return rows.map(windowRecord);
}

/**
 * committedEventHead and the first listOutboxWindow after it in one statement (one snapshot, one round trip): the
 * window is after < sequence <= min(after + span, head). A caught-up follower reads only this, on every commit.
 */
export async function headAndFirstWindow(
  client: Db,
  workspaceId: string,
  window: { after: bigint; span: bigint; eventTypes: readonly string[]; take: number; viewer: Viewer },
): Promise<{ head: bigint; rows: ChangeRecord[] }> {
  if (window.eventTypes.length === 0) return { head: await committedEventHead(client, workspaceId), rows: [] };
  const rows = await client.rows<
    { head: string } & { [K in keyof WindowRow]: WindowRow[K] | null }
  >(Prisma.sql`WITH head AS (SELECT COALESCE(max(last_sequence), 0) AS last FROM event_sequence_counters WHERE workspace_id = ${workspaceId}::uuid)
    SELECT h.last::text AS head, w.id::text AS id, w.sequence::text AS sequence, w.aggregate_type, w.aggregate_id::text AS aggregate_id, w.event_type, w.payload, w.occurred_at
      FROM head h
      LEFT JOIN LATERAL (
        SELECT o.id, o.sequence, o.aggregate_type, o.aggregate_id, o.event_type, o.payload, o.occurred_at
          FROM outbox_events o
         WHERE o.workspace_id = ${workspaceId}::uuid AND o.sequence > ${window.after.toString()}::bigint
           AND o.sequence <= LEAST(${window.after.toString()}::bigint + ${window.span.toString()}::bigint, h.last)
           AND o.event_type = ANY(${[...window.eventTypes]}::text[]) AND ${eventReadableSql(window.viewer)}
         ORDER BY o.sequence LIMIT ${window.take}) w ON true
     ORDER BY w.sequence`);
  const head = BigInt(rows[0]!.head);
  return { head, rows: rows.flatMap((r) => (r.sequence === null ? [] : [windowRecord(r as WindowRow)])) };
}
