import { z } from 'zod';
import { listProjectStatementsPage } from '@workcell/db';
import { isUuid } from '../kernel/ids.js';
import { paginate } from '../kernel/pagination.js';
import { defineProcedure } from '../kernel/procedure.js';
import { pageInput } from '../kernel/inputs.js';
import { viewerOf } from '../kernel/visibility.js';
import { holdsFinanceRead, type ProjectStatementView, statementView } from './view.js';

export const listProjectStatementsInput = z
  .object({
    ...pageInput,
    projectId: z.string().max(64).optional(),
    kind: z.enum(['expense', 'revenue', 'budget']).optional(),
    from: z.iso.date().optional(),
    to: z.iso.date().optional(),
  })
  .strict();

/**
 * `GET /v1/project-statements`: the workspace's unarchived statements the caller may see (grants and project sharing,
 * in the statement), oldest first, optionally of one project
 * or kind, occurring in [from, to] (inclusive dates). Budget statements only with the finance read overlay
 * (without it `kind=budget` lists nothing); `purchasePrice` likewise.
 */
export const listProjectStatements = defineProcedure(
  'listProjectStatements',
  listProjectStatementsInput,
  async (op, { cursor, limit, projectId, kind, from, to }): Promise<{ items: ProjectStatementView[]; limit: number; nextCursor: string | null }> => {
    const { auth } = op;
    const withFinance = holdsFinanceRead(auth);
    const project = projectId?.toLowerCase();
    const scope = { workspaceId: auth.workspaceId, list: 'listProjectStatements', filter: { projectId: project ?? null, kind: kind ?? null, from: from ?? null, to: to ?? null, withFinance } };
    const impossible = (projectId !== undefined && !isUuid(projectId)) || (kind === 'budget' && !withFinance);
    const filter = {
      projectId: project,
      kind,
      from: from === undefined ? undefined : new Date(`${from}T00:00:00Z`),
      to: to === undefined ? undefined : new Date(`${to}T00:00:00Z`),
      withBudget: withFinance,
    };
    const page = await paginate(op.config, scope, { cursor, limit }, async (afterId, take) =>
      impossible ? [] : listProjectStatementsPage(op.database, auth.workspaceId, filter, afterId, take, viewerOf(auth)),
    );
    return { items: page.items.map((row) => statementView(row, withFinance)), limit, nextCursor: page.nextCursor };
  },
);
