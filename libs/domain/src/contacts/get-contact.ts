import { z } from 'zod';
import { findContact } from '@workcell/db';
import { isUuid } from '../kernel/ids.js';
import { DomainError } from '../kernel/errors.js';
import { defineProcedure } from '../kernel/procedure.js';
import { requireGrant } from '../kernel/grants.js';
import type { Versioned } from '../kernel/versioned.js';

import { type ContactView, versionedContact } from './view.js';

export const getContactInput = z.object({ id: z.string().max(64) }).strict();

/** `GET /v1/contacts/{id}`: one contact of the caller's workspace, archived or not (another workspace's: 404). */
export const getContact = defineProcedure('getContact', getContactInput, async (op, { id }): Promise<Versioned<ContactView>> => {
  const { auth } = op;
  requireGrant(auth, 'contact', id, 'read', 'contact');
  const row = isUuid(id) ? await findContact(op.database, auth.workspaceId, id.toLowerCase()) : null;
  if (!row) throw new DomainError('not_found', 'contact not found');
  return versionedContact(row);
});
