import { z } from 'zod';
import { findContactGroup } from '@workcell/db';
import { isUuid } from '../kernel/ids.js';
import { DomainError } from '../kernel/errors.js';
import { defineProcedure } from '../kernel/procedure.js';
import { requireGrant } from '../kernel/grants.js';
import type { Versioned } from '../kernel/versioned.js';

import { type ContactGroupView, versionedContactGroup } from './view.js';

export const getContactGroupInput = z.object({ id: z.string().max(64) }).strict();

/** `GET /v1/contact-groups/{id}`: one group of the caller's workspace with its ancestors, archived or not. */
export const getContactGroup = defineProcedure('getContactGroup', getContactGroupInput, async (op, { id }): Promise<Versioned<ContactGroupView>> => {
  const { auth } = op;
  requireGrant(auth, 'contact_group', id, 'read', 'contact group');
  const row = isUuid(id) ? await findContactGroup(op.database, auth.workspaceId, id.toLowerCase()) : null;
  if (!row) throw new DomainError('not_found', 'contact group not found');
  return versionedContactGroup(row);
});
