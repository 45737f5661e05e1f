import { z } from 'zod';
import { ExpectedVersion, ResourceId, Timestamp, Version } from '../schemas/common.js';
import type { OperationDefinition } from '../types.js';
import { family } from './builders.js';

const f = family('planned-work');

const windowFields = {
  memberId: ResourceId,
  startsAt: Timestamp,
  endsAt: Timestamp,
  plannedMinutes: z.number().int().min(1).max(100_000),
};

export const PlannedWork = z
  .object({ id: ResourceId, taskId: ResourceId, projectId: ResourceId.nullable(), ...windowFields })
  .meta({ id: 'PlannedWork', description: 'A planned workload window of a member on a task.' });

export const TaskPlannedWork = z.object({ taskId: ResourceId, windows: z.array(PlannedWork), version: Version }).meta({ id: 'TaskPlannedWork', description: 'The complete schedule of a task.' });

export const TaskPlannedWorkReplace = z.strictObject({ expectedVersion: ExpectedVersion, windows: z.array(z.strictObject(windowFields)).max(1000) }).meta({
  id: 'TaskPlannedWorkReplace',
  description: 'Atomic, fully guarded replacement of a task schedule (safe to retry: a replay after success fails the version check).',
});

export const plannedWorkOperations = [
  f.list('listPlannedWork', '/v1/planned-work', {
    description: 'Replaces v0 scheduled-work queries. `from` and `to` are required and span at most 366 days.',
    scopes: ['planned-work:read'],
    query: {
      from: Timestamp,
      to: Timestamp,
      memberId: ResourceId.optional(),
      projectId: ResourceId.optional(),
      taskId: ResourceId.optional(),
    },
    item: PlannedWork,
  }),
  f.get('getTaskPlannedWork', '/v1/tasks/{id}/planned-work', { scopes: ['planned-work:read'], data: TaskPlannedWork }),
  f.replace('replaceTaskPlannedWork', '/v1/tasks/{id}/planned-work', {
    summary: 'Atomically replace the planned work of a task',
    scopes: ['planned-work:write'],
    concurrency: 'cas',
    guarded: true,
    body: TaskPlannedWorkReplace,
    data: TaskPlannedWork,
  }),
] satisfies readonly OperationDefinition[];
