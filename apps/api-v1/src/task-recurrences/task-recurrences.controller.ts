import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { V1Auth } from '@workcell/auth-kit';
import {
  archiveTaskRecurrence,
  createTaskRecurrence,
  getTaskRecurrence,
  invoke,
  listTaskRecurrenceOccurrences,
  listTaskRecurrences,
  previewTaskRecurrence,
  type ProcedureContext,
  recheckTaskRecurrence,
  restoreTaskRecurrence,
  submitTaskRecurrenceEvent,
  updateTaskRecurrence,
  type V1AuthContext,
} from '@workcell/domain';
import { Input, list, Operation, type OperationInput, PROCEDURE_CONTEXT, single, versioned } from '@workcell/http';

type Id = { id: string };

/**
 * Task recurrences (scopes task-recurrences:* with the paired task scopes); updates are compare-and-set. Recheck and
 * event submission answer 202 with an operation that has already succeeded (the work is done in the request) and a
 * `Location` naming the series' occurrences, where its result shows.
 */
@Controller()
export class TaskRecurrencesController {
  constructor(@Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext) {}

  @Operation('listTaskRecurrences')
  async listTaskRecurrences(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listTaskRecurrences, this.ctx, { auth, ...input.query });
    return list(page.items, page, request);
  }

  @Operation('getTaskRecurrence')
  async getTaskRecurrence(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(getTaskRecurrence, this.ctx, { auth, id: input.path.id }));
  }

  @Operation('listTaskRecurrenceOccurrences')
  async listTaskRecurrenceOccurrences(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest) {
    const page = await invoke(listTaskRecurrenceOccurrences, this.ctx, { auth, id: input.path.id, ...input.query });
    return list(page.items, page, request);
  }

  @Operation('createTaskRecurrence')
  async createTaskRecurrence(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const created = await invoke(createTaskRecurrence, this.ctx, { ...(input.body as object), auth, requestId: request.id });
    reply.header('location', `/v1/task-recurrences/${created.resource.id}`);
    return versioned(reply, created);
  }

  @Operation('updateTaskRecurrence')
  async updateTaskRecurrence(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(updateTaskRecurrence, this.ctx, { ...(input.body as object), id: input.path.id, auth, requestId: request.id }));
  }

  @Operation('archiveTaskRecurrence')
  async archiveTaskRecurrence(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest): Promise<void> {
    await invoke(archiveTaskRecurrence, this.ctx, { id: input.path.id, auth, requestId: request.id });
  }

  @Operation('restoreTaskRecurrence')
  async restoreTaskRecurrence(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(restoreTaskRecurrence, this.ctx, { id: input.path.id, auth, requestId: request.id }));
  }

  @Operation('previewTaskRecurrence')
  async previewTaskRecurrence(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest) {
    return single(await invoke(previewTaskRecurrence, this.ctx, { ...(input.body as object), id: input.path.id, auth, requestId: request.id }));
  }

  @Operation('recheckTaskRecurrence')
  async recheckTaskRecurrence(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const operation = await invoke(recheckTaskRecurrence, this.ctx, { id: input.path.id, auth, requestId: request.id });
    reply.header('location', `/v1/task-recurrences/${operation.resourceId}/occurrences`);
    return single(operation);
  }

  @Operation('submitTaskRecurrenceEvent')
  async submitTaskRecurrenceEvent(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const operation = await invoke(submitTaskRecurrenceEvent, this.ctx, { ...(input.body as object), id: input.path.id, auth, requestId: request.id });
    reply.header('location', `/v1/task-recurrences/${operation.resourceId}/occurrences`);
    return single(operation);
  }
}
