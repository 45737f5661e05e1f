import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { V1Auth } from '@workcell/auth-kit';
import { archiveList, createList, getList, invoke, listLists, type ProcedureContext, restoreList, updateList, type V1AuthContext } from '@workcell/domain';
import { Input, list, Operation, type OperationInput, PROCEDURE_CONTEXT, versioned } from '@workcell/http';

type Id = { id: string };

/** Lists (contract 2, scopes lists:*); updates carry no precondition (last writer wins), as the registry declares. */
@Controller()
export class ListsController {
  constructor(@Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext) {}

  @Operation('listLists')
  async listLists(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listLists, this.ctx, { auth, ...input.query });
    return list(page.items, page, request);
  }

  @Operation('createList')
  async createList(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const created = await invoke(createList, this.ctx, { ...(input.body as object), auth, requestId: request.id });
    reply.header('location', `/v1/lists/${created.resource.id}`);
    return versioned(reply, created);
  }

  @Operation('getList')
  async getList(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(getList, this.ctx, { auth, id: input.path.id }));
  }

  @Operation('updateList')
  async updateList(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(updateList, this.ctx, { ...(input.body as object), id: input.path.id, auth, requestId: request.id }));
  }

  @Operation('archiveList')
  async archiveList(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest): Promise<void> {
    await invoke(archiveList, this.ctx, { id: input.path.id, auth, requestId: request.id });
  }

  @Operation('restoreList')
  async restoreList(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(restoreList, this.ctx, { id: input.path.id, auth, requestId: request.id }));
  }
}
