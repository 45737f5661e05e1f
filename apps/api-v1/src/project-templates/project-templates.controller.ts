import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { V1Auth } from '@workcell/auth-kit';
import {
  archiveProjectTemplate,
  createProjectTemplate,
  getProjectTemplate,
  instantiateProjectTemplate,
  invoke,
  listProjectTemplates,
  type ProcedureContext,
  restoreProjectTemplate,
  updateProjectTemplate,
  type V1AuthContext,
} from '@workcell/domain';
import { expectedRevisionFrom, Input, list, Operation, type OperationInput, PROCEDURE_CONTEXT, revisioned, versioned } from '@workcell/http';

type Id = { id: string };

/**
 * Project templates (contract 2, scopes project-templates:*). Update, archive and restore need the strong
 * revision in `If-Match` (428 missing, 400 malformed, 412 stale); instantiation also needs projects:write.
 */
@Controller()
export class ProjectTemplatesController {
  constructor(@Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext) {}

  /** The inputs of an If-Match write: the path id, the parsed `If-Match` and the caller. */
  private static guarded(auth: V1AuthContext, input: OperationInput<Id>, request: FastifyRequest) {
    return { id: input.path.id, expectedRevision: expectedRevisionFrom(request.headers['if-match']), auth, requestId: request.id };
  }

  @Operation('listProjectTemplates')
  async listProjectTemplates(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listProjectTemplates, this.ctx, { auth, ...input.query });
    return list(page.items, page, request);
  }

  @Operation('createProjectTemplate')
  async createProjectTemplate(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const created = await invoke(createProjectTemplate, this.ctx, { ...(input.body as object), auth, requestId: request.id });
    reply.header('location', `/v1/project-templates/${created.resource.id}`);
    return versioned(reply, created);
  }

  @Operation('getProjectTemplate')
  async getProjectTemplate(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(getProjectTemplate, this.ctx, { auth, id: input.path.id }));
  }

  @Operation('updateProjectTemplate')
  async updateProjectTemplate(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(updateProjectTemplate, this.ctx, { ...(input.body as object), ...ProjectTemplatesController.guarded(auth, input, request) }));
  }

  @Operation('archiveProjectTemplate')
  async archiveProjectTemplate(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest): Promise<void> {
    await invoke(archiveProjectTemplate, this.ctx, ProjectTemplatesController.guarded(auth, input, request));
  }

  @Operation('restoreProjectTemplate')
  async restoreProjectTemplate(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(restoreProjectTemplate, this.ctx, ProjectTemplatesController.guarded(auth, input, request)));
  }

  @Operation('instantiateProjectTemplate')
  async instantiateProjectTemplate(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const project = await invoke(instantiateProjectTemplate, this.ctx, { ...(input.body as object), id: input.path.id, auth, requestId: request.id });
    reply.header('location', `/v1/projects/${project.id}`);
    return revisioned(reply, project);
  }
}
