import type { Tx } from './credentials.js';
import { Prisma } from './generated/prisma/client.js';

export interface DomainEvent {
  readonly workspaceId: string;
  /** e.g. project, task */
  readonly aggregateType: string;
  readonly aggregateId: string;
  /** e.g. project.created, task.updated, task.archived */
  readonly eventType: string;
  readonly payload: Prisma.InputJsonValue;
  readonly occurredAt?: Date;
}

/**
 * Writes a domain event to the outbox inside the mutation's own transaction, so the event exists exactly
 * when the change commits. Its per-workspace sequence comes from next_event_sequence(), which holds the
 * workspace's counter row until commit: sequences appear in commit order and a change-feed reader paging by
 * sequence never skips an event that commits late. Taking the sequence and inserting are one statement, so the
 * counter row (which every write of the workspace waits for) is held for as short a time as possible.
 */
export async function appendOutboxEvent(tx: Tx, event: DomainEvent): Promise<bigint> {
  const [row] = await tx.$queryRaw<{ sequence: bigint }[]>(outboxInsert(event));
  return row!.sequence;
}

/**
 * The INSERT of one outbox event with its sequence (returning it): appendOutboxEvent's statement, and the last
 * part of a mutation that writes its change and its event in one statement (a data-modifying WITH), which is
 * atomic without a transaction of its own.
 */
export function outboxInsert(event: DomainEvent): Prisma.Sql {
  return Prisma.sql`
    INSERT INTO outbox_events (workspace_id, sequence, aggregate_type, aggregate_id, event_type, payload, occurred_at)
    VALUES (${event.workspaceId}::uuid, next_event_sequence(${event.workspaceId}::uuid), ${event.aggregateType}, ${event.aggregateId}::uuid,
      ${event.eventType}, ${JSON.stringify(event.payload)}::jsonb, ${event.occurredAt ?? new Date()}::timestamptz)
    RETURNING sequence`;
}
