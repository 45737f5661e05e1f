import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { archiveTask, createTask, getTask, invoke, listTasks, type ProcedureContext, requireTokenMember, startTaskTimer, stopTaskTimer, updateTask } from '@workcell/domain';
import { Input, LegacyOperation, type OperationInput, PROCEDURE_CONTEXT } from '@workcell/http';
import { type Acting, V0Acting } from '../legacy/acting.js';
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
  async list(@V0Acting() acting: Acting, @Input() input: OperationInput<Record<string, string>, Page>) {
    const items = await legacyPage(
      this.ctx,
      input.query,
      (cursor, limit) => invoke(listTasks, this.ctx, { auth: acting.auth, limit, ...(cursor === undefined ? {} : { cursor }) }),
      seekOf(this.ctx, acting.auth.workspaceId, 'tasks', 'listTasks'),
    );
    return items.map(toLegacy);
  }

  @LegacyOperation('legacyGetTasksById')
  async get(@V0Acting() acting: Acting, @Input() input: OperationInput<{ _id: string }>) {
    return toLegacy(await currentResource(this.ctx, getTask, acting.auth, input.path._id, 'task'));
  }

  @LegacyOperation('legacyPostTasks')
  async create(@V0Acting() acting: Acting, @Input() input: OperationInput, @Res({ passthrough: true }) reply: FastifyReply) {
    const task = await invoke(createTask, this.ctx, { auth: acting.auth, requestId: acting.requestId, ...pick(input.body, CREATE) });
    void reply.status(201);
    return toLegacy(task);
  }

  @LegacyOperation('legacyPutTasksById')
  async update(@V0Acting() acting: Acting, @Input() input: OperationInput<{ _id: string }>) {
    return this.write(acting, input.path._id, input.body);
  }

  @LegacyOperation('legacyPutTasks')
  async updateByBody(@V0Acting() acting: Acting, @Input() input: OperationInput) {
    return this.write(acting, bodyAliasId(input.body), input.body);
  }

  private async write(acting: Acting, id: string, body: unknown) {
    const task = await lastWriterWins(id, async () => {
      const current = await currentResource(this.ctx, getTask, acting.auth, id, 'task');
      return invoke(updateTask, this.ctx, { auth: acting.auth, requestId: acting.requestId, id: current.id, expectedRevision: Number(current.revision), ...pick(body, UPDATE) });
    });
    return toLegacy(task);
  }

  @LegacyOperation('legacyDeleteTasksById')
  async remove(@V0Acting() acting: Acting, @Input() input: OperationInput<{ _id: string }>, @Res({ passthrough: true }) reply: FastifyReply) {
    await this.archive(acting, input.path._id);
    void reply.status(204);
  }

  @LegacyOperation('legacyDeleteTasks')
  async removeByBody(@V0Acting() acting: Acting, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    await this.archive(acting, bodyAliasId(request.body));
    void reply.status(204);
  }

  private async archive(acting: Acting, id: string): Promise<void> {
    await lastWriterWins(id, async () => {
      const current = await currentResource(this.ctx, getTask, acting.auth, id, 'task');
      return invoke(archiveTask, this.ctx, { auth: acting.auth, requestId: acting.requestId, id: current.id, expectedRevision: Number(current.revision) });
    });
  }

  @LegacyOperation('legacyPostTasksByIdStartTracking')
  async startTracking(@V0Acting() acting: Acting, @Input() input: OperationInput<{ _id: string }>) {
    requireTokenMember(acting, 'time tracking');
    return toLegacy(await invoke(startTaskTimer, this.ctx, { auth: acting.auth, requestId: acting.requestId, id: input.path._id }));
  }

  @LegacyOperation('legacyPostTasksByIdStopTracking')
  async stopTracking(@V0Acting() acting: Acting, @Input() input: OperationInput<{ _id: string }>) {
    requireTokenMember(acting, 'time tracking');
    return toLegacy(await invoke(stopTaskTimer, this.ctx, { auth: acting.auth, requestId: acting.requestId, id: input.path._id }));
  }
}
