import { z } from 'zod';
import { archivableFields, LongText, Name, patchOf, ResourceId, Revision, ShortText, Timestamp } from '../schemas/common.js';
import type { OperationDefinition } from '../types.js';
import { family } from './builders.js';
import { TimeEntry } from './time-entries.js';

const f = family('tasks');

export const TaskStatus = z.enum(['open', 'completed']);
export const TaskPriority = z.enum(['low', 'normal', 'high', 'urgent']);

export const Task = z
  .object({
    ...archivableFields,
    title: z.string(),
    description: z.string().nullable(),
    projectId: ResourceId.nullable(),
    listId: ResourceId.nullable(),
    status: TaskStatus,
    priority: TaskPriority,
    assigneeIds: z.array(ResourceId),
    dueAt: Timestamp.nullable(),
    estimateMinutes: z.number().int().nullable(),
    tagIds: z.array(ResourceId),
    completedAt: Timestamp.nullable(),
    timerStartedAt: Timestamp.nullable().describe("Set while the acting user's timer runs on this task."),
    revision: Revision,
  })
  .meta({ id: 'Task', description: 'A task. Field mutations, moves and status changes need If-Match.' });

const taskFields = z.strictObject({
  title: Name,
  description: LongText.nullable().optional(),
  priority: TaskPriority.optional(),
  assigneeIds: z.array(ResourceId).max(50).optional(),
  dueAt: Timestamp.nullable().optional(),
  estimateMinutes: z.number().int().min(0).max(1_000_000).nullable().optional(),
  tagIds: z.array(ResourceId).max(100).optional(),
});
export const TaskCreate = taskFields
  .extend({ projectId: ResourceId.nullable().optional(), listId: ResourceId.nullable().optional() })
  .meta({ id: 'TaskCreate', description: 'Attributes of a new task.' });
export const TaskUpdate = patchOf(taskFields, 'TaskUpdate', 'Mutable task attributes; use moveTask to change project or list.');

export const TaskMove = z
  .strictObject({
    projectId: ResourceId.nullable(),
    listId: ResourceId.nullable().optional(),
    position: z.number().int().min(0).optional(),
  })
  .meta({ id: 'TaskMove', description: 'New project / list placement of a task.' });

export const TaskTimerStart = z.strictObject({ note: ShortText.optional() }).meta({ id: 'TaskTimerStart', description: 'Optional note of the time entry the timer creates.' });

const taskFilters = {
  projectId: ResourceId.optional(),
  listId: ResourceId.optional(),
  assigneeId: ResourceId.optional(),
  status: TaskStatus.optional(),
  updatedSince: Timestamp.optional(),
};

export const taskOperations = [
  f.list('listTasks', '/v1/tasks', { scopes: ['tasks:read'], query: taskFilters, item: Task }),
  f.create('createTask', '/v1/tasks', { scopes: ['tasks:write'], etag: true, body: TaskCreate, data: Task }),
  f.get('getTask', '/v1/tasks/{id}', { scopes: ['tasks:read'], etag: true, data: Task }),
  f.update('updateTask', '/v1/tasks/{id}', {
    scopes: ['tasks:write'],
    concurrency: 'if-match',
    etag: true,
    body: TaskUpdate,
    data: Task,
  }),
  f.archive('archiveTask', '/v1/tasks/{id}', { scopes: ['tasks:write'], concurrency: 'if-match' }),
  f.restore('restoreTask', '/v1/tasks/{id}/restore', {
    scopes: ['tasks:write'],
    concurrency: 'if-match',
    etag: true,
    data: Task,
  }),
  f.action('POST', 'completeTask', '/v1/tasks/{id}/complete', {
    scopes: ['tasks:write'],
    concurrency: 'if-match',
    etag: true,
    data: Task,
  }),
  f.action('POST', 'reopenTask', '/v1/tasks/{id}/reopen', {
    scopes: ['tasks:write'],
    concurrency: 'if-match',
    etag: true,
    data: Task,
  }),
  f.action('POST', 'moveTask', '/v1/tasks/{id}/move', {
    summary: 'Move a task to another project or list',
    scopes: ['tasks:write'],
    concurrency: 'if-match',
    etag: true,
    body: TaskMove,
    data: Task,
  }),
  f.action('POST', 'startTaskTimer', '/v1/tasks/{id}/timer/start', {
    summary: 'Start time tracking on a task',
    description: 'Creates a running time entry for the acting user (v0 startTracking).',
    scopes: ['tasks:read', 'time-entries:write'],
    success: 201,
    body: TaskTimerStart.optional(),
    data: TimeEntry,
  }),
  f.action('POST', 'stopTaskTimer', '/v1/tasks/{id}/timer/stop', {
    summary: 'Stop time tracking on a task',
    description: "Ends the acting user's running time entry on this task (v0 stopTracking).",
    scopes: ['tasks:read', 'time-entries:write'],
    data: TimeEntry,
  }),
] satisfies readonly OperationDefinition[];
