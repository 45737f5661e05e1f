import { z } from 'zod';
import { listTaskOccurrencesPage } from '@workcell/db';
import { paginate } from '../kernel/pagination.js';
import { defineProcedure } from '../kernel/procedure.js';
import { authInput, pageInput } from '../kernel/inputs.js';
import { findTaskRecurrenceOr404, taskOccurrenceView, type TaskOccurrenceView, taskRecurrenceIdOf } from './view.js';

export const listTaskRecurrenceOccurrencesInput = z.object({ auth: authInput, ...pageInput, id: z.string().max(64) }).strict();

/** `GET /v1/task-recurrences/{id}/occurrences`: the series' occurrences in the order they were made (archived series too). */
export const listTaskRecurrenceOccurrences = defineProcedure(
  'listTaskRecurrenceOccurrences',
  listTaskRecurrenceOccurrencesInput,
  async (ctx, { auth, cursor, limit, id: rawId }): Promise<{ items: TaskOccurrenceView[]; limit: number; nextCursor: string | null }> => {
    const id = taskRecurrenceIdOf(rawId);
    await findTaskRecurrenceOr404(ctx.database, auth, id);
    const scope = { workspaceId: auth.workspaceId, list: 'listTaskRecurrenceOccurrences', filter: { id } };
    const page = await paginate(ctx.config, scope, { cursor, limit }, (afterId, take) => listTaskOccurrencesPage(ctx.database, auth.workspaceId, id, afterId, take));
    return { items: page.items.map(taskOccurrenceView), limit, nextCursor: page.nextCursor };
  },
);
