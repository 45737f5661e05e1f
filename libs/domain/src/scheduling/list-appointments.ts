import { z } from 'zod';
import { listAppointmentsPage } from '@workcell/db';
import { Timestamp } from '@workcell/registry';
import { grantedIds } from '../kernel/grants.js';
import { pageInput } from '../kernel/inputs.js';
import { paginate } from '../kernel/pagination.js';
import { defineProcedure } from '../kernel/procedure.js';
import { type AppointmentView, viewFor } from './appointment-view.js';
import { resolveSubject } from './subject.js';

export const listAppointmentsInput = z.object({ ...pageInput, memberId: z.string().max(64).optional(), from: Timestamp.optional(), to: Timestamp.optional() }).strict();

/**
 * `GET /v1/appointments` (the acting member) and `GET /v1/members/{id}/appointments` (delegated, subject.ts): the
 * member's appointments overlapping [from, to) (either end open), in creation order. A delegate sees another member's
 * private appointments redacted; a service account only those its grants cover.
 */
export const listAppointments = defineProcedure(
  'listAppointments',
  listAppointmentsInput,
  async (op, { cursor, limit, memberId, from, to }): Promise<{ items: AppointmentView[]; limit: number; nextCursor: string | null }> => {
    const { auth } = op;
    const subject = await resolveSubject(op.database, auth, memberId);
    const onlyIds = grantedIds(auth, 'appointment');
    const window = { from: from === undefined ? undefined : new Date(from), to: to === undefined ? undefined : new Date(to) };
    const scope = { workspaceId: auth.workspaceId, list: 'listAppointments', filter: { memberId: subject.memberId, from: window.from?.toISOString() ?? null, to: window.to?.toISOString() ?? null } };
    const page = await paginate(op.config, scope, { cursor, limit }, (afterId, take) => listAppointmentsPage(op.database, auth.workspaceId, subject.memberId, { ...window, onlyIds }, afterId, take));
    return { items: page.items.map(viewFor(subject)), limit, nextCursor: page.nextCursor };
  },
);
