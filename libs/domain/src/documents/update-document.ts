import { z } from 'zod';
import { updateDocumentIfRevision } from '@workcell/db';
import { DocumentUpdate } from '@workcell/registry';
import { nothingToChange } from '../kernel/attributes.js';
import { casFailure, expectedRevision } from '../kernel/cas.js';
import { requireGrant } from '../kernel/grants.js';
import { defineProcedure } from '../kernel/procedure.js';
import type { Versioned } from '../kernel/versioned.js';

import { requireResourceAccess } from '../kernel/visibility.js';
import { resourceEvent } from '../kernel/resource-events.js';
import { assertContentWithinBound, documentChanges, documentEventView, documentIdOf, type DocumentView, findDocumentOr404, versionedDocument } from './view.js';

export const updateDocumentInput = z.object({ id: z.string().max(64), ...DocumentUpdate.shape }).strict();

/**
 * `PATCH /v1/documents/{id}` (compare-and-set on `expectedVersion`, 409 version_conflict when stale): changes the
 * given title, format or content (the target is fixed at creation). Content over the bound is 413 before anything is
 * read. A document on a project hidden from the caller is 404; on a shared one a viewer is 403
 * `insufficient_project_access` (documents/view.ts). Writes `document.updated` (the changed attribute names and the
 * document without its content) in the same transaction.
 */
export const updateDocument = defineProcedure('updateDocument', updateDocumentInput, async (op, input): Promise<Versioned<DocumentView>> => {
  const { auth } = op;
  requireGrant(auth, 'document', input.id, 'write', 'document');
  const workspaceId = auth.workspaceId;
  const id = documentIdOf(input.id);
  assertContentWithinBound(input);
  const change = documentChanges(input);
  if (Object.keys(change).length === 0) throw nothingToChange();
  const now = op.now();
  return op.transaction(async (tx) => {
    await requireResourceAccess(tx, auth, 'document', id, 'write', 'document');
    const outcome = await updateDocumentIfRevision(tx, workspaceId, id, expectedRevision(input.expectedVersion), change);
    if (outcome !== 'updated') throw casFailure(outcome, 'document');
    const row = await findDocumentOr404(tx, workspaceId, id);
    await op.emit(tx, resourceEvent(op, { type: 'document', id, action: 'updated', view: documentEventView(row), changed: Object.keys(change), at: now }));
    return versionedDocument(row);
  });
});
