import { z } from 'zod';
import { listTargetEventsPage, type TargetEventRecord } from '@workcell/db';
import { AGGREGATES, EVENT_CATALOG, eventSpec, type EventTypeSpec, mayReceive } from '../events/catalog.js';
import { isUuid } from '../kernel/ids.js';
import { pageInput } from '../kernel/inputs.js';
import { paginate } from '../kernel/pagination.js';
import { defineProcedure } from '../kernel/procedure.js';
import { resolveTarget, type Target, type TargetType, targetTypeInput } from '../kernel/targets.js';

/**
 * `GET /v1/activity` (activity:read): the history of one contact, project or task, derived from the event log and
 * nothing else (docs/comments-and-activity.md). The decisions:
 * - Entries are the target's own events (its outbox aggregate) and the events of the comments on it (kinds
 *   `commented`, `comment-edited`, `comment-deleted`), oldest first by sequence (commit order), keyset-paged.
 * - Only events this credential could learn of through the change feed appear (the catalog's read scopes and
 *   payload rules, events/catalog.ts): timer events need time-entries:read, comment events comments:read, ….
 * - The actor is what the event recorded: the principal of the operation that emitted it (`op.emit`,
 *   kernel/procedure.ts). Events without one were made by the platform itself (worker jobs, e.g. a project lifecycle
 *   transition) or recorded before actors were: `system`, actorId null. Nothing is guessed from other tables.
 * - The target's rule (kernel/targets.ts): its type's read scope (403), a service account's grant on it, its
 *   existence in the workspace and its project's sharing (404: a project, or a task in a project, the caller may
 *   not see has no activity for it). Comment entries follow the target (they show no comment's text or id).
 * - Filters: `actorId`, `from` (inclusive) and `to` (exclusive) on `occurredAt`; the cursor is bound to them.
 */

export const listActivityInput = z
  .object({
    ...pageInput,
    targetType: targetTypeInput,
    targetId: z.string().max(64),
    actorId: z.string().max(64).optional(),
    from: z.iso.datetime({ offset: true }).optional(),
    to: z.iso.datetime({ offset: true }).optional(),
  })
  .strict();

/** An entry as the registry's ActivityItem. */
export interface ActivityItemView {
  readonly id: string;
  readonly targetType: TargetType;
  readonly targetId: string;
  readonly kind: string;
  readonly actorType: 'member' | 'service-account' | 'system';
  readonly actorId: string | null;
  readonly summary: string;
  readonly occurredAt: string;
}

const COMMENT_ENTRIES: Readonly<Record<string, { kind: string; summary: string }>> = {
  'comment.created': { kind: 'commented', summary: 'Commented.' },
  'comment.updated': { kind: 'comment-edited', summary: 'Edited a comment.' },
  'comment.deleted': { kind: 'comment-deleted', summary: 'Deleted a comment.' },
};

/** The event types of a resource type this credential could learn of through the change feed. */
function readableTypes(scopes: readonly string[], resourceType: string): EventTypeSpec[] {
  const held = new Set(scopes);
  return EVENT_CATALOG.filter((s) => s.resourceType === resourceType && s.channels.includes('changes') && s.readScopes.every((scope) => held.has(scope)));
}

/** `task.timer_started` on a task: `timer-started`; an event named after another resource keeps its whole name. */
function kindOf(target: Target, eventType: string): string {
  const own = `${target.kind}.`;
  return (eventType.startsWith(own) ? eventType.slice(own.length) : eventType).replace(/[._]/g, '-');
}

function summaryOf(spec: EventTypeSpec, payload: unknown): string {
  const changed = (payload as { changed?: unknown } | null)?.changed;
  const names = Array.isArray(changed) ? changed.filter((c): c is string => typeof c === 'string') : [];
  return names.length > 0 ? `${spec.description} Changed: ${names.join(', ')}.` : spec.description;
}

function entry(target: Target, row: TargetEventRecord): ActivityItemView {
  const comment = COMMENT_ENTRIES[row.eventType];
  return {
    id: row.id,
    targetType: target.type,
    targetId: target.id,
    kind: comment?.kind ?? kindOf(target, row.eventType),
    actorType: row.actor === null ? 'system' : row.actor.type === 'service_account' ? 'service-account' : 'member',
    actorId: row.actor?.id ?? null,
    summary: comment?.summary ?? summaryOf(eventSpec(row.eventType)!, row.payload),
    occurredAt: row.occurredAt.toISOString(),
  };
}

export const listActivity = defineProcedure('listActivity', listActivityInput, async (op, input): Promise<{ items: ActivityItemView[]; limit: number; nextCursor: string | null }> => {
  const { auth } = op;
  const { cursor, limit } = input;
  const target = await resolveTarget(op.database, auth, { type: input.targetType, id: input.targetId });
  const actorId = input.actorId?.toLowerCase();
  const filter = { targetType: target.type, targetId: target.id, actorId: actorId ?? null, from: input.from ?? null, to: input.to ?? null };
  const scope = { workspaceId: auth.workspaceId, list: 'listActivity', filter };
  const query = {
    kind: target.kind,
    id: target.id,
    commentTargetType: target.type,
    eventTypes: readableTypes(auth.effectiveScopes, AGGREGATES[target.kind].resourceType).map((s) => s.type),
    commentEventTypes: readableTypes(auth.effectiveScopes, AGGREGATES.comment.resourceType).map((s) => s.type),
    actorId,
    from: input.from === undefined ? undefined : new Date(input.from),
    to: input.to === undefined ? undefined : new Date(input.to),
  };
  const page = await paginate(
    op.config,
    scope,
    { cursor, limit },
    async (after, take) => (actorId !== undefined && !isUuid(actorId) ? [] : listTargetEventsPage(op.database, auth.workspaceId, query, after === undefined ? undefined : BigInt(after), take)),
    (row) => row.sequence.toString(),
  );
  // The event types were filtered in SQL; payload rules (none of these types has one the target's scope does not
  // already satisfy) are applied per entry, so a page may hold fewer entries than `limit`, never a wrong one.
  const items = page.items.filter((row) => mayReceive(auth.effectiveScopes, eventSpec(row.eventType)!, row.payload)).map((row) => entry(target, row));
  return { items, limit, nextCursor: page.nextCursor };
});
