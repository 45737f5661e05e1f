import { z } from 'zod';
import { listWebhooksPage } from '@workcell/db';
import { paginate } from '../kernel/pagination.js';
import { defineProcedure } from '../kernel/procedure.js';
import { authInput, pageInput } from '../roles/permission-model.js';
import { type WebhookView, webhookView } from './view.js';

export const listWebhooksInput = z.object({ auth: authInput, ...pageInput }).strict();

/** `GET /v1/webhooks`: the workspace's subscriptions (never their secrets), oldest first. */
export const listWebhooks = defineProcedure('listWebhooks', listWebhooksInput, async (ctx, { auth, cursor, limit }): Promise<{ items: WebhookView[]; limit: number; nextCursor: string | null }> => {
  const scope = { workspaceId: auth.workspaceId, list: 'listWebhooks', filter: {} };
  const page = await paginate(ctx.config, scope, { cursor, limit }, async (afterId, take) => listWebhooksPage(ctx.database, auth.workspaceId, afterId, take));
  return { items: page.items.map(webhookView), limit, nextCursor: page.nextCursor };
});
