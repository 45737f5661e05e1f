import { z } from 'zod';
import { listTaskOccurrencesPage } from '@workcell/db';
import { paginate } from '../kernel/pagination.js';
import { defineProcedure } from '../kernel/procedure.js';
import { pageInput } from '../kernel/inputs.js';
import { findTaskRecurrenceOr404, taskOccurrenceView, type TaskOccurrenceView, taskRecurrenceIdOf } from './view.js';

export const listTaskRecurrenceOccurrencesInput = z.object({ ...pageInput, id: z.string().max(64) }).strict();

/** `GET /v1/task-recurrences/{id}/occurrences`: the series' occurrences in the order they were made (archived series too). */
export const listTaskRecurrenceOccurrences = defineProcedure(
  'listTaskRecurrenceOccurrences',
  listTaskRecurrenceOccurrencesInput,
  async (op, { cursor, limit, id: rawId }): Promise<{ items: TaskOccurrenceView[]; limit: number; nextCursor: string | null }> => {
    const { auth } = op;
    const id = taskRecurrenceIdOf(rawId);
    await findTaskRecurrenceOr404(op.database, auth, id);
    const scope = { workspaceId: auth.workspaceId, list: 'listTaskRecurrenceOccurrences', filter: { id } };
    const page = await paginate(op.config, scope, { cursor, limit }, (afterId, take) => listTaskOccurrencesPage(op.database, auth.workspaceId, id, afterId, take));
    return { items: page.items.map(taskOccurrenceView), limit, nextCursor: page.nextCursor };
  },
);
