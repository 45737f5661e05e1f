import { z } from 'zod';
import { findFile } from '@workcell/db';
import { isUuid } from '../kernel/ids.js';
import { requireGrant } from '../kernel/grants.js';
import { defineProcedure } from '../kernel/procedure.js';
import type { Versioned } from '../kernel/versioned.js';
import { authInput } from '../kernel/inputs.js';
import { fileNotFound, type FileView, versionedFile } from './view.js';

export const getFileInput = z.object({ auth: authInput, id: z.string().max(64) }).strict();

/** `GET /v1/files/{id}`: one file's metadata, archived or not. */
export const getFile = defineProcedure('getFile', getFileInput, async (ctx, { auth, id }): Promise<Versioned<FileView>> => {
  requireGrant(auth, 'file', id, 'read', 'file');
  const row = isUuid(id) ? await findFile(ctx.database, auth.workspaceId, id.toLowerCase()) : null;
  if (!row) throw fileNotFound();
  return versionedFile(row);
});
