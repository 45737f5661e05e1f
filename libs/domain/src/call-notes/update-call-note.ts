import { z } from 'zod';
import { findCallNote, updateCallNoteAttributes } from '@workcell/db';
import { CallNoteUpdate } from '@workcell/registry';
import { isUuid } from '../kernel/ids.js';
import { DomainError } from '../kernel/errors.js';
import { defineProcedure } from '../kernel/procedure.js';
import { requireGrant } from '../kernel/grants.js';
import type { Versioned } from '../kernel/versioned.js';
import { resourceEvent } from '../kernel/resource-events.js';

import { type CallNoteView, versionedCallNote } from './view.js';

export const updateCallNoteInput = z.object({ id: z.string().max(64), ...CallNoteUpdate.shape }).strict();

/**
 * `PATCH /v1/call-notes/{id}`: content and/or occurredAt (the contact and the author never change). The
 * registry declares no precondition for this update: the last writer wins. Writes `call_note.updated` in
 * the same transaction.
 */
export const updateCallNote = defineProcedure('updateCallNote', updateCallNoteInput, async (op, input): Promise<Versioned<CallNoteView>> => {
  requireGrant(op.auth, 'call_note', input.id, 'write', 'call note');
  const { auth } = op;
  const workspaceId = auth.workspaceId;
  if (!isUuid(input.id)) throw new DomainError('not_found', 'call note not found');
  const id = input.id.toLowerCase();
  const now = op.now();
  return op.transaction(async (tx) => {
    const change = {
      ...(input.content === undefined ? {} : { content: input.content }),
      ...(input.occurredAt === undefined ? {} : { occurredAt: new Date(input.occurredAt) }),
    };
    if (!(await updateCallNoteAttributes(tx, workspaceId, id, change))) throw new DomainError('not_found', 'call note not found');
    const row = await findCallNote(tx, workspaceId, id);
    if (!row) throw new DomainError('not_found', 'call note not found');
    const result = versionedCallNote(row);
    await op.emit(tx, resourceEvent(op, { type: 'call_note', id, action: 'updated', view: { ...result.resource }, changed: Object.keys(change), at: now }));
    return result;
  });
});
