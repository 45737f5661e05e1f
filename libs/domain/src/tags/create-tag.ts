import { z } from 'zod';
import { insertTag } from '@workcell/db';
import { TagCreate } from '@workcell/registry';
import { defineProcedure } from '../kernel/procedure.js';
import { requireTypeGrant } from '../kernel/grants.js';
import type { Versioned } from '../kernel/versioned.js';
import { resourceEvent } from '../kernel/resource-events.js';

import { type TagView, versionedTag } from './view.js';

export const createTagInput = z.object({ ...TagCreate.shape }).strict();

/** `POST /v1/tags`: a new tag (revision 1). Writes `tag.created` in the same transaction. */
export const createTag = defineProcedure('createTag', createTagInput, async (op, input): Promise<Versioned<TagView>> => {
  requireTypeGrant(op.auth, 'tag', 'write', 'tags');
  const { auth } = op;
  const workspaceId = auth.workspaceId;
  const now = op.now();
  return op.transaction(async (tx) => {
    const row = await insertTag(tx, workspaceId, { name: input.name, color: input.color ?? null });
    const result = versionedTag(row);
    await op.emit(tx, resourceEvent(op, { type: 'tag', id: row.id, action: 'created', view: { ...result.resource }, at: now, result }));
    return result;
  });
});
