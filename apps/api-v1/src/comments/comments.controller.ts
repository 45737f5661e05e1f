import { Controller, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Op } from '@workcell/auth-kit';
import { createComment, deleteComment, getComment, invoke, listComments, updateComment } from '@workcell/domain';
import { Input, list, Operation, type OperationInput, versioned } from '@workcell/http';

type Id = { id: string };

/**
 * Comments on contacts, projects and tasks (scopes comments:* plus the target type's read scope, enforced by the
 * procedures: registry `dynamicScopes: 'target-resource'`). Edits and deletes carry no precondition, as the
 * registry declares.
 */
@Controller()
export class CommentsController {
  @Operation('listComments')
  async listComments(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listComments, op, { ...input.query });
    return list(page.items, page, request);
  }

  @Operation('createComment')
  async createComment(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const created = await invoke(createComment, op, { ...(input.body as object) });
    reply.header('location', `/v1/comments/${created.resource.id}`);
    return versioned(reply, created);
  }

  @Operation('getComment')
  async getComment(@Op() op: Op, @Input() input: OperationInput<Id>, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(getComment, op, { id: input.path.id }));
  }

  @Operation('updateComment')
  async updateComment(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(updateComment, op, { ...(input.body as object), id: input.path.id }));
  }

  @Operation('deleteComment')
  async deleteComment(@Op() op: Op, @Input() input: OperationInput<Id>): Promise<void> {
    await invoke(deleteComment, op, { id: input.path.id });
  }
}
