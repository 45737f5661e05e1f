import { z } from 'zod';
import { findWebhook } from '@workcell/db';
import { isUuid } from '../kernel/ids.js';
import { defineProcedure } from '../kernel/procedure.js';
import type { Versioned } from '../kernel/versioned.js';

import { metadataReaderOf } from './access.js';
import { versionedWebhook, webhookNotFound, type WebhookView } from './view.js';

export const getWebhookInput = z.object({ id: z.string().max(64) }).strict();

/**
 * `GET /v1/webhooks/{id}`: one subscription of the caller's own (an administrator: any one's metadata).
 * Another credential's, a removed one or another workspace's: 404.
 */
export const getWebhook = defineProcedure('getWebhook', getWebhookInput, async (op, { id }): Promise<Versioned<WebhookView>> => {
  const { auth } = op;
  const row = isUuid(id) ? await findWebhook(op.database, auth.workspaceId, id.toLowerCase(), await metadataReaderOf(op, auth)) : null;
  if (!row) throw webhookNotFound();
  return versionedWebhook(row, op.now());
});
