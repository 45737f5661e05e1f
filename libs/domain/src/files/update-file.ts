import { z } from 'zod';
import { renameFile } from '@workcell/db';
import { FileUpdate } from '@workcell/registry';
import { nothingToChange } from '../kernel/attributes.js';
import { requireGrant } from '../kernel/grants.js';
import { defineProcedure } from '../kernel/procedure.js';
import type { Versioned } from '../kernel/versioned.js';
import { resourceEvent } from '../kernel/resource-events.js';

import { fileIdOf, fileNotFound, type FileView, findFileOr404, versionedFile } from './view.js';

export const updateFileInput = z.object({ id: z.string().max(64), ...FileUpdate.shape }).strict();

/**
 * `PATCH /v1/files/{id}`: renames the file (its bytes, size, type and checksum never change). The registry declares
 * no precondition: the last writer wins. Writes `file.updated` in the same transaction.
 */
export const updateFile = defineProcedure('updateFile', updateFileInput, async (op, input): Promise<Versioned<FileView>> => {
  const { auth } = op;
  requireGrant(auth, 'file', input.id, 'write', 'file');
  const workspaceId = auth.workspaceId;
  const id = fileIdOf(input.id);
  const name = input.name;
  if (name === undefined) throw nothingToChange();
  const now = op.now();
  return op.transaction(async (tx) => {
    if (!(await renameFile(tx, workspaceId, id, name))) throw fileNotFound();
    const row = await findFileOr404(tx, workspaceId, id);
    const result = versionedFile(row);
    await op.emit(tx, resourceEvent(op, { type: 'file', id, action: 'updated', view: { ...result.resource }, changed: ['name'], at: now }));
    return result;
  });
});
