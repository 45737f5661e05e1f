import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { V1Auth } from '@workcell/auth-kit';
import { archiveDocument, createDocument, getDocument, invoke, listDocuments, type ProcedureContext, restoreDocument, updateDocument, type V1AuthContext } from '@workcell/domain';
import { Input, list, Operation, type OperationInput, PROCEDURE_CONTEXT, versioned } from '@workcell/http';

type Id = { id: string };

/** Documents (scopes documents:*; content bounded, over the bound 413); updates are compare-and-set. */
@Controller()
export class DocumentsController {
  constructor(@Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext) {}

  @Operation('listDocuments')
  async listDocuments(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listDocuments, this.ctx, { auth, ...input.query });
    return list(page.items, page, request);
  }

  @Operation('createDocument')
  async createDocument(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const created = await invoke(createDocument, this.ctx, { ...(input.body as object), auth, requestId: request.id });
    reply.header('location', `/v1/documents/${created.resource.id}`);
    return versioned(reply, created);
  }

  @Operation('getDocument')
  async getDocument(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(getDocument, this.ctx, { auth, id: input.path.id }));
  }

  @Operation('updateDocument')
  async updateDocument(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(updateDocument, this.ctx, { ...(input.body as object), id: input.path.id, auth, requestId: request.id }));
  }

  @Operation('archiveDocument')
  async archiveDocument(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest): Promise<void> {
    await invoke(archiveDocument, this.ctx, { id: input.path.id, auth, requestId: request.id });
  }

  @Operation('restoreDocument')
  async restoreDocument(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(restoreDocument, this.ctx, { id: input.path.id, auth, requestId: request.id }));
  }
}
