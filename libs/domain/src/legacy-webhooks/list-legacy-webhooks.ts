import { z } from 'zod';
import { listLegacyWebhooksPage } from '@workcell/db';
import { paginate } from '../kernel/pagination.js';
import { defineProcedure } from '../kernel/procedure.js';
import { pageInput } from '../kernel/inputs.js';
import { type LegacyWebhookView, legacyWebhookView } from './view.js';

export const listLegacyWebhooksInput = z.object({ ...pageInput }).strict();

/** v0 `GET /webhooks`: the team's live subscriptions, oldest first. */
export const listLegacyWebhooks = defineProcedure(
  'listLegacyWebhooks',
  listLegacyWebhooksInput,
  async (op, { cursor, limit }): Promise<{ items: LegacyWebhookView[]; limit: number; nextCursor: string | null }> => {
    const { auth } = op;
    const scope = { workspaceId: auth.workspaceId, list: 'listLegacyWebhooks', filter: {} };
    const page = await paginate(op.config, scope, { cursor, limit }, async (afterId, take) => listLegacyWebhooksPage(op.database, auth.workspaceId, afterId, take));
    return { items: page.items.map(legacyWebhookView), limit, nextCursor: page.nextCursor };
  },
);
