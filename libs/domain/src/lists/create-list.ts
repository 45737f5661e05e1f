import { z } from 'zod';
import { insertList } from '@workcell/db';
import { ListCreate } from '@workcell/registry';
import { defineProcedure } from '../kernel/procedure.js';
import { requireTypeGrant } from '../kernel/grants.js';
import type { Versioned } from '../kernel/versioned.js';
import { resourceEvent } from '../kernel/resource-events.js';

import { type ListView, storedListKind, versionedList } from './view.js';

export const createListInput = z.object({ ...ListCreate.shape }).strict();

/** `POST /v1/lists`: a new list (revision 1). Writes `list.created` in the same transaction. */
export const createList = defineProcedure('createList', createListInput, async (op, input): Promise<Versioned<ListView>> => {
  requireTypeGrant(op.auth, 'list', 'write', 'lists');
  const { auth } = op;
  const workspaceId = auth.workspaceId;
  const now = op.now();
  return op.transaction(async (tx) => {
    const row = await insertList(tx, workspaceId, { name: input.name, kind: storedListKind(input.kind), position: input.position ?? 0, color: input.color ?? null });
    const result = versionedList(row);
    await op.emit(tx, resourceEvent(op, { type: 'list', id: row.id, action: 'created', view: { ...result.resource }, at: now, result }));
    return result;
  });
});
