import type { Tx } from './credentials.js';
import type { Prisma } from './generated/prisma/client.js';

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
 * sequence never skips an event that commits late.
 */
export async function appendOutboxEvent(tx: Tx, event: DomainEvent): Promise<bigint> {
  const [row] = await tx.$queryRaw<{ sequence: bigint }[]>`SELECT next_event_sequence(${event.workspaceId}::uuid) AS sequence`;
  const sequence = row!.sequence;
  await tx.outboxEvent.create({
    data: {
      workspaceId: event.workspaceId,
      sequence,
      aggregateType: event.aggregateType,
      aggregateId: event.aggregateId,
      eventType: event.eventType,
      payload: event.payload,
      ...(event.occurredAt ? { occurredAt: event.occurredAt } : {}),
    },
  });
  return sequence;
}
