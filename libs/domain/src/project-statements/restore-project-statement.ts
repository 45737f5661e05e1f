import { z } from 'zod';
import { findProjectStatement, setProjectStatementArchived } from '@workcell/db';
import { defineProcedure } from '../kernel/procedure.js';
import { requireGrant } from '../kernel/grants.js';
import type { Versioned } from '../kernel/versioned.js';
import { resourceEvent } from '../kernel/resource-events.js';

import { assertFinanceWrite, findWritableStatement, type ProjectStatementView, statementEventView, statementIdOf, versionedStatement } from './view.js';

export const restoreProjectStatementInput = z.object({ id: z.string().max(64) }).strict();

/**
 * `POST /v1/project-statements/{id}/restore`: clears `archived_at`; restoring an unarchived one changes nothing.
 * A budget statement: 404 without the finance read overlay, 403 without the finance write overlay. Writes
 * `project_statement.restored` (without purchasePrice) in the same transaction as the change.
 */
export const restoreProjectStatement = defineProcedure('restoreProjectStatement', restoreProjectStatementInput, async (op, { id: rawId }): Promise<Versioned<ProjectStatementView>> => {
  const { auth } = op;
  requireGrant(auth, 'project_statement', rawId, 'write', 'project statement');
  const workspaceId = auth.workspaceId;
  const id = statementIdOf(rawId);
  const now = op.now();
  return op.transaction(async (tx) => {
    assertFinanceWrite(auth, await findWritableStatement(tx, auth, id), {});
    const restored = await setProjectStatementArchived(tx, workspaceId, id, null);
    const row = (await findProjectStatement(tx, workspaceId, id, true))!;
    const result = versionedStatement(row, auth);
    if (restored) {
      await op.emit(tx, resourceEvent(op, { type: 'project_statement', id: id, action: 'restored', view: { ...statementEventView(row) }, at: now, result: result }));
    }
    return result;
  });
});
