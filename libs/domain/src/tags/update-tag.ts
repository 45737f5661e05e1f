import { z } from 'zod';
import { findTag, updateTagAttributes } from '@workcell/db';
import { TagUpdate } from '@workcell/registry';
import { isUuid } from '../kernel/ids.js';
import { DomainError } from '../kernel/errors.js';
import { defineProcedure } from '../kernel/procedure.js';
import { requireGrant } from '../kernel/grants.js';
import type { Versioned } from '../kernel/versioned.js';
import { resourceEvent } from '../kernel/resource-events.js';

import { type TagView, versionedTag } from './view.js';

export const updateTagInput = z.object({ id: z.string().max(64), ...TagUpdate.shape }).strict();

/**
 * `PATCH /v1/tags/{id}`: name and/or color. The registry declares no precondition for this update: the
 * last writer wins. Writes `tag.updated` in the same transaction.
 */
export const updateTag = defineProcedure('updateTag', updateTagInput, async (op, input): Promise<Versioned<TagView>> => {
  requireGrant(op.auth, 'tag', input.id, 'write', 'tag');
  const { auth } = op;
  const workspaceId = auth.workspaceId;
  if (!isUuid(input.id)) throw new DomainError('not_found', 'tag not found');
  const id = input.id.toLowerCase();
  const now = op.now();
  return op.transaction(async (tx) => {
    const change = {
      ...(input.name === undefined ? {} : { name: input.name }),
      ...(input.color === undefined ? {} : { color: input.color }),
    };
    if (!(await updateTagAttributes(tx, workspaceId, id, change))) throw new DomainError('not_found', 'tag not found');
    const row = await findTag(tx, workspaceId, id);
    if (!row) throw new DomainError('not_found', 'tag not found');
    const result = versionedTag(row);
    await op.emit(tx, resourceEvent(op, { type: 'tag', id, action: 'updated', view: { ...result.resource }, changed: Object.keys(change), at: now }));
    return result;
  });
});
