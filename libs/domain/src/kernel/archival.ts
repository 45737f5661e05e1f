import { z } from 'zod';
import { appendOutboxEvent, type DomainEvent, type GrantResourceType, inTransaction, type Tx } from '@workcell/db';
import type { V1AuthContext } from './auth-context.js';
import { DomainError } from './errors.js';
import { requireGrant } from './grants.js';
import { isUuid } from './ids.js';
import { writeInput } from './inputs.js';
import { defineProcedure, type Procedure } from './procedure.js';
import type { Versioned } from './versioned.js';

/**
 * Archive and restore of a resource without a precondition (`DELETE /v1/<resources>/{id}` and
 * `POST /v1/<resources>/{id}/restore`), one shape for every such family, each operation still one file that
 * declares its procedure over this:
 * - a write grant on the resource (kernel/grants.ts); a non-UUID or unknown id answers 404 `<noun> not found`;
 * - archive sets `archived_at` (never deletes) and answers `{ archived: true }`; restore clears it and answers the
 *   resource with its revision. Either is a no-op on a resource already in that state;
 * - a change writes `<type>.archived` (`{ <type>Id, archivedAt, requestId }`) or `<type>.restored`
 *   (`{ <type>: resource, requestId }`) in the transaction that makes it, and only then.
 */
export interface Archivable<Row, View> {
  /** The resource type: its grant type, the events' aggregate type and their name prefix (`contact_group`). */
  readonly type: GrantResourceType;
  /** How messages name it (`contact group`). */
  readonly noun: string;
  readonly find: (tx: Tx, workspaceId: string, id: string) => Promise<Row | null>;
  /** Sets or clears `archived_at`; true when that changed the row. */
  readonly setArchived: (tx: Tx, workspaceId: string, id: string, at: Date | null) => Promise<boolean>;
  /** The resource as the restore answers it to this caller. */
  readonly answer: (row: Row, auth: V1AuthContext, now: Date) => Versioned<View>;
  /** The resource as its `.restored` event carries it, when that differs from the answer (no caller overlay). */
  readonly eventView?: (row: Row, now: Date) => object;
}

const idInput = z.object({ ...writeInput, id: z.string().max(64) }).strict();

/** `user_group` → `userGroup`: the events' payload keys. */
const camel = (type: string): string => type.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

async function foundOr404<Row>(resource: Pick<Archivable<Row, unknown>, 'find' | 'noun'>, tx: Tx, workspaceId: string, id: string): Promise<Row> {
  const row = await resource.find(tx, workspaceId, id);
  if (!row) throw new DomainError('not_found', `${resource.noun} not found`);
  return row;
}

/** The stored id a path id names (lower case) after the grant check; a non-UUID names nothing. */
function targetOf(resource: Pick<Archivable<unknown, unknown>, 'type' | 'noun'>, auth: V1AuthContext, rawId: string): string {
  requireGrant(auth, resource.type, rawId, 'write', resource.noun);
  if (!isUuid(rawId)) throw new DomainError('not_found', `${resource.noun} not found`);
  return rawId.toLowerCase();
}

export function archiveProcedure<Row>(name: string, resource: Archivable<Row, unknown>): Procedure<typeof idInput, { archived: true }> {
  return defineProcedure(name, idInput, async (ctx, { auth, requestId, id: rawId }) => {
    const id = targetOf(resource, auth, rawId);
    const workspaceId = auth.workspaceId;
    const now = ctx.now();
    return inTransaction(ctx.database, async (tx) => {
      await foundOr404(resource, tx, workspaceId, id);
      if (await resource.setArchived(tx, workspaceId, id, now)) {
        const payload = { [`${camel(resource.type)}Id`]: id, archivedAt: now.toISOString(), requestId };
        await appendOutboxEvent(tx, { workspaceId, aggregateType: resource.type, aggregateId: id, eventType: `${resource.type}.archived`, payload, occurredAt: now });
      }
      return { archived: true as const };
    });
  });
}

export function restoreProcedure<Row, View>(name: string, resource: Archivable<Row, View>): Procedure<typeof idInput, Versioned<View>> {
  return defineProcedure(name, idInput, async (ctx, { auth, requestId, id: rawId }) => {
    const id = targetOf(resource, auth, rawId);
    const workspaceId = auth.workspaceId;
    const now = ctx.now();
    return inTransaction(ctx.database, async (tx) => {
      await foundOr404(resource, tx, workspaceId, id);
      const restored = await resource.setArchived(tx, workspaceId, id, null);
      const row = await foundOr404(resource, tx, workspaceId, id);
      const result = resource.answer(row, auth, now);
      if (restored) {
        const view = resource.eventView ? resource.eventView(row, now) : { ...result.resource };
        await appendOutboxEvent(tx, { workspaceId, aggregateType: resource.type, aggregateId: id, eventType: `${resource.type}.restored`, payload: { [camel(resource.type)]: view, requestId } as DomainEvent['payload'], occurredAt: now });
      }
      return result;
    });
  });
}
