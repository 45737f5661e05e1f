import { z } from 'zod';
import { listServiceAccountPage } from '@workcell/db';
import { authInput, pageInput } from '../credentials/access.js';
import { paginate } from '../kernel/pagination.js';
import { defineProcedure } from '../kernel/procedure.js';
import { type ServiceAccountView, serviceAccountView } from './view.js';

export const listServiceAccountsInput = z.object({ auth: authInput, ...pageInput }).strict();

/** `GET /v1/service-accounts`: the workspace's service accounts (deleted ones are archived and not listed), oldest first. */
export const listServiceAccounts = defineProcedure(
  'listServiceAccounts',
  listServiceAccountsInput,
  async (ctx, { auth, cursor, limit }): Promise<{ items: ServiceAccountView[]; limit: number; nextCursor: string | null }> => {
    const page = await paginate(ctx.config, { workspaceId: auth.workspaceId, list: 'listServiceAccounts' }, { cursor, limit }, (afterId, take) =>
      listServiceAccountPage(ctx.database, { workspaceId: auth.workspaceId, afterId, take }),
    );
    return { items: page.items.map(serviceAccountView), limit, nextCursor: page.nextCursor };
  },
);
