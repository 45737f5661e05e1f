import { z } from 'zod';
import { findFile } from '@workcell/db';
import { isUuid } from '../kernel/ids.js';
import { requireGrant } from '../kernel/grants.js';
import { defineProcedure } from '../kernel/procedure.js';
import type { Versioned } from '../kernel/versioned.js';

import { fileNotFound, type FileView, versionedFile } from './view.js';

export const getFileInput = z.object({ id: z.string().max(64) }).strict();

/** `GET /v1/files/{id}`: one file's metadata, archived or not. */
export const getFile = defineProcedure('getFile', getFileInput, async (op, { id }): Promise<Versioned<FileView>> => {
  const { auth } = op;
  requireGrant(auth, 'file', id, 'read', 'file');
  const row = isUuid(id) ? await findFile(op.database, auth.workspaceId, id.toLowerCase()) : null;
  if (!row) throw fileNotFound();
  return versionedFile(row);
});
