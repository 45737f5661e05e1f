import { Controller, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Op } from '@workcell/auth-kit';
import {
  archiveTaskRecurrence,
  createTaskRecurrence,
  getTaskRecurrence,
  invoke,
  listTaskRecurrenceOccurrences,
  listTaskRecurrences,
  previewTaskRecurrence,
  recheckTaskRecurrence,
  restoreTaskRecurrence,
  submitTaskRecurrenceEvent,
  updateTaskRecurrence,
} from '@workcell/domain';
import { Input, list, Operation, type OperationInput, single, versioned } from '@workcell/http';

type Id = { id: string };

/**
 * Task recurrences (scopes task-recurrences:* with the paired task scopes); updates are compare-and-set. Recheck and
 * event submission answer 202 with an operation that has already succeeded (the work is done in the request) and a
 * `Location` naming the series' occurrences, where its result shows.
 */
@Controller()
export class TaskRecurrencesController {
  @Operation('listTaskRecurrences')
  async listTaskRecurrences(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listTaskRecurrences, op, { ...input.query });
    return list(page.items, page, request);
  }

  @Operation('getTaskRecurrence')
  async getTaskRecurrence(@Op() op: Op, @Input() input: OperationInput<Id>, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(getTaskRecurrence, op, { id: input.path.id }));
  }

  @Operation('listTaskRecurrenceOccurrences')
  async listTaskRecurrenceOccurrences(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest) {
    const page = await invoke(listTaskRecurrenceOccurrences, op, { id: input.path.id, ...input.query });
    return list(page.items, page, request);
  }

  @Operation('createTaskRecurrence')
  async createTaskRecurrence(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const created = await invoke(createTaskRecurrence, op, { ...(input.body as object) });
    reply.header('location', `/v1/task-recurrences/${created.resource.id}`);
    return versioned(reply, created);
  }

  @Operation('updateTaskRecurrence')
  async updateTaskRecurrence(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(updateTaskRecurrence, op, { ...(input.body as object), id: input.path.id }));
  }

  @Operation('archiveTaskRecurrence')
  async archiveTaskRecurrence(@Op() op: Op, @Input() input: OperationInput<Id>): Promise<void> {
    await invoke(archiveTaskRecurrence, op, { id: input.path.id });
  }

  @Operation('restoreTaskRecurrence')
  async restoreTaskRecurrence(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(restoreTaskRecurrence, op, { id: input.path.id }));
  }

  @Operation('previewTaskRecurrence')
  async previewTaskRecurrence(@Op() op: Op, @Input() input: OperationInput<Id>) {
    return single(await invoke(previewTaskRecurrence, op, { ...(input.body as object), id: input.path.id }));
  }

  @Operation('recheckTaskRecurrence')
  async recheckTaskRecurrence(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const operation = await invoke(recheckTaskRecurrence, op, { id: input.path.id });
    reply.header('location', `/v1/task-recurrences/${operation.resourceId}/occurrences`);
    return single(operation);
  }

  @Operation('submitTaskRecurrenceEvent')
  async submitTaskRecurrenceEvent(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const operation = await invoke(submitTaskRecurrenceEvent, op, { ...(input.body as object), id: input.path.id });
    reply.header('location', `/v1/task-recurrences/${operation.resourceId}/occurrences`);
    return single(operation);
  }
}
