import { z } from 'zod';
import { updateAppointmentIfRevision } from '@workcell/db';
import { AppointmentUpdate } from '@workcell/registry';
import { givenAttributes } from '../kernel/attributes.js';
import { casFailure, expectedRevision } from '../kernel/cas.js';

import { defineProcedure } from '../kernel/procedure.js';
import type { Versioned } from '../kernel/versioned.js';
import { resourceEvent } from '../kernel/resource-events.js';
import { appointmentValues, type AppointmentView, findAppointmentOr404, redactedAppointmentView, versionedAppointment } from './appointment-view.js';
import { appointmentEntry, onCalendarEntry } from './calendar-entry.js';

export const updateAppointmentInput = z.object({ memberId: z.string().max(64).optional(), id: z.string().max(64), ...AppointmentUpdate.shape }).strict();

/**
 * `PATCH /v1/appointments/{id}` and `PATCH /v1/members/{id}/appointments/{appointmentId}` (compare-and-set on
 * `expectedVersion`, 409 version_conflict when stale): the given attributes, checked together with the stored ones
 * (a new endsAt against the stored startsAt). Writes `appointment.updated` (the changed attribute names).
 */
export const updateAppointment = defineProcedure('updateAppointment', updateAppointmentInput, async (op, input): Promise<Versioned<AppointmentView>> => {
  // The path's ids name the entry (onCalendarEntry); the rest are the attributes to change.
  const { memberId: _memberId, id: _id, expectedVersion, ...fields } = input;
  const changed = givenAttributes(fields);
  return onCalendarEntry(op, appointmentEntry, input, async (tx, subject, current, now) => {
    const workspaceId = op.auth.workspaceId;
    const values = await appointmentValues(tx, workspaceId, current, fields);
    const outcome = await updateAppointmentIfRevision(tx, workspaceId, subject.memberId, current.id, expectedRevision(expectedVersion), values);
    if (outcome !== 'updated') throw casFailure(outcome, 'appointment');
    const row = await findAppointmentOr404(tx, workspaceId, subject, current.id);
    await op.emit(tx, resourceEvent(op, { type: 'appointment', id: row.id, action: 'updated', view: redactedAppointmentView(row), changed, at: now }));
    return versionedAppointment(subject, row);
  });
});
