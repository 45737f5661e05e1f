import { absenceEntry, deleteCalendarEntryProcedure } from './calendar-entry.js';

/**
 * `DELETE /v1/absences/{id}` (the member's own, while requested) and `DELETE /v1/members/{id}/absences/{absenceId}`
 * (an administrator, any status): archives the absence (404 afterwards) and writes `absence.deleted`.
 */
export const deleteAbsence = deleteCalendarEntryProcedure('deleteAbsence', absenceEntry);
