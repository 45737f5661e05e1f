import { z } from 'zod';
import { findTag } from '@workcell/db';
import { isUuid } from '../kernel/ids.js';
import { DomainError } from '../kernel/errors.js';
import { defineProcedure } from '../kernel/procedure.js';
import { requireGrant } from '../kernel/grants.js';
import type { Versioned } from '../kernel/versioned.js';

import { type TagView, versionedTag } from './view.js';

export const getTagInput = z.object({ id: z.string().max(64) }).strict();

/** `GET /v1/tags/{id}`: one tag of the caller's workspace, archived or not (another workspace's: 404). */
export const getTag = defineProcedure('getTag', getTagInput, async (op, { id }): Promise<Versioned<TagView>> => {
  const { auth } = op;
  requireGrant(auth, 'tag', id, 'read', 'tag');
  const row = isUuid(id) ? await findTag(op.database, auth.workspaceId, id.toLowerCase()) : null;
  if (!row) throw new DomainError('not_found', 'tag not found');
  return versionedTag(row);
});
