import { z } from 'zod';
import { listCallNotesPage } from '@workcell/db';
import { grantedIds } from '../kernel/grants.js';
import { isUuid } from '../kernel/ids.js';
import { paginate } from '../kernel/pagination.js';
import { defineProcedure } from '../kernel/procedure.js';
import { pageInput } from '../kernel/inputs.js';
import { type CallNoteView, callNoteView } from './view.js';

export const listCallNotesInput = z.object({ ...pageInput, contactId: z.string().max(64).optional() }).strict();

/** `GET /v1/call-notes`: the workspace's unarchived call notes, oldest first, optionally of one contact. */
export const listCallNotes = defineProcedure(
  'listCallNotes',
  listCallNotesInput,
  async (op, { cursor, limit, contactId }): Promise<{ items: CallNoteView[]; limit: number; nextCursor: string | null }> => {
    const { auth } = op;
    const contact = contactId?.toLowerCase();
    const scope = { workspaceId: auth.workspaceId, list: 'listCallNotes', filter: { contactId: contact ?? null } };
    const onlyIds = grantedIds(auth, 'call_note');
    const page = await paginate(op.config, scope, { cursor, limit }, async (afterId, take) =>
      contactId !== undefined && !isUuid(contactId) ? [] : listCallNotesPage(op.database, auth.workspaceId, { contactId: contact, onlyIds }, afterId, take),
    );
    return { items: page.items.map(callNoteView), limit, nextCursor: page.nextCursor };
  },
);
