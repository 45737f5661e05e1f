import { z } from 'zod';
import { listExportsPage } from '@workcell/db';
import { pageInput } from '../kernel/inputs.js';
import { paginate } from '../kernel/pagination.js';
import { defineProcedure } from '../kernel/procedure.js';
import { exportView, type ExportView } from './view.js';

export const listExportsInput = z.object({ ...pageInput, status: z.enum(['pending', 'running', 'succeeded', 'failed', 'expired']).optional() }).strict();

/** `GET /v1/exports`: the calling credential's exports, newest first, optionally of one status. */
export const listExports = defineProcedure('listExports', listExportsInput, async (op, { cursor, limit, status }): Promise<{ items: ExportView[]; limit: number; nextCursor: string | null }> => {
  const { auth } = op;
  const stored = status === 'pending' ? 'queued' : status;
  const scope = { workspaceId: auth.workspaceId, list: 'listExports', filter: { credential: auth.credential.id, status: status ?? null } };
  const page = await paginate(op.config, scope, { cursor, limit }, (beforeId, take) => listExportsPage(op.database, auth.workspaceId, auth.credential.id, stored, beforeId, take));
  return { items: page.items.map(exportView), limit, nextCursor: page.nextCursor };
});
