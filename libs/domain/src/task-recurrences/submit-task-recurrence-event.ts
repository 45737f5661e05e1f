import { z } from 'zod';
import { findTaskOccurrenceIdByEvent } from '@workcell/db';
import { TaskRecurrenceEvent } from '@workcell/registry';
import { DomainError } from '../kernel/errors.js';
import { defineProcedure } from '../kernel/procedure.js';

import { appendOccurrencesCreated, materialise } from './materialise.js';
import { onLockedSeries, recurrenceOperation, type RecurrenceOperationView, scheduleOf } from './view.js';

export const submitTaskRecurrenceEventInput = z.object({ id: z.string().max(64), ...TaskRecurrenceEvent.shape }).strict();

/**
 * `POST /v1/task-recurrences/{id}/events` (202): an external event triggers one occurrence of an event-driven
 * series (rule frequency `external`): a task copied from the template, due at `occurredAt` (source
 * `external-event`). `externalEventId` is the caller's key: a second event with the same id creates nothing and
 * answers the same operation (its id is the occurrence's). `eventType` and `attributes` are passed through in the
 * `task_recurrence.event_received` event; they do not change what is created. A scheduled series takes no events,
 * and a paused, ended or archived one none either: 409 conflict.
 */
export const submitTaskRecurrenceEvent = defineProcedure('submitTaskRecurrenceEvent', submitTaskRecurrenceEventInput, async (op, input): Promise<RecurrenceOperationView> => {
  const { auth, requestId } = op;
  return onLockedSeries(op, auth, input.id, 'shared', async (tx, series, now) => {
    const id = series.id;
    if (scheduleOf(series).rule.frequency !== 'external') throw new DomainError('conflict', 'only a series with frequency external takes events');
    if (series.state !== 'active') throw new DomainError('conflict', `the task recurrence is ${series.state}; it takes no events`);
    const made = await materialise(tx, series, [new Date(input.occurredAt)], 'external-event', now, op, requestId, input.externalEventId);
    const occurrenceId = made[0]?.id ?? (await findTaskOccurrenceIdByEvent(tx, auth.workspaceId, id, input.externalEventId))!;
    await appendOccurrencesCreated(tx, series, made, now, op, requestId);
    const result = recurrenceOperation(occurrenceId, 'task-recurrence.event', id, now);
    const payload = {
      taskRecurrenceId: id,
      externalEventId: input.externalEventId,
      eventType: input.eventType,
      occurredAt: input.occurredAt,
      attributes: input.attributes ?? {},
      duplicate: made.length === 0,
      requestId,
    };
    await op.emit(tx, { aggregateType: 'task_recurrence', aggregateId: id, eventType: 'task_recurrence.event_received', payload, occurredAt: now, result });
    return result;
  });
});
