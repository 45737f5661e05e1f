import { z } from 'zod';
import { findList, updateListAttributes } from '@workcell/db';
import { ListUpdate } from '@workcell/registry';
import { isUuid } from '../kernel/ids.js';
import { DomainError } from '../kernel/errors.js';
import { defineProcedure } from '../kernel/procedure.js';
import { requireGrant } from '../kernel/grants.js';
import type { Versioned } from '../kernel/versioned.js';
import { resourceEvent } from '../kernel/resource-events.js';

import { type ListView, versionedList } from './view.js';

export const updateListInput = z.object({ id: z.string().max(64), ...ListUpdate.shape }).strict();

/**
 * `PATCH /v1/lists/{id}`: name, position and/or color (the kind never changes). The registry declares no
 * precondition for this update: the last writer wins. Writes `list.updated` in the same transaction.
 */
export const updateList = defineProcedure('updateList', updateListInput, async (op, input): Promise<Versioned<ListView>> => {
  requireGrant(op.auth, 'list', input.id, 'write', 'list');
  const { auth } = op;
  const workspaceId = auth.workspaceId;
  if (!isUuid(input.id)) throw new DomainError('not_found', 'list not found');
  const id = input.id.toLowerCase();
  const now = op.now();
  return op.transaction(async (tx) => {
    const change = {
      ...(input.name === undefined ? {} : { name: input.name }),
      ...(input.position === undefined ? {} : { position: input.position }),
      ...(input.color === undefined ? {} : { color: input.color }),
    };
    if (!(await updateListAttributes(tx, workspaceId, id, change))) throw new DomainError('not_found', 'list not found');
    const row = await findList(tx, workspaceId, id);
    if (!row) throw new DomainError('not_found', 'list not found');
    const result = versionedList(row);
    await op.emit(tx, resourceEvent(op, { type: 'list', id, action: 'updated', view: { ...result.resource }, changed: Object.keys(change), at: now }));
    return result;
  });
});
