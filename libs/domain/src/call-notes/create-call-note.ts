import { z } from 'zod';
import { contactKindOf, insertCallNote } from '@workcell/db';
import { CallNoteCreate } from '@workcell/registry';
import { isUuid } from '../kernel/ids.js';
import { defineProcedure } from '../kernel/procedure.js';
import { requireTypeGrant } from '../kernel/grants.js';
import type { Versioned } from '../kernel/versioned.js';
import { resourceEvent } from '../kernel/resource-events.js';
import { validationError } from '../roles/permission-model.js';

import { type CallNoteView, versionedCallNote } from './view.js';

export const createCallNoteInput = z.object({ ...CallNoteCreate.shape }).strict();

/**
 * `POST /v1/call-notes`: a plain-text note (stored and returned verbatim; markup is not interpreted) about
 * an unarchived contact of the caller's workspace (400 /contactId otherwise), written by the calling
 * member or service account; `occurredAt` defaults to now. Writes `call_note.created` in the same transaction.
 */
export const createCallNote = defineProcedure('createCallNote', createCallNoteInput, async (op, input): Promise<Versioned<CallNoteView>> => {
  requireTypeGrant(op.auth, 'call_note', 'write', 'call notes');
  const { auth } = op;
  const workspaceId = auth.workspaceId;
  const now = op.now();
  return op.transaction(async (tx) => {
    const contactId = input.contactId.toLowerCase();
    if (!isUuid(contactId) || (await contactKindOf(tx, workspaceId, contactId)) === null) {
      throw validationError('the contact is not valid', [{ pointer: '/contactId', message: `no contact ${JSON.stringify(input.contactId)} in this workspace` }]);
    }
    const row = await insertCallNote(tx, workspaceId, {
      contactId,
      author: auth.principal,
      content: input.content,
      occurredAt: input.occurredAt === undefined ? now : new Date(input.occurredAt),
    });
    const result = versionedCallNote(row);
    await op.emit(tx, resourceEvent(op, { type: 'call_note', id: row.id, action: 'created', view: { ...result.resource }, at: now, result }));
    return result;
  });
});
