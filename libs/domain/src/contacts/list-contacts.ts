import { z } from 'zod';
import { listContactsPage } from '@workcell/db';
import { grantedIds } from '../kernel/grants.js';
import { isUuid } from '../kernel/ids.js';
import { paginate } from '../kernel/pagination.js';
import { defineProcedure } from '../kernel/procedure.js';
import { pageInput } from '../kernel/inputs.js';
import { type ContactView, contactView } from './view.js';

export const listContactsInput = z
  .object({
    ...pageInput,
    kind: z.enum(['person', 'organization']).optional(),
    contactGroupId: z.string().max(64).optional(),
    q: z.string().min(1).max(200).optional(),
  })
  .strict();

/**
 * `GET /v1/contacts`: the workspace's unarchived contacts, oldest first, optionally of one kind, in one
 * contact group, or whose name or email starts with `q` (case-insensitive). A group id that names no group
 * of this workspace simply matches nothing.
 */
export const listContacts = defineProcedure(
  'listContacts',
  listContactsInput,
  async (op, { cursor, limit, kind, contactGroupId, q }): Promise<{ items: ContactView[]; limit: number; nextCursor: string | null }> => {
    const { auth } = op;
    const filter = { kind, contactGroupId: contactGroupId?.toLowerCase(), q };
    const scope = { workspaceId: auth.workspaceId, list: 'listContacts', filter: { kind: kind ?? null, contactGroupId: filter.contactGroupId ?? null, q: q ?? null } };
    const onlyIds = grantedIds(auth, 'contact');
    const page = await paginate(op.config, scope, { cursor, limit }, async (afterId, take) =>
      contactGroupId !== undefined && !isUuid(contactGroupId) ? [] : listContactsPage(op.database, auth.workspaceId, { ...filter, onlyIds }, afterId, take),
    );
    return { items: page.items.map(contactView), limit, nextCursor: page.nextCursor };
  },
);
