import { z } from 'zod';
import { listIntegrationsPage } from '@workcell/db';
import { paginate } from '../kernel/pagination.js';
import { defineProcedure } from '../kernel/procedure.js';
import { pageInput } from '../kernel/inputs.js';
import { integrationView, type IntegrationView } from './view.js';

export const listIntegrationsInput = z.object({ ...pageInput }).strict();

/** `GET /v1/integrations`: the workspace's service accounts and calendar feeds, in creation (id) order. */
export const listIntegrations = defineProcedure(
  'listIntegrations',
  listIntegrationsInput,
  async (op, { cursor, limit }): Promise<{ items: IntegrationView[]; limit: number; nextCursor: string | null }> => {
    const { auth } = op;
    const page = await paginate(op.config, { workspaceId: auth.workspaceId, list: 'listIntegrations' }, { cursor, limit }, (afterId, take) =>
      listIntegrationsPage(op.database, auth.workspaceId, afterId, take),
    );
    return { items: page.items.map(integrationView), limit, nextCursor: page.nextCursor };
  },
);
