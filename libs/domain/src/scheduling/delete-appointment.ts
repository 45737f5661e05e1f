import { appointmentEntry, deleteCalendarEntryProcedure } from './calendar-entry.js';

/**
 * `DELETE /v1/appointments/{id}` and `DELETE /v1/members/{id}/appointments/{appointmentId}`: archives the
 * appointment (404 afterwards, a second delete included) and writes `appointment.deleted`.
 */
export const deleteAppointment = deleteCalendarEntryProcedure('deleteAppointment', appointmentEntry);
