import { Controller, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Op } from '@workcell/auth-kit';
import { archiveProject, completeProject, getProjectLifecycleOperation, invoke, listProjectLifecycleOperations, reopenProject, restoreProject } from '@workcell/domain';
import { expectedRevisionFrom, Input, list, Operation, type OperationInput, single } from '@workcell/http';

type Id = { id: string };
type Request = typeof completeProject;

/**
 * Asynchronous project lifecycle (issue 6): complete, reopen, archive, restore answer 202 with the queued
 * operation and its `Location`; the worker applies it (job `projects.lifecycle`, job id = operation id), started
 * from the outbox (the `project.lifecycle_requested` event, delivery/post-commit.ts), never from here.
 */
@Controller()
export class ProjectLifecycleController {
  private async accept(procedure: Request, op: Op, input: OperationInput<Id>, request: FastifyRequest, reply: FastifyReply) {
    const expectedRevision = expectedRevisionFrom(request.headers['if-match']);
    const operation = await invoke(procedure, op, { id: input.path.id, expectedRevision });
    reply.header('location', `/v1/projects/${operation.resourceId}/lifecycle-operations/${operation.id}`);
    return single(operation);
  }

  @Operation('completeProject')
  completeProject(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.accept(completeProject, op, input, request, reply);
  }

  @Operation('reopenProject')
  reopenProject(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.accept(reopenProject, op, input, request, reply);
  }

  @Operation('archiveProject')
  archiveProject(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.accept(archiveProject, op, input, request, reply);
  }

  @Operation('restoreProject')
  restoreProject(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.accept(restoreProject, op, input, request, reply);
  }

  @Operation('listProjectLifecycleOperations')
  async listProjectLifecycleOperations(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest) {
    const page = await invoke(listProjectLifecycleOperations, op, { id: input.path.id, ...input.query });
    return list(page.items, page, request);
  }

  @Operation('getProjectLifecycleOperation')
  async getProjectLifecycleOperation(@Op() op: Op, @Input() input: OperationInput<Id & { lifecycleOperationId: string }>) {
    return single(await invoke(getProjectLifecycleOperation, op, { id: input.path.id, operationId: input.path.lifecycleOperationId }));
  }
}
