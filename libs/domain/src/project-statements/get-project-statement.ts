import { z } from 'zod';
import { findProjectStatement } from '@workcell/db';
import { isUuid } from '../kernel/ids.js';
import { defineProcedure } from '../kernel/procedure.js';
import { requireGrant } from '../kernel/grants.js';
import type { Versioned } from '../kernel/versioned.js';

import { viewerOf } from '../kernel/visibility.js';
import { holdsFinanceRead, type ProjectStatementView, statementNotFound, versionedStatement } from './view.js';

export const getProjectStatementInput = z.object({ id: z.string().max(64) }).strict();

/**
 * `GET /v1/project-statements/{id}`: one statement of the caller's workspace, archived or not (another
 * workspace's: 404; a budget statement without the finance read overlay, or one of a project whose sharing hides it
 * from the caller: 404, as if missing).
 */
export const getProjectStatement = defineProcedure('getProjectStatement', getProjectStatementInput, async (op, { id }): Promise<Versioned<ProjectStatementView>> => {
  const { auth } = op;
  requireGrant(auth, 'project_statement', id, 'read', 'project statement');
  const row = isUuid(id) ? await findProjectStatement(op.database, auth.workspaceId, id.toLowerCase(), holdsFinanceRead(auth), viewerOf(auth)) : null;
  if (!row) throw statementNotFound();
  return versionedStatement(row, auth);
});
