import { Controller, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Op } from '@workcell/auth-kit';
import { archiveTag, createTag, getTag, invoke, listTags, restoreTag, updateTag } from '@workcell/domain';
import { Input, list, Operation, type OperationInput, versioned } from '@workcell/http';

type Id = { id: string };

/** Tags (contract 2, scopes tags:*); updates carry no precondition (last writer wins), as the registry declares. */
@Controller()
export class TagsController {
  @Operation('listTags')
  async listTags(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listTags, op, { ...input.query });
    return list(page.items, page, request);
  }

  @Operation('createTag')
  async createTag(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const created = await invoke(createTag, op, { ...(input.body as object) });
    reply.header('location', `/v1/tags/${created.resource.id}`);
    return versioned(reply, created);
  }

  @Operation('getTag')
  async getTag(@Op() op: Op, @Input() input: OperationInput<Id>, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(getTag, op, { id: input.path.id }));
  }

  @Operation('updateTag')
  async updateTag(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(updateTag, op, { ...(input.body as object), id: input.path.id }));
  }

  @Operation('archiveTag')
  async archiveTag(@Op() op: Op, @Input() input: OperationInput<Id>): Promise<void> {
    await invoke(archiveTag, op, { id: input.path.id });
  }

  @Operation('restoreTag')
  async restoreTag(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(restoreTag, op, { id: input.path.id }));
  }
}
