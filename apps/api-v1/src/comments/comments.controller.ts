import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { V1Auth } from '@workcell/auth-kit';
import { createComment, deleteComment, getComment, invoke, listComments, type ProcedureContext, updateComment, type V1AuthContext } from '@workcell/domain';
import { Input, list, Operation, type OperationInput, PROCEDURE_CONTEXT, versioned } from '@workcell/http';

type Id = { id: string };

/**
 * Comments on contacts, projects and tasks (scopes comments:* plus the target type's read scope, enforced by the
 * procedures: registry `dynamicScopes: 'target-resource'`). Edits and deletes carry no precondition, as the
 * registry declares.
 */
@Controller()
export class CommentsController {
  constructor(@Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext) {}

  @Operation('listComments')
  async listComments(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listComments, this.ctx, { auth, ...input.query });
    return list(page.items, page, request);
  }

  @Operation('createComment')
  async createComment(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const created = await invoke(createComment, this.ctx, { ...(input.body as object), auth, requestId: request.id });
    reply.header('location', `/v1/comments/${created.resource.id}`);
    return versioned(reply, created);
  }

  @Operation('getComment')
  async getComment(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(getComment, this.ctx, { auth, id: input.path.id }));
  }

  @Operation('updateComment')
  async updateComment(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(updateComment, this.ctx, { ...(input.body as object), id: input.path.id, auth, requestId: request.id }));
  }

  @Operation('deleteComment')
  async deleteComment(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest): Promise<void> {
    await invoke(deleteComment, this.ctx, { id: input.path.id, auth, requestId: request.id });
  }
}
