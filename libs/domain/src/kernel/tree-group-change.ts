import type { CasOutcome, Db, TreeGroupRecord } from '@workcell/db';
import type { V1AuthContext } from './auth-context.js';
import { casFailure, expectedRevision } from './cas.js';
import { DomainError } from './errors.js';
import { foundOr, notFoundOf } from './lookup.js';
import type { Operation } from './procedure.js';
import { camelType, resourceEvent } from './resource-events.js';
import { type TreeGroupView, versionedTreeGroup } from './tree-group-view.js';
import type { Versioned } from './versioned.js';

/** A hierarchical group family (contact groups, product groups): its tree's statements and how it names a parent. */
export interface TreeGroupFamily {
  readonly type: 'contact_group' | 'product_group';
  readonly lock: (tx: Db, workspaceId: string) => Promise<void>;
  readonly find: (tx: Db, workspaceId: string, id: string) => Promise<TreeGroupRecord | null>;
  readonly ancestors: (tx: Db, workspaceId: string, ids: readonly string[]) => Promise<Map<string, string[]>>;
  readonly updateIfRevision: (tx: Db, workspaceId: string, id: string, expectedRevision: number, change: { name?: string; parentId?: string | null }) => Promise<CasOutcome>;
  /** The group a body's `parentId` names, as this caller may name it (400 with a pointer otherwise). */
  readonly parentOf: (tx: Db, auth: V1AuthContext, rawParentId: string) => Promise<string>;
}

/**
 * Renames and/or moves group `id` (a UUID, lower case) in the operation's transaction, compare-and-set on
 * `expectedVersion`. A move holds the family's hierarchy lock from before the cycle check until commit, so two
 * concurrent moves that would together form a cycle cannot both succeed; moving a group under itself or one of its
 * descendants is 409 `hierarchy_cycle` and changes nothing. Writes `<type>.moved` (the parent changed) and/or
 * `<type>.updated` (anything else).
 */
export function changeTreeGroup(
  op: Operation,
  family: TreeGroupFamily,
  id: string,
  input: { readonly name?: string | undefined; readonly parentId?: string | null | undefined; readonly expectedVersion: string },
): Promise<Versioned<TreeGroupView>> {
  const { auth } = op;
  const workspaceId = auth.workspaceId;
  const noun = family.type.replace('_', ' ');
  const notFound = notFoundOf(noun);
  const cycle = () =>
    new DomainError('hierarchy_cycle', `a ${noun} cannot be moved under itself or one of its own descendants`, [
      { pointer: '/parentId', message: 'the new parent is this group or one of its descendants' },
    ]);
  const now = op.now();
  return op.transaction(async (tx) => {
    if (input.parentId !== undefined) await family.lock(tx, workspaceId);
    const current = await foundOr(family.find(tx, workspaceId, id), notFound);
    let parentId: string | null | undefined = undefined;
    if (input.parentId === null) parentId = null;
    else if (input.parentId !== undefined) {
      if (input.parentId.toLowerCase() === id) throw cycle();
      parentId = await family.parentOf(tx, auth, input.parentId);
      const ancestors = (await family.ancestors(tx, workspaceId, [parentId])).get(parentId) ?? [];
      if (ancestors.includes(id)) throw cycle();
    }
    const change = { ...(input.name === undefined ? {} : { name: input.name }), ...(parentId === undefined ? {} : { parentId }) };
    const outcome = await family.updateIfRevision(tx, workspaceId, id, expectedRevision(input.expectedVersion), change);
    if (outcome !== 'updated') throw casFailure(outcome, noun);
    const updated = await foundOr(family.find(tx, workspaceId, id), notFound);
    const result = versionedTreeGroup(updated);
    const view = { ...result.resource };
    const moved = parentId !== undefined && parentId !== current.parentId;
    if (moved) {
      const payload = { [camelType(family.type)]: view, fromParentId: current.parentId, toParentId: parentId, requestId: op.requestId };
      await op.emit(tx, { aggregateType: family.type, aggregateId: id, eventType: `${family.type}.moved`, payload, occurredAt: now });
    }
    if (input.name !== undefined || !moved) {
      await op.emit(tx, resourceEvent(op, { type: family.type, id, action: 'updated', view, changed: Object.keys(change), at: now }));
    }
    return result;
  });
}
