import { Controller, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Op } from '@workcell/auth-kit';
import {
  archiveProjectTemplate,
  createProjectTemplate,
  getProjectTemplate,
  instantiateProjectTemplate,
  invoke,
  listProjectTemplates,
  restoreProjectTemplate,
  updateProjectTemplate,
} from '@workcell/domain';
import { expectedRevisionFrom, Input, list, Operation, type OperationInput, revisioned, versioned } from '@workcell/http';

type Id = { id: string };

/**
 * Project templates (contract 2, scopes project-templates:*). Update, archive and restore need the strong
 * revision in `If-Match` (428 missing, 400 malformed, 412 stale); instantiation also needs projects:write.
 */
@Controller()
export class ProjectTemplatesController {
  /** The inputs of an If-Match write: the path id, the parsed `If-Match` and the caller. */
  private static guarded(input: OperationInput<Id>, request: FastifyRequest) {
    return { id: input.path.id, expectedRevision: expectedRevisionFrom(request.headers['if-match']) };
  }

  @Operation('listProjectTemplates')
  async listProjectTemplates(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listProjectTemplates, op, { ...input.query });
    return list(page.items, page, request);
  }

  @Operation('createProjectTemplate')
  async createProjectTemplate(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const created = await invoke(createProjectTemplate, op, { ...(input.body as object) });
    reply.header('location', `/v1/project-templates/${created.resource.id}`);
    return versioned(reply, created);
  }

  @Operation('getProjectTemplate')
  async getProjectTemplate(@Op() op: Op, @Input() input: OperationInput<Id>, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(getProjectTemplate, op, { id: input.path.id }));
  }

  @Operation('updateProjectTemplate')
  async updateProjectTemplate(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(updateProjectTemplate, op, { ...(input.body as object), ...ProjectTemplatesController.guarded(input, request) }));
  }

  @Operation('archiveProjectTemplate')
  async archiveProjectTemplate(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest): Promise<void> {
    await invoke(archiveProjectTemplate, op, ProjectTemplatesController.guarded(input, request));
  }

  @Operation('restoreProjectTemplate')
  async restoreProjectTemplate(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(restoreProjectTemplate, op, ProjectTemplatesController.guarded(input, request)));
  }

  @Operation('instantiateProjectTemplate')
  async instantiateProjectTemplate(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const project = await invoke(instantiateProjectTemplate, op, { ...(input.body as object), id: input.path.id });
    reply.header('location', `/v1/projects/${project.id}`);
    return revisioned(reply, project);
  }
}
