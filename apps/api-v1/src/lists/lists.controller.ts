import { Controller, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Op } from '@workcell/auth-kit';
import { archiveList, createList, getList, invoke, listLists, restoreList, updateList } from '@workcell/domain';
import { Input, list, Operation, type OperationInput, versioned } from '@workcell/http';

type Id = { id: string };

/** Lists (contract 2, scopes lists:*); updates carry no precondition (last writer wins), as the registry declares. */
@Controller()
export class ListsController {
  @Operation('listLists')
  async listLists(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listLists, op, { ...input.query });
    return list(page.items, page, request);
  }

  @Operation('createList')
  async createList(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const created = await invoke(createList, op, { ...(input.body as object) });
    reply.header('location', `/v1/lists/${created.resource.id}`);
    return versioned(reply, created);
  }

  @Operation('getList')
  async getList(@Op() op: Op, @Input() input: OperationInput<Id>, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(getList, op, { id: input.path.id }));
  }

  @Operation('updateList')
  async updateList(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(updateList, op, { ...(input.body as object), id: input.path.id }));
  }

  @Operation('archiveList')
  async archiveList(@Op() op: Op, @Input() input: OperationInput<Id>): Promise<void> {
    await invoke(archiveList, op, { id: input.path.id });
  }

  @Operation('restoreList')
  async restoreList(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(restoreList, op, { id: input.path.id }));
  }
}
