import { z } from 'zod';
import { listServicesPage } from '@workcell/db';
import { grantedIds } from '../kernel/grants.js';
import { paginate } from '../kernel/pagination.js';
import { defineProcedure } from '../kernel/procedure.js';
import { pageInput } from '../kernel/inputs.js';
import { type ServiceView, serviceView } from './view.js';

export const listServicesInput = z.object({ ...pageInput }).strict();

/** `GET /v1/services`: the workspace's unarchived services, oldest first (a service account: only granted ones). */
export const listServices = defineProcedure('listServices', listServicesInput, async (op, { cursor, limit }): Promise<{ items: ServiceView[]; limit: number; nextCursor: string | null }> => {
  const { auth } = op;
  const scope = { workspaceId: auth.workspaceId, list: 'listServices', filter: {} };
  const onlyIds = grantedIds(auth, 'service');
  const page = await paginate(op.config, scope, { cursor, limit }, async (afterId, take) => listServicesPage(op.database, auth.workspaceId, onlyIds, afterId, take));
  return { items: page.items.map(serviceView), limit, nextCursor: page.nextCursor };
});
