import { z } from 'zod';
import { listWebhooksPage } from '@workcell/db';
import { paginate } from '../kernel/pagination.js';
import { defineProcedure } from '../kernel/procedure.js';
import { pageInput } from '../kernel/inputs.js';
import { metadataReaderOf } from './access.js';
import { type WebhookView, webhookView } from './view.js';

export const listWebhooksInput = z.object({ ...pageInput }).strict();

/** `GET /v1/webhooks`: the caller's own subscriptions (an administrator: every one's metadata), never a secret, oldest first. */
export const listWebhooks = defineProcedure('listWebhooks', listWebhooksInput, async (op, { cursor, limit }): Promise<{ items: WebhookView[]; limit: number; nextCursor: string | null }> => {
  const { auth } = op;
  const reader = await metadataReaderOf(op, auth);
  // The cursor is bound to what the caller sees, so an owner's cursor never pages an administrator's list.
  const scope = { workspaceId: auth.workspaceId, list: 'listWebhooks', filter: 'administrator' in reader ? { all: true } : { owner: reader.ownerCredentialId } };
  const page = await paginate(op.config, scope, { cursor, limit }, async (afterId, take) => listWebhooksPage(op.database, auth.workspaceId, reader, afterId, take));
  return { items: page.items.map((row) => webhookView(row, op.now())), limit, nextCursor: page.nextCursor };
});
