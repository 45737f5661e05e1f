import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { V1Auth } from '@workcell/auth-kit';
import { createProject, getProject, invoke, listProjects, type ProcedureContext, updateProject, type V1AuthContext } from '@workcell/domain';
import { expectedRevisionFrom, Input, list, Operation, type OperationInput, PROCEDURE_CONTEXT, revisioned } from '@workcell/http';

type Id = { id: string };

/**
 * Projects (issue 6): list, create, read and If-Match update. Every single-project response carries the strong
 * revision as `ETag`. The asynchronous lifecycle operations are in `project-lifecycle.controller.ts`.
 */
@Controller()
export class ProjectsController {
  constructor(@Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext) {}

  @Operation('listProjects')
  async listProjects(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listProjects, this.ctx, { auth, ...input.query });
    return list(page.items, page, request);
  }

  @Operation('createProject')
  async createProject(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const created = await invoke(createProject, this.ctx, { ...(input.body as object), auth, requestId: request.id });
    reply.header('location', `/v1/projects/${created.id}`);
    return revisioned(reply, created);
  }

  @Operation('getProject')
  async getProject(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Res({ passthrough: true }) reply: FastifyReply) {
    return revisioned(reply, await invoke(getProject, this.ctx, { auth, id: input.path.id }));
  }

  @Operation('updateProject')
  async updateProject(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const expectedRevision = expectedRevisionFrom(request.headers['if-match']);
    const updated = await invoke(updateProject, this.ctx, { ...(input.body as object), id: input.path.id, expectedRevision, auth, requestId: request.id });
    return revisioned(reply, updated);
  }
}
