import { z } from 'zod';
import { type DomainEvent, type GrantResourceType, isGrantResourceType, isRuledResourceType, type Db } from '@workcell/db';
import type { V1AuthContext } from './auth-context.js';
import { requireGrant } from './grants.js';
import { foundOr, idOf, notFoundOf } from './lookup.js';

import { defineProcedure, type Procedure, type Operation } from './procedure.js';
import { camelType, resourceEvent } from './resource-events.js';
import type { Versioned } from './versioned.js';
import { requireResourceAccess } from './visibility.js';

/**
 * Archive and restore of a resource without a precondition (`DELETE /v1/<resources>/{id}` and
 * `POST /v1/<resources>/{id}/restore`), one shape for every such family, each operation still one file that
 * declares its procedure over this:
 * - a write grant on the resource (kernel/grants.ts), unless its type is workspace configuration that resource grants
 *   do not bound (UngrantedType); a non-UUID or unknown id answers 404 `<noun> not found`;
 * - for a resource that follows a project (`followsProject`), write access to it under its sharing
 *   (kernel/visibility.ts): one the caller may not see is 404 like a missing one, a viewer's write 403;
 * - archive sets `archived_at` (never deletes) and answers `{ archived: true }`; restore clears it and answers the
 *   resource with its revision. Either is a no-op on a resource already in that state;
 * - a change writes `<type>.archived` (`{ <type>Id, archivedAt, requestId }`) or `<type>.restored`
 *   (`{ <type>: resource, requestId }`) in the transaction that makes it, and only then.
 */
/** Archivable resources that scopes alone bound here (no resource-grant type of their own): custom-field definitions, task recurrences, automation definitions. */
export type UngrantedType = 'custom_field_definition' | 'task_recurrence' | 'automation_definition';

export interface Archivable<Row, View> {
  /** The resource type: its grant type, the events' aggregate type and their name prefix; messages name it with spaces (`contact group`). */
  readonly type: GrantResourceType | UngrantedType;
  readonly find: (tx: Db, workspaceId: string, id: string) => Promise<Row | null>;
  /** Sets or clears `archived_at`; true when that changed the row. */
  readonly setArchived: (tx: Db, workspaceId: string, id: string, at: Date | null) => Promise<boolean>;
  /** The resource as the restore answers it to this caller. */
  readonly answer: (row: Row, auth: V1AuthContext, now: Date) => Versioned<View>;
  /** The resource as its `.restored` event carries it, when that differs from the answer (no caller overlay). */
  readonly eventView?: (row: Row, now: Date) => object;
  /** A further check of the caller before anything is read (an ungranted type bounded by another type's grant). */
  readonly authorize?: (auth: V1AuthContext) => void;
  /**
   * The resource belongs to a project (its type's rule, libs/db visibility.ts): archive and restore need write access
   * to it under its sharing (kernel/visibility.ts): 404 when the caller may not see it, 403
   * `insufficient_project_access` for a viewer.
   */
  readonly followsProject?: boolean;
}

/** A family's Archivable, its row and view types inferred from its functions. */
export function archivable<Row, View>(resource: Archivable<Row, View>): Archivable<Row, View> {
  return resource;
}

const idInput = z.object({ id: z.string().max(64) }).strict();

const nounOf = (resource: Pick<Archivable<unknown, unknown>, 'type'>): string => resource.type.replace(/_/g, ' ');

const existing = <Row>(resource: Archivable<Row, unknown>, tx: Db, workspaceId: string, id: string): Promise<Row> => foundOr(resource.find(tx, workspaceId, id), notFoundOf(nounOf(resource)));

/**
 * What archive and restore share: the write grant, the path id (a non-UUID names nothing), and one transaction in
 * which the resource must exist (404 `<noun> not found` otherwise), with the instant of the change.
 */
function onExisting<Row, T>(resource: Archivable<Row, unknown>, op: Operation, { id: rawId }: { id: string }, work: (tx: Db, id: string, now: Date) => Promise<T>): Promise<T> {
  const { auth } = op;
  if (isGrantResourceType(resource.type)) requireGrant(auth, resource.type, rawId, 'write', nounOf(resource));
  resource.authorize?.(auth);
  const id = idOf(rawId, notFoundOf(nounOf(resource)));
  const now = op.now();
  return op.transaction(async (tx) => {
    await existing(resource, tx, auth.workspaceId, id);
    if (resource.followsProject && isRuledResourceType(resource.type)) await requireResourceAccess(tx, auth, resource.type, id, 'write', nounOf(resource));
    return work(tx, id, now);
  });
}

export function archiveProcedure<Row>(name: string, resource: Archivable<Row, unknown>): Procedure<typeof idInput, { archived: true }> {
  return defineProcedure(name, idInput, (op, input) =>
    onExisting(resource, op, input, async (tx, id, now) => {
      const workspaceId = op.auth.workspaceId;
      if (await resource.setArchived(tx, workspaceId, id, now)) {
        const payload = { [`${camelType(resource.type)}Id`]: id, archivedAt: now.toISOString(), requestId: op.requestId };
        await op.emit(tx, { aggregateType: resource.type, aggregateId: id, eventType: `${resource.type}.archived`, payload, occurredAt: now });
      }
      return { archived: true as const };
    }),
  );
}

export function restoreProcedure<Row, View>(name: string, resource: Archivable<Row, View>): Procedure<typeof idInput, Versioned<View>> {
  return defineProcedure(name, idInput, (op, input) =>
    onExisting(resource, op, input, async (tx, id, now) => {
      const workspaceId = op.auth.workspaceId;
      const restored = await resource.setArchived(tx, workspaceId, id, null);
      // Read again: the answer carries the revision the restore produced.
      const row = await existing(resource, tx, workspaceId, id);
      const result = resource.answer(row, op.auth, now);
      if (restored) {
        const view = resource.eventView ? resource.eventView(row, now) : { ...result.resource };
        await op.emit(tx, resourceEvent(op, { type: resource.type, id, action: 'restored', view: view as DomainEvent['payload'], at: now, result }));
      }
      return result;
    }),
  );
}
