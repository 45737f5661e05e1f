import { z } from 'zod';
import { listAbsencesPage } from '@workcell/db';
import { AbsenceStatus, DateOnly } from '@workcell/registry';
import { grantedIds } from '../kernel/grants.js';
import { pageInput } from '../kernel/inputs.js';
import { paginate } from '../kernel/pagination.js';
import { defineProcedure } from '../kernel/procedure.js';
import { type AbsenceView, absenceView } from './absence-view.js';
import { resolveSubject } from './subject.js';

export const listAbsencesInput = z.object({ ...pageInput, memberId: z.string().max(64).optional(), from: DateOnly.optional(), to: DateOnly.optional(), status: AbsenceStatus.optional() }).strict();

/**
 * `GET /v1/absences` (the acting member) and `GET /v1/members/{id}/absences` (delegated, subject.ts): the member's
 * absences overlapping the dates [from, to), optionally of one status, in creation order.
 */
export const listAbsences = defineProcedure(
  'listAbsences',
  listAbsencesInput,
  async (op, { cursor, limit, memberId, from, to, status }): Promise<{ items: AbsenceView[]; limit: number; nextCursor: string | null }> => {
    const { auth } = op;
    const subject = await resolveSubject(op.database, auth, memberId);
    const onlyIds = grantedIds(auth, 'absence');
    const window = { from: from === undefined ? undefined : new Date(`${from}T00:00:00Z`), to: to === undefined ? undefined : new Date(`${to}T00:00:00Z`) };
    const scope = { workspaceId: auth.workspaceId, list: 'listAbsences', filter: { memberId: subject.memberId, from: from ?? null, to: to ?? null, status: status ?? null } };
    const page = await paginate(op.config, scope, { cursor, limit }, (afterId, take) =>
      listAbsencesPage(op.database, auth.workspaceId, subject.memberId, { ...window, status, onlyIds }, afterId, take),
    );
    return { items: page.items.map(absenceView), limit, nextCursor: page.nextCursor };
  },
);
