import type { ChangeRecord } from '@workcell/db';
import type { ChangeAction, EventTypeSpec } from '../events/catalog.js';

/** One change-feed entry as the registry's Change: where it sits in the feed, what changed and how. */
export interface ChangeView {
  /** The event's per-workspace sequence: monotonic, in commit order. */
  readonly id: string;
  readonly resourceType: string;
  readonly resourceId: string;
  readonly action: ChangeAction;
  readonly occurredAt: string;
}

export function changeView(spec: EventTypeSpec, row: ChangeRecord): ChangeView {
  return { id: row.sequence.toString(), resourceType: spec.resourceType, resourceId: row.aggregateId, action: spec.action, occurredAt: row.occurredAt.toISOString() };
}
