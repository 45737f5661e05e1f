import { Controller, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Op } from '@workcell/auth-kit';
import { createProject, getProject, invoke, listProjects, updateProject } from '@workcell/domain';
import { expectedRevisionFrom, Input, list, Operation, type OperationInput, revisioned } from '@workcell/http';

type Id = { id: string };

/**
 * Projects (issue 6): list, create, read and If-Match update. Every single-project response carries the strong
 * revision as `ETag`. The asynchronous lifecycle operations are in `project-lifecycle.controller.ts`.
 */
@Controller()
export class ProjectsController {
  @Operation('listProjects')
  async listProjects(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listProjects, op, { ...input.query });
    return list(page.items, page, request);
  }

  @Operation('createProject')
  async createProject(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const created = await invoke(createProject, op, { ...(input.body as object) });
    reply.header('location', `/v1/projects/${created.id}`);
    return revisioned(reply, created);
  }

  @Operation('getProject')
  async getProject(@Op() op: Op, @Input() input: OperationInput<Id>, @Res({ passthrough: true }) reply: FastifyReply) {
    return revisioned(reply, await invoke(getProject, op, { id: input.path.id }));
  }

  @Operation('updateProject')
  async updateProject(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const expectedRevision = expectedRevisionFrom(request.headers['if-match']);
    const updated = await invoke(updateProject, op, { ...(input.body as object), id: input.path.id, expectedRevision });
    return revisioned(reply, updated);
  }
}
