import { z } from 'zod';
import { findProjectStatement, updateProjectStatementIfRevision } from '@workcell/db';
import { ProjectStatementUpdate } from '@workcell/registry';
import { casFailure, expectedRevision } from '../kernel/cas.js';
import { defineProcedure } from '../kernel/procedure.js';
import { requireGrant } from '../kernel/grants.js';
import type { Versioned } from '../kernel/versioned.js';
import { resourceEvent } from '../kernel/resource-events.js';

import { assertFinanceWrite, findWritableStatement, namedAttributes, type ProjectStatementView, resolveStatement, statementEventView, statementIdOf, versionedStatement } from './view.js';

export const updateProjectStatementInput = z.object({ id: z.string().max(64), ...ProjectStatementUpdate.shape }).strict();

/**
 * `PATCH /v1/project-statements/{id}` (compare-and-set on `expectedVersion`, 409 version_conflict when stale):
 * the given attributes. A budget statement is 404 without the finance read overlay; changing one, turning one
 * into a budget statement or supplying purchasePrice needs project-statements:finance:write (403, nothing
 * written). Writes `project_statement.updated` (without purchasePrice) in the same transaction.
 */
export const updateProjectStatement = defineProcedure('updateProjectStatement', updateProjectStatementInput, async (op, input): Promise<Versioned<ProjectStatementView>> => {
  requireGrant(op.auth, 'project_statement', input.id, 'write', 'project statement');
  const { auth } = op;
  const workspaceId = auth.workspaceId;
  const id = statementIdOf(input.id);
  const now = op.now();
  return op.transaction(async (tx) => {
    const current = await findWritableStatement(tx, auth, id);
    assertFinanceWrite(auth, current, input);
    const { projectId: _unchanged, ...values } = await resolveStatement(tx, workspaceId, current, input);
    const outcome = await updateProjectStatementIfRevision(tx, workspaceId, id, expectedRevision(input.expectedVersion), values);
    if (outcome !== 'updated') throw casFailure(outcome, 'project statement');
    const row = (await findProjectStatement(tx, workspaceId, id, true))!;
    const changed = namedAttributes(input);
    await op.emit(tx, resourceEvent(op, { type: 'project_statement', id, action: 'updated', view: { ...statementEventView(row) }, changed, at: now }));
    return versionedStatement(row, auth);
  });
});
