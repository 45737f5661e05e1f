import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { V1Auth } from '@workcell/auth-kit';
import {
  archiveTask,
  completeTask,
  createTask,
  getTask,
  invoke,
  listTasks,
  moveTask,
  type ProcedureContext,
  reopenTask,
  restoreTask,
  startTaskTimer,
  stopTaskTimer,
  updateTask,
  type V1AuthContext,
} from '@workcell/domain';
import { expectedRevisionFrom, Input, list, Operation, type OperationInput, PROCEDURE_CONTEXT, revisioned, single } from '@workcell/http';

type Id = { id: string };

/**
 * Tasks (issue 6): CRUD with archive/restore, complete/reopen/move (all If-Match on the strong revision; every
 * single-task response carries it as `ETag`), and the acting member's timer (start/stop).
 */
@Controller()
export class TasksController {
  constructor(@Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext) {}

  /** The input of an If-Match write: 428 without the header, 400 for a weak, list or `*` validator. */
  private write(auth: V1AuthContext, input: OperationInput<Id>, request: FastifyRequest) {
    const expectedRevision = expectedRevisionFrom(request.headers['if-match']);
    return { ...((input.body as object | undefined) ?? {}), id: input.path.id, expectedRevision, auth, requestId: request.id };
  }

  @Operation('listTasks')
  async listTasks(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listTasks, this.ctx, { auth, ...input.query });
    return list(page.items, page, request);
  }

  @Operation('createTask')
  async createTask(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const created = await invoke(createTask, this.ctx, { ...(input.body as object), auth, requestId: request.id });
    reply.header('location', `/v1/tasks/${created.id}`);
    return revisioned(reply, created);
  }

  @Operation('getTask')
  async getTask(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Res({ passthrough: true }) reply: FastifyReply) {
    return revisioned(reply, await invoke(getTask, this.ctx, { auth, id: input.path.id }));
  }

  @Operation('updateTask')
  async updateTask(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return revisioned(reply, await invoke(updateTask, this.ctx, this.write(auth, input, request)));
  }

  @Operation('archiveTask')
  async archiveTask(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest): Promise<void> {
    await invoke(archiveTask, this.ctx, this.write(auth, input, request));
  }

  @Operation('restoreTask')
  async restoreTask(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return revisioned(reply, await invoke(restoreTask, this.ctx, this.write(auth, input, request)));
  }

  @Operation('completeTask')
  async completeTask(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return revisioned(reply, await invoke(completeTask, this.ctx, this.write(auth, input, request)));
  }

  @Operation('reopenTask')
  async reopenTask(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return revisioned(reply, await invoke(reopenTask, this.ctx, this.write(auth, input, request)));
  }

  @Operation('moveTask')
  async moveTask(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return revisioned(reply, await invoke(moveTask, this.ctx, this.write(auth, input, request)));
  }

  @Operation('startTaskTimer')
  async startTaskTimer(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const entry = await invoke(startTaskTimer, this.ctx, { ...((input.body as object | undefined) ?? {}), id: input.path.id, auth, requestId: request.id });
    reply.header('location', `/v1/time-entries/${entry.id}`);
    return single(entry);
  }

  @Operation('stopTaskTimer')
  async stopTaskTimer(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest) {
    return single(await invoke(stopTaskTimer, this.ctx, { id: input.path.id, auth, requestId: request.id }));
  }
}
