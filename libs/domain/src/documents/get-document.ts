import { z } from 'zod';
import { findDocument } from '@workcell/db';
import { isUuid } from '../kernel/ids.js';
import { requireGrant } from '../kernel/grants.js';
import { defineProcedure } from '../kernel/procedure.js';
import type { Versioned } from '../kernel/versioned.js';

import { viewerOf } from '../kernel/visibility.js';
import { documentNotFound, type DocumentView, versionedDocument } from './view.js';

export const getDocumentInput = z.object({ id: z.string().max(64) }).strict();

/** `GET /v1/documents/{id}`: one document of the caller's workspace that it may see (grants, sharing), archived or not, with its content. */
export const getDocument = defineProcedure('getDocument', getDocumentInput, async (op, { id }): Promise<Versioned<DocumentView>> => {
  const { auth } = op;
  requireGrant(auth, 'document', id, 'read', 'document');
  const row = isUuid(id) ? await findDocument(op.database, auth.workspaceId, id.toLowerCase(), viewerOf(auth)) : null;
  if (!row) throw documentNotFound();
  return versionedDocument(row);
});
