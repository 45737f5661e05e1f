import { z } from 'zod';
import { findLegacyWebhook } from '@workcell/db';
import { isUuid } from '../kernel/ids.js';
import { defineProcedure } from '../kernel/procedure.js';

import { legacyWebhookNotFound, type LegacyWebhookView, legacyWebhookView } from './view.js';

export const getLegacyWebhookInput = z.object({ id: z.string().max(64) }).strict();

/** v0 `GET /webhooks/{_id}`: one live subscription of the team; deleted (archived) or foreign ones are 404. */
export const getLegacyWebhook = defineProcedure('getLegacyWebhook', getLegacyWebhookInput, async (op, { id }): Promise<LegacyWebhookView> => {
  const { auth } = op;
  const row = isUuid(id) ? await findLegacyWebhook(op.database, auth.workspaceId, id.toLowerCase()) : null;
  if (!row || row.archivedAt !== null) throw legacyWebhookNotFound();
  return legacyWebhookView(row);
});
