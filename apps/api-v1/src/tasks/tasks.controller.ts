import { Controller, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Op } from '@workcell/auth-kit';
import { archiveTask, completeTask, createTask, getTask, invoke, listTasks, moveTask, reopenTask, restoreTask, startTaskTimer, stopTaskTimer, updateTask } from '@workcell/domain';
import { expectedRevisionFrom, Input, list, Operation, type OperationInput, revisioned, single } from '@workcell/http';

type Id = { id: string };

/**
 * Tasks (issue 6): CRUD with archive/restore, complete/reopen/move (all If-Match on the strong revision; every
 * single-task response carries it as `ETag`), and the op member's timer (start/stop).
 */
@Controller()
export class TasksController {
  /** The input of an If-Match write: 428 without the header, 400 for a weak, list or `*` validator. */
  private write(input: OperationInput<Id>, request: FastifyRequest) {
    const expectedRevision = expectedRevisionFrom(request.headers['if-match']);
    return { ...((input.body as object | undefined) ?? {}), id: input.path.id, expectedRevision };
  }

  @Operation('listTasks')
  async listTasks(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listTasks, op, { ...input.query });
    return list(page.items, page, request);
  }

  @Operation('createTask')
  async createTask(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const created = await invoke(createTask, op, { ...(input.body as object) });
    reply.header('location', `/v1/tasks/${created.id}`);
    return revisioned(reply, created);
  }

  @Operation('getTask')
  async getTask(@Op() op: Op, @Input() input: OperationInput<Id>, @Res({ passthrough: true }) reply: FastifyReply) {
    return revisioned(reply, await invoke(getTask, op, { id: input.path.id }));
  }

  @Operation('updateTask')
  async updateTask(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return revisioned(reply, await invoke(updateTask, op, this.write(input, request)));
  }

  @Operation('archiveTask')
  async archiveTask(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest): Promise<void> {
    await invoke(archiveTask, op, this.write(input, request));
  }

  @Operation('restoreTask')
  async restoreTask(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return revisioned(reply, await invoke(restoreTask, op, this.write(input, request)));
  }

  @Operation('completeTask')
  async completeTask(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return revisioned(reply, await invoke(completeTask, op, this.write(input, request)));
  }

  @Operation('reopenTask')
  async reopenTask(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return revisioned(reply, await invoke(reopenTask, op, this.write(input, request)));
  }

  @Operation('moveTask')
  async moveTask(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return revisioned(reply, await invoke(moveTask, op, this.write(input, request)));
  }

  @Operation('startTaskTimer')
  async startTaskTimer(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const entry = await invoke(startTaskTimer, op, { ...((input.body as object | undefined) ?? {}), id: input.path.id });
    reply.header('location', `/v1/time-entries/${entry.id}`);
    return single(entry);
  }

  @Operation('stopTaskTimer')
  async stopTaskTimer(@Op() op: Op, @Input() input: OperationInput<Id>) {
    return single(await invoke(stopTaskTimer, op, { id: input.path.id }));
  }
}
