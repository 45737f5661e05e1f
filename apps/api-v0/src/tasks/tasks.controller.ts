import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { V0Auth } from '@workcell/auth-kit';
import {
  archiveTask,
  createTask,
  getTask,
  invoke,
  listTasks,
  type ProcedureContext,
  requireTokenMember,
  startTaskTimer,
  stopTaskTimer,
  type TaskView,
  updateTask,
  type V0AuthContext,
} from '@workcell/domain';
import { Input, LegacyOperation, type OperationInput, PROCEDURE_CONTEXT } from '@workcell/http';
import { actingFor } from '../legacy/acting.js';
import { assertNotArchived, bodyAliasId, lastWriterWins, legacyPage, pick, seekOf, toLegacy } from '../legacy/resources.js';

type Page = { page?: number; limit?: number };
const CREATE = ['title', 'description', 'priority', 'assigneeIds', 'dueAt', 'estimateMinutes', 'tagIds', 'projectId', 'listId'];
/** Project and list move with v1 moveTask; a v0 PUT ignores them like any other undeclared field. */
const UPDATE = ['title', 'description', 'priority', 'assigneeIds', 'dueAt', 'estimateMinutes', 'tagIds'];

/** v0 tasks over the v1 task procedures (same rows, same ids). */
@Controller()
export class TasksController {
  constructor(@Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext) {}

  private async current(auth: V0AuthContext, request: FastifyRequest, id: string): Promise<TaskView> {
    const acting = await actingFor(this.ctx, auth, request);
    const task = await invoke(getTask, this.ctx, { auth: acting.auth, id });
    assertNotArchived(task, 'task');
    return task;
  }

  @LegacyOperation('legacyGetTasks')
  async list(@V0Auth() auth: V0AuthContext, @Req() request: FastifyRequest, @Input() input: OperationInput<Record<string, string>, Page>) {
    const acting = await actingFor(this.ctx, auth, request);
    const items = await legacyPage(this.ctx, input.query, (cursor, limit) => invoke(listTasks, this.ctx, { auth: acting.auth, limit, ...(cursor === undefined ? {} : { cursor }) }), seekOf(this.ctx, acting.auth.workspaceId, 'tasks', 'listTasks'));
    return items.map(toLegacy);
  }

  @LegacyOperation('legacyGetTasksById')
  async get(@V0Auth() auth: V0AuthContext, @Req() request: FastifyRequest, @Input() input: OperationInput<{ _id: string }>) {
    return toLegacy(await this.current(auth, request, input.path._id));
  }

  @LegacyOperation('legacyPostTasks')
  async create(@V0Auth() auth: V0AuthContext, @Req() request: FastifyRequest, @Input() input: OperationInput, @Res({ passthrough: true }) reply: FastifyReply) {
    const acting = await actingFor(this.ctx, auth, request);
    const task = await invoke(createTask, this.ctx, { auth: acting.auth, requestId: acting.requestId, ...pick(input.body, CREATE) });
    void reply.status(201);
    return toLegacy(task);
  }

  @LegacyOperation('legacyPutTasksById')
  async update(@V0Auth() auth: V0AuthContext, @Req() request: FastifyRequest, @Input() input: OperationInput<{ _id: string }>) {
    return this.write(auth, request, input.path._id, input.body);
  }

  @LegacyOperation('legacyPutTasks')
  async updateByBody(@V0Auth() auth: V0AuthContext, @Req() request: FastifyRequest, @Input() input: OperationInput) {
    return this.write(auth, request, bodyAliasId(input.body), input.body);
  }

  private async write(auth: V0AuthContext, request: FastifyRequest, id: string, body: unknown) {
    const acting = await actingFor(this.ctx, auth, request);
    const task = await lastWriterWins(id, async () => {
      const current = await this.current(auth, request, id);
      return invoke(updateTask, this.ctx, { auth: acting.auth, requestId: acting.requestId, id: current.id, expectedRevision: Number(current.revision), ...pick(body, UPDATE) });
    });
    return toLegacy(task);
  }

  @LegacyOperation('legacyDeleteTasksById')
  async remove(@V0Auth() auth: V0AuthContext, @Req() request: FastifyRequest, @Input() input: OperationInput<{ _id: string }>, @Res({ passthrough: true }) reply: FastifyReply) {
    await this.archive(auth, request, input.path._id);
    void reply.status(204);
  }

  @LegacyOperation('legacyDeleteTasks')
  async removeByBody(@V0Auth() auth: V0AuthContext, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    await this.archive(auth, request, bodyAliasId(request.body));
    void reply.status(204);
  }

  private async archive(auth: V0AuthContext, request: FastifyRequest, id: string): Promise<void> {
    const acting = await actingFor(this.ctx, auth, request);
    await lastWriterWins(id, async () => {
      const current = await this.current(auth, request, id);
      return invoke(archiveTask, this.ctx, { auth: acting.auth, requestId: acting.requestId, id: current.id, expectedRevision: Number(current.revision) });
    });
  }

  @LegacyOperation('legacyPostTasksByIdStartTracking')
  async startTracking(@V0Auth() auth: V0AuthContext, @Req() request: FastifyRequest, @Input() input: OperationInput<{ _id: string }>) {
    const acting = await actingFor(this.ctx, auth, request);
    requireTokenMember(acting, 'time tracking');
    return toLegacy(await invoke(startTaskTimer, this.ctx, { auth: acting.auth, requestId: acting.requestId, id: input.path._id }));
  }

  @LegacyOperation('legacyPostTasksByIdStopTracking')
  async stopTracking(@V0Auth() auth: V0AuthContext, @Req() request: FastifyRequest, @Input() input: OperationInput<{ _id: string }>) {
    const acting = await actingFor(this.ctx, auth, request);
    requireTokenMember(acting, 'time tracking');
    return toLegacy(await invoke(stopTaskTimer, this.ctx, { auth: acting.auth, requestId: acting.requestId, id: input.path._id }));
  }
}
