import { Controller, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Op } from '@workcell/auth-kit';
import { archiveDocument, createDocument, getDocument, invoke, listDocuments, restoreDocument, updateDocument } from '@workcell/domain';
import { Input, list, Operation, type OperationInput, versioned } from '@workcell/http';

type Id = { id: string };

/** Documents (scopes documents:*; content bounded, over the bound 413); updates are compare-and-set. */
@Controller()
export class DocumentsController {
  @Operation('listDocuments')
  async listDocuments(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listDocuments, op, { ...input.query });
    return list(page.items, page, request);
  }

  @Operation('createDocument')
  async createDocument(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const created = await invoke(createDocument, op, { ...(input.body as object) });
    reply.header('location', `/v1/documents/${created.resource.id}`);
    return versioned(reply, created);
  }

  @Operation('getDocument')
  async getDocument(@Op() op: Op, @Input() input: OperationInput<Id>, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(getDocument, op, { id: input.path.id }));
  }

  @Operation('updateDocument')
  async updateDocument(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(updateDocument, op, { ...(input.body as object), id: input.path.id }));
  }

  @Operation('archiveDocument')
  async archiveDocument(@Op() op: Op, @Input() input: OperationInput<Id>): Promise<void> {
    await invoke(archiveDocument, op, { id: input.path.id });
  }

  @Operation('restoreDocument')
  async restoreDocument(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(restoreDocument, op, { id: input.path.id }));
  }
}
