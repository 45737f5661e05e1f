import { z } from 'zod';
import { listServiceAccountPage } from '@workcell/db';
import { pageInput } from '../credentials/access.js';
import { paginate } from '../kernel/pagination.js';
import { defineProcedure } from '../kernel/procedure.js';
import { type ServiceAccountView, serviceAccountView } from './view.js';

export const listServiceAccountsInput = z.object({ ...pageInput }).strict();

/** `GET /v1/service-accounts`: the workspace's service accounts (deleted ones are archived and not listed), oldest first. */
export const listServiceAccounts = defineProcedure(
  'listServiceAccounts',
  listServiceAccountsInput,
  async (op, { cursor, limit }): Promise<{ items: ServiceAccountView[]; limit: number; nextCursor: string | null }> => {
    const { auth } = op;
    const page = await paginate(op.config, { workspaceId: auth.workspaceId, list: 'listServiceAccounts' }, { cursor, limit }, (afterId, take) =>
      listServiceAccountPage(op.database, { workspaceId: auth.workspaceId, afterId, take }),
    );
    return { items: page.items.map(serviceAccountView), limit, nextCursor: page.nextCursor };
  },
);
