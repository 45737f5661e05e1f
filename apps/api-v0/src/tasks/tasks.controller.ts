import { Op } from '@workcell/auth-kit';
import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { archiveTask, createTask, getTask, invoke, listTasks, type ProcedureContext, requireTokenMember, startTaskTimer, stopTaskTimer, updateTask } from '@workcell/domain';
import { Input, LegacyOperation, type OperationInput, PROCEDURE_CONTEXT } from '@workcell/http';
import { bodyAliasId, currentResource, lastWriterWins, legacyPage, pick, seekOf, toLegacy } from '../legacy/resources.js';

type Page = { page?: number; limit?: number };
const CREATE = ['title', 'description', 'priority', 'assigneeIds', 'dueAt', 'estimateMinutes', 'tagIds', 'projectId', 'listId'];
/** Project and list move with v1 moveTask; a v0 PUT ignores them like any other undeclared field. */
const UPDATE = ['title', 'description', 'priority', 'assigneeIds', 'dueAt', 'estimateMinutes', 'tagIds'];

/** v0 tasks over the v1 task procedures (same rows, same ids). */
@Controller()
export class TasksController {
  constructor(@Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext) {}

  @LegacyOperation('legacyGetTasks')
  async list(@Op() op: Op, @Input() input: OperationInput<Record<string, string>, Page>) {
    const items = await legacyPage(
      this.ctx,
      input.query,
      (cursor, limit) => invoke(listTasks, op, { limit, ...(cursor === undefined ? {} : { cursor }) }),
      seekOf(this.ctx, op.auth.workspaceId, 'tasks', 'listTasks'),
    );
    return items.map(toLegacy);
  }

  @LegacyOperation('legacyGetTasksById')
  async get(@Op() op: Op, @Input() input: OperationInput<{ _id: string }>) {
    return toLegacy(await currentResource(op, getTask, input.path._id, 'task'));
  }

  @LegacyOperation('legacyPostTasks')
  async create(@Op() op: Op, @Input() input: OperationInput, @Res({ passthrough: true }) reply: FastifyReply) {
    const task = await invoke(createTask, op, { ...pick(input.body, CREATE) });
    void reply.status(201);
    return toLegacy(task);
  }

  @LegacyOperation('legacyPutTasksById')
  async update(@Op() op: Op, @Input() input: OperationInput<{ _id: string }>) {
    return this.write(op, input.path._id, input.body);
  }

  @LegacyOperation('legacyPutTasks')
  async updateByBody(@Op() op: Op, @Input() input: OperationInput) {
    return this.write(op, bodyAliasId(input.body), input.body);
  }

  private async write(op: Op, id: string, body: unknown) {
    const task = await lastWriterWins(id, async () => {
      const current = await currentResource(op, getTask, id, 'task');
      return invoke(updateTask, op, { id: current.id, expectedRevision: Number(current.revision), ...pick(body, UPDATE) });
    });
    return toLegacy(task);
  }

  @LegacyOperation('legacyDeleteTasksById')
  async remove(@Op() op: Op, @Input() input: OperationInput<{ _id: string }>, @Res({ passthrough: true }) reply: FastifyReply) {
    await this.archive(op, input.path._id);
    void reply.status(204);
  }

  @LegacyOperation('legacyDeleteTasks')
  async removeByBody(@Op() op: Op, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    await this.archive(op, bodyAliasId(request.body));
    void reply.status(204);
  }

  private async archive(op: Op, id: string): Promise<void> {
    await lastWriterWins(id, async () => {
      const current = await currentResource(op, getTask, id, 'task');
      return invoke(archiveTask, op, { id: current.id, expectedRevision: Number(current.revision) });
    });
  }

  @LegacyOperation('legacyPostTasksByIdStartTracking')
  async startTracking(@Op() op: Op, @Input() input: OperationInput<{ _id: string }>) {
    requireTokenMember(op, 'time tracking');
    return toLegacy(await invoke(startTaskTimer, op, { id: input.path._id }));
  }

  @LegacyOperation('legacyPostTasksByIdStopTracking')
  async stopTracking(@Op() op: Op, @Input() input: OperationInput<{ _id: string }>) {
    requireTokenMember(op, 'time tracking');
    return toLegacy(await invoke(stopTaskTimer, op, { id: input.path._id }));
  }
}
