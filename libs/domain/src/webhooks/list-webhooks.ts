import { z } from 'zod';
import { listWebhooksPage } from '@workcell/db';
import { paginate } from '../kernel/pagination.js';
import { defineProcedure } from '../kernel/procedure.js';
import { authInput, pageInput } from '../kernel/inputs.js';
import { metadataReaderOf } from './access.js';
import { type WebhookView, webhookView } from './view.js';

export const listWebhooksInput = z.object({ auth: authInput, ...pageInput }).strict();

/** `GET /v1/webhooks`: the caller's own subscriptions (an administrator: every one's metadata), never a secret, oldest first. */
export const listWebhooks = defineProcedure('listWebhooks', listWebhooksInput, async (ctx, { auth, cursor, limit }): Promise<{ items: WebhookView[]; limit: number; nextCursor: string | null }> => {
  const reader = await metadataReaderOf(ctx, auth);
  // The cursor is bound to what the caller sees, so an owner's cursor never pages an administrator's list.
  const scope = { workspaceId: auth.workspaceId, list: 'listWebhooks', filter: 'administrator' in reader ? { all: true } : { owner: reader.ownerCredentialId } };
  const page = await paginate(ctx.config, scope, { cursor, limit }, async (afterId, take) => listWebhooksPage(ctx.database, auth.workspaceId, reader, afterId, take));
  return { items: page.items.map((row) => webhookView(row, ctx.now())), limit, nextCursor: page.nextCursor };
});
