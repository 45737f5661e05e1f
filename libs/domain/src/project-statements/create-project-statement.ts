import { z } from 'zod';
import { insertProjectStatement } from '@workcell/db';
import { ProjectStatementCreate } from '@workcell/registry';
import { defineProcedure } from '../kernel/procedure.js';
import { requireTypeGrant } from '../kernel/grants.js';
import type { Versioned } from '../kernel/versioned.js';

import { requireProjectAccess } from '../kernel/visibility.js';
import { resourceEvent } from '../kernel/resource-events.js';
import { assertFinanceWrite, type ProjectStatementView, resolveStatement, statementEventView, versionedStatement } from './view.js';

export const createProjectStatementInput = z.object({ ...ProjectStatementCreate.shape }).strict();

/**
 * `POST /v1/project-statements`: a new statement of an unarchived project of the workspace the caller may change
 * (project sharing: editor or manager) (revision 1). A
 * budget statement or a purchasePrice needs project-statements:finance:write (403 before anything is written).
 * Writes `project_statement.created` (without purchasePrice) in the same transaction.
 */
export const createProjectStatement = defineProcedure('createProjectStatement', createProjectStatementInput, async (op, input): Promise<Versioned<ProjectStatementView>> => {
  requireTypeGrant(op.auth, 'project_statement', 'write', 'project statements');
  assertFinanceWrite(op.auth, null, input);
  const { auth } = op;
  const workspaceId = auth.workspaceId;
  const now = op.now();
  return op.transaction(async (tx) => {
    const { projectId, ...values } = await resolveStatement(tx, workspaceId, null, input);
    // Sharing: a statement of a shared project changes it (editor or manager); one the caller may not see is 400 like a missing one.
    await requireProjectAccess(tx, auth, projectId, 'write', 'project', '/projectId');
    const row = await insertProjectStatement(tx, workspaceId, projectId, values);
    const result = versionedStatement(row, auth);
    await op.emit(tx, resourceEvent(op, { type: 'project_statement', id: row.id, action: 'created', view: { ...statementEventView(row) }, at: now, result }));
    return result;
  });
});
