import { z } from 'zod';
import { insertDocument } from '@workcell/db';
import { DocumentCreate } from '@workcell/registry';
import { requireTypeGrant } from '../kernel/grants.js';
import { defineProcedure } from '../kernel/procedure.js';
import type { Versioned } from '../kernel/versioned.js';
import { resourceEvent } from '../kernel/resource-events.js';

import { assertContentWithinBound, documentEventView, documentTarget, type DocumentView, versionedDocument } from './view.js';

export const createDocumentInput = z.object({ ...DocumentCreate.shape }).strict();

/**
 * `POST /v1/documents`: a new document (revision 1). Content over the bound is 413 before anything is read; a target
 * must be an unarchived, readable contact, project or task of the workspace (400 /targetId). Writes
 * `document.created` (without the content) in the same transaction, which also completes a held idempotency key.
 */
export const createDocument = defineProcedure('createDocument', createDocumentInput, async (op, input): Promise<Versioned<DocumentView>> => {
  const { auth } = op;
  requireTypeGrant(auth, 'document', 'write', 'documents');
  assertContentWithinBound(input);
  const workspaceId = auth.workspaceId;
  const now = op.now();
  return op.transaction(async (tx) => {
    const target = await documentTarget(tx, auth, input);
    const row = await insertDocument(tx, workspaceId, { title: input.title, format: input.format, content: input.content, target });
    const result = versionedDocument(row);
    await op.emit(tx, resourceEvent(op, { type: 'document', id: row.id, action: 'created', view: documentEventView(row), at: now, result }));
    return result;
  });
});
