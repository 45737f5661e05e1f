import { z } from 'zod';
import { findProject, findProjectTemplate, findTask, insertProject, insertSkeletonTasks, type SkeletonTask, type TaskBlueprintRecord } from '@workcell/db';
import { ProjectTemplateInstantiation } from '@workcell/registry';
import { DomainError } from '../kernel/errors.js';
import { requireTypeGrant } from '../kernel/grants.js';
import { LATEST_INSTANT_MS } from '../kernel/limits.js';
import { defineProcedure } from '../kernel/procedure.js';
import { assertProjectReferences, type ProjectView, projectView } from '../projects/view.js';

import { taskView } from '../tasks/view.js';
import { templateId } from './view.js';

export const instantiateProjectTemplateInput = z.object({ id: z.string().max(64), ...ProjectTemplateInstantiation.shape }).strict();

const DAY = 24 * 3600 * 1000;

/** A blueprint on the calendar: it starts `offsetDays` after the project start and is due `durationDays` after that. */
function skeletonTask(blueprint: TaskBlueprintRecord, projectStart: Date): SkeletonTask {
  const startDate = new Date(projectStart.getTime() + blueprint.offsetDays * DAY);
  return {
    title: blueprint.title,
    description: blueprint.description ?? null,
    startDate,
    dueDate: blueprint.durationDays === undefined ? null : new Date(startDate.getTime() + blueprint.durationDays * DAY),
  };
}

/**
 * `POST /v1/project-templates/{id}/instantiate` (scopes project-templates:read + projects:write, checked by the
 * guard from the registry): one transaction creates the project (name, customer, start date) and one task per
 * blueprint of the template's skeleton, and writes `project.created` (with the template id and the task ids)
 * and one `task.created` per skeleton task.
 * An archived template cannot be instantiated (409). A service account needs a read grant on the template and
 * a type-wide write grant on projects (the skeleton's tasks belong to the new project).
 */
export const instantiateProjectTemplate = defineProcedure('instantiateProjectTemplate', instantiateProjectTemplateInput, async (op, input): Promise<ProjectView> => {
  const { auth, requestId } = op;
  const id = templateId(auth, input.id, 'read');
  requireTypeGrant(auth, 'project', 'write', 'projects');
  const workspaceId = auth.workspaceId;
  const now = op.now();
  return op.transaction(async (tx) => {
    const template = await findProjectTemplate(tx, workspaceId, id);
    if (!template) throw new DomainError('not_found', 'project template not found');
    if (template.archivedAt !== null) throw new DomainError('conflict', 'the project template is archived; restore it before instantiating it');
    const customerId = input.customerId ?? null;
    await assertProjectReferences(tx, workspaceId, { customerId });
    const startDate = new Date(`${input.startsOn}T00:00:00.000Z`);
    const skeleton = template.taskBlueprints.map((b) => skeletonTask(b, startDate));
    // The blueprints' offsets must not carry a task past the latest supported date (year 9999).
    if (skeleton.some((task) => !(task.startDate.getTime() <= LATEST_INSTANT_MS) || (task.dueDate !== null && !(task.dueDate.getTime() <= LATEST_INSTANT_MS)))) {
      throw new DomainError('validation_failed', 'the template would schedule tasks after 9999-12-31', [
        { pointer: '/startsOn', message: "the template's task offsets would schedule tasks after 9999-12-31" },
      ]);
    }
    const created = await insertProject(
      tx,
      workspaceId,
      { name: input.name, description: template.description, contactId: customerId === null ? null : customerId.toLowerCase(), startDate, tagIds: [] },
      now,
    );
    const taskIds = await insertSkeletonTasks(tx, workspaceId, created.id, skeleton, now);
    const view = projectView((await findProject(tx, workspaceId, created.id))!);
    await op.emit(tx, {
      aggregateType: 'project',
      aggregateId: created.id,
      eventType: 'project.created',
      payload: { project: { ...view }, projectTemplateId: id, taskIds, requestId },
      occurredAt: now,
      result: view,
    });
    // Each skeleton task is announced like any created task, so change-feed and webhook consumers see it.
    for (const taskId of taskIds) {
      const task = taskView((await findTask(tx, workspaceId, taskId))!);
      await op.emit(tx, {
        aggregateType: 'task',
        aggregateId: taskId,
        eventType: 'task.created',
        payload: { task: { ...task }, projectTemplateId: id, requestId },
        occurredAt: now,
      });
    }
    return view;
  });
});
