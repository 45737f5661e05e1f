import type { DomainEvent } from '@workcell/db';
import type { EventInput, Operation } from './procedure.js';

/** What happened to a resource, as its `<type>.<action>` event names it (events/catalog.ts). */
export interface ResourceChange {
  /** The aggregate type (`contact_group`): the event's name prefix, and in camelCase the payload's key for the resource. */
  readonly type: string;
  readonly id: string;
  readonly action: 'created' | 'updated' | 'restored';
  /** The resource as its events carry it (without a caller's overlay). */
  readonly view: DomainEvent['payload'];
  /** An update's changed attributes. */
  readonly changed?: readonly string[];
  readonly at: Date;
  /** The operation's answer, which completes a held idempotency key in the event's own statement (creates, restores). */
  readonly result?: unknown;
}

/** `contact_group` → `contactGroup`: the payload key events carry a resource under. */
export const camelType = (type: string): string => type.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/**
 * The event of a resource's creation, update or restore, in the one shape every family writes:
 * `{ <type>: resource, changed?, requestId }` about the resource, at the instant of the change.
 */
export function resourceEvent(op: Pick<Operation, 'requestId'>, change: ResourceChange): EventInput {
  const payload = { [camelType(change.type)]: change.view, ...(change.changed ? { changed: change.changed } : {}), requestId: op.requestId } as DomainEvent['payload'];
  return { aggregateType: change.type, aggregateId: change.id, eventType: `${change.type}.${change.action}`, payload, occurredAt: change.at, result: change.result };
}
