import { z } from 'zod';
import { setProjectStatementArchived } from '@workcell/db';
import { defineProcedure } from '../kernel/procedure.js';
import { requireGrant } from '../kernel/grants.js';

import { assertFinanceWrite, findWritableStatement, statementIdOf } from './view.js';

export const archiveProjectStatementInput = z.object({ id: z.string().max(64) }).strict();

/**
 * `DELETE /v1/project-statements/{id}`: archives the statement (sets `archived_at`, never deletes). Archiving an
 * archived one changes nothing. A budget statement: 404 without the finance read overlay, 403 without the finance
 * write overlay. Writes `project_statement.archived` in the same transaction.
 */
export const archiveProjectStatement = defineProcedure('archiveProjectStatement', archiveProjectStatementInput, async (op, { id: rawId }): Promise<{ archived: true }> => {
  const { auth, requestId } = op;
  requireGrant(auth, 'project_statement', rawId, 'write', 'project statement');
  const workspaceId = auth.workspaceId;
  const id = statementIdOf(rawId);
  const now = op.now();
  return op.transaction(async (tx) => {
    const statement = await findWritableStatement(tx, auth, id);
    assertFinanceWrite(auth, statement, {});
    if (await setProjectStatementArchived(tx, workspaceId, id, now)) {
      // The kind travels with the event: a budget statement's events reach only finance readers (events/catalog.ts).
      const payload = { projectStatementId: id, kind: statement.kind, archivedAt: now.toISOString(), requestId };
      await op.emit(tx, { aggregateType: 'project_statement', aggregateId: id, eventType: 'project_statement.archived', payload, occurredAt: now });
    }
    return { archived: true as const };
  });
});
