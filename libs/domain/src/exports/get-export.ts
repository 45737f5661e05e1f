import { z } from 'zod';
import { findExport } from '@workcell/db';
import { isUuid } from '../kernel/ids.js';

import { defineProcedure } from '../kernel/procedure.js';
import { exportNotFound, exportView, type ExportView } from './view.js';

export const getExportInput = z.object({ id: z.string().max(64) }).strict();

/** `GET /v1/exports/{id}`: one export of the calling credential (another credential's, or workspace's: 404). */
export const getExport = defineProcedure('getExport', getExportInput, async (op, { id }): Promise<ExportView> => {
  const { auth } = op;
  const row = isUuid(id) ? await findExport(op.database, auth.workspaceId, auth.credential.id, id.toLowerCase()) : null;
  if (!row) throw exportNotFound();
  return exportView(row);
});
