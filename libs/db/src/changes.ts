import { ResourceType } from './generated/prisma/enums.js';
import type { GrantResourceType } from './resource-grants.js';
import { type Client, clientOf } from './transactions.js';

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

/** The highest committed sequence of the workspace (0 before its first event); every event up to it is visible. */
export async function committedEventHead(client: Client, workspaceId: string): Promise<bigint> {
  const row = await clientOf(client).eventSequenceCounter.findUnique({ where: { workspaceId }, select: { lastSequence: true } });
  return row?.lastSequence ?? 0n;
}

/**
 * The workspace's events with after < sequence <= upTo of these types, in sequence order, at most `take`. The
 * window bound keeps the (workspace_id, sequence) index range scan short however sparse the matching types are.
 */
export async function listOutboxWindow(client: Client, workspaceId: string, window: { after: bigint; upTo: bigint; eventTypes: readonly string[]; take: number }): Promise<ChangeRecord[]> {
  if (window.eventTypes.length === 0 || window.upTo <= window.after) return [];
  return clientOf(client).outboxEvent.findMany({
    where: { workspaceId, sequence: { gt: window.after, lte: window.upTo }, eventType: { in: [...window.eventTypes] } },
    orderBy: { sequence: 'asc' },
    take: window.take,
    select: { sequence: true, aggregateType: true, aggregateId: true, eventType: true, payload: true, occurredAt: true },
  });
}
