import { z } from 'zod';
import { findIntegration } from '@workcell/db';
import { isUuid } from '../kernel/ids.js';
import { defineProcedure } from '../kernel/procedure.js';

import { integrationNotFound, integrationView, type IntegrationView } from './view.js';

export const getIntegrationInput = z.object({ id: z.string().max(64) }).strict();

/** `GET /v1/integrations/{id}`: one installed integration of the caller's workspace (another workspace's: 404). */
export const getIntegration = defineProcedure('getIntegration', getIntegrationInput, async (op, { id }): Promise<IntegrationView> => {
  const { auth } = op;
  const row = isUuid(id) ? await findIntegration(op.database, auth.workspaceId, id.toLowerCase()) : null;
  if (!row) throw integrationNotFound();
  return integrationView(row);
});
