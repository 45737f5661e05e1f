import { Prisma } from './generated/prisma/client.js';
import type { EventActor } from './outbox.js';
import type { TargetKind } from './targets.js';
import type { Db } from './database.js';

/**
 * A target's activity, read from the event log (outbox_events), never from a second record: the target's own
 * events (its aggregate) and the events of the comments on it (filed under each comment, whose payload names the
 * target), merged in sequence (commit) order.
 */

export interface TargetEventRecord {
  readonly id: string;
  readonly sequence: bigint;
  readonly aggregateType: string;
  readonly eventType: string;
  readonly payload: unknown;
  readonly occurredAt: Date;
  /** null: the platform itself, or an event recorded before actors were. */
  readonly actor: EventActor | null;
}

export interface TargetEventQuery {
  readonly kind: TargetKind;
  readonly id: string;
  /** How comment payloads name the target's type (`payload.comment.targetType`). */
  readonly commentTargetType: string;
  /** The target's own event types to read, and the comment event types; an empty list reads none of them. */
  readonly eventTypes: readonly string[];
  readonly commentEventTypes: readonly string[];
  readonly actorId?: string | undefined;
  /** occurred_at >= from, occurred_at < to */
  readonly from?: Date | undefined;
  readonly to?: Date | undefined;
}

type Row = { id: string; sequence: string; aggregate_type: string; event_type: string; payload: unknown; occurred_at: Date; actor_type: EventActor['type'] | null; actor_id: string | null };

/**
 * One keyset page of a target's events after `afterSequence`, at most `take`, in sequence order. Each branch is a
 * range scan of its own index in sequence order that stops after `take` rows (the target's events on
 * outbox_events_aggregate_sequence_idx, its comments' on the SQL-only outbox_events_comment_target_idx, whose
 * expressions the second branch repeats verbatim), so a page costs the same however long the history.
 */
export async function listTargetEventsPage(client: Db, workspaceId: string, query: TargetEventQuery, afterSequence: bigint | undefined, take: number): Promise<TargetEventRecord[]> {
  const after = (afterSequence ?? 0n).toString();
  const filters = Prisma.sql`${query.actorId === undefined ? Prisma.empty : Prisma.sql` AND o.actor_id = ${query.actorId}::uuid`}${
    query.from === undefined ? Prisma.empty : Prisma.sql` AND o.occurred_at >= ${query.from}::timestamptz`
  }${query.to === undefined ? Prisma.empty : Prisma.sql` AND o.occurred_at < ${query.to}::timestamptz`}`;
  const columns = Prisma.sql`o.id, o.sequence, o.aggregate_type, o.event_type, o.payload, o.occurred_at, o.actor_type, o.actor_id`;
  const branches: Prisma.Sql[] = [];
  if (query.eventTypes.length > 0) {
    branches.push(Prisma.sql`(SELECT ${columns} FROM outbox_events o
       WHERE o.workspace_id = ${workspaceId}::uuid AND o.aggregate_type = ${query.kind} AND o.aggregate_id = ${query.id}::uuid
         AND o.sequence > ${after}::bigint AND o.event_type = ANY(${[...query.eventTypes]}::text[])${filters}
       ORDER BY o.sequence LIMIT ${take})`);
  }
  if (query.commentEventTypes.length > 0) {
    branches.push(Prisma.sql`(SELECT ${columns} FROM outbox_events o
       WHERE o.workspace_id = ${workspaceId}::uuid AND o.aggregate_type = 'comment'
         AND (o.payload #>> '{comment,targetType}') = ${query.commentTargetType} AND (o.payload #>> '{comment,targetId}') = ${query.id}
         AND o.sequence > ${after}::bigint AND o.event_type = ANY(${[...query.commentEventTypes]}::text[])${filters}
       ORDER BY o.sequence LIMIT ${take})`);
  }
  if (branches.length === 0) return [];
  const rows = await client.rows<Row>(
    // ORDER BY names the column of the union, not the text alias of the same name (which would order 10000 before 8199).
    Prisma.sql`SELECT e.id::text AS id, e.sequence::text AS sequence, e.aggregate_type, e.event_type, e.payload, e.occurred_at, e.actor_type, e.actor_id::text AS actor_id
      FROM (${Prisma.join(branches, ' UNION ALL ')}) e
     ORDER BY e.sequence LIMIT ${take}`,
  );
  return rows.map((r) => ({
    id: r.id,
    sequence: BigInt(r.sequence),
    aggregateType: r.aggregate_type,
    eventType: r.event_type,
    payload: r.payload,
    occurredAt: r.occurred_at,
    actor: r.actor_type === null || r.actor_id === null ? null : { type: r.actor_type, id: r.actor_id },
  }));
}
