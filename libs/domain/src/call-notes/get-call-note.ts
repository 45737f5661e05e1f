import { z } from 'zod';
import { findCallNote } from '@workcell/db';
import { isUuid } from '../kernel/ids.js';
import { DomainError } from '../kernel/errors.js';
import { defineProcedure } from '../kernel/procedure.js';
import { requireGrant } from '../kernel/grants.js';
import type { Versioned } from '../kernel/versioned.js';

import { type CallNoteView, versionedCallNote } from './view.js';

export const getCallNoteInput = z.object({ id: z.string().max(64) }).strict();

/** `GET /v1/call-notes/{id}`: one call note of the caller's workspace, archived or not. */
export const getCallNote = defineProcedure('getCallNote', getCallNoteInput, async (op, { id }): Promise<Versioned<CallNoteView>> => {
  const { auth } = op;
  requireGrant(auth, 'call_note', id, 'read', 'call note');
  const row = isUuid(id) ? await findCallNote(op.database, auth.workspaceId, id.toLowerCase()) : null;
  if (!row) throw new DomainError('not_found', 'call note not found');
  return versionedCallNote(row);
});
