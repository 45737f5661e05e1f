import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { V1Auth } from '@workcell/auth-kit';
import { archiveTag, createTag, getTag, invoke, listTags, type ProcedureContext, restoreTag, updateTag, type V1AuthContext } from '@workcell/domain';
import { Input, list, Operation, type OperationInput, PROCEDURE_CONTEXT, versioned } from '@workcell/http';

type Id = { id: string };

/** Tags (contract 2, scopes tags:*); updates carry no precondition (last writer wins), as the registry declares. */
@Controller()
export class TagsController {
  constructor(@Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext) {}

  @Operation('listTags')
  async listTags(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listTags, this.ctx, { auth, ...input.query });
    return list(page.items, page, request);
  }

  @Operation('createTag')
  async createTag(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const created = await invoke(createTag, this.ctx, { ...(input.body as object), auth, requestId: request.id });
    reply.header('location', `/v1/tags/${created.resource.id}`);
    return versioned(reply, created);
  }

  @Operation('getTag')
  async getTag(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(getTag, this.ctx, { auth, id: input.path.id }));
  }

  @Operation('updateTag')
  async updateTag(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(updateTag, this.ctx, { ...(input.body as object), id: input.path.id, auth, requestId: request.id }));
  }

  @Operation('archiveTag')
  async archiveTag(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest): Promise<void> {
    await invoke(archiveTag, this.ctx, { id: input.path.id, auth, requestId: request.id });
  }

  @Operation('restoreTag')
  async restoreTag(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(restoreTag, this.ctx, { id: input.path.id, auth, requestId: request.id }));
  }
}
