import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { V1Auth } from '@workcell/auth-kit';
import { archiveProduct, createProduct, getProduct, invoke, listProducts, type ProcedureContext, restoreProduct, updateProduct, type V1AuthContext } from '@workcell/domain';
import { Input, list, Operation, type OperationInput, PROCEDURE_CONTEXT, versioned } from '@workcell/http';

type Id = { id: string };

/** Products (scopes products:*; purchasePrice is the products:finance:* overlay); updates are compare-and-set. */
@Controller()
export class ProductsController {
  constructor(@Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext) {}

  @Operation('listProducts')
  async listProducts(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listProducts, this.ctx, { auth, ...input.query });
    return list(page.items, page, request);
  }

  @Operation('createProduct')
  async createProduct(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const created = await invoke(createProduct, this.ctx, { ...(input.body as object), auth, requestId: request.id });
    reply.header('location', `/v1/products/${created.resource.id}`);
    return versioned(reply, created);
  }

  @Operation('getProduct')
  async getProduct(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(getProduct, this.ctx, { auth, id: input.path.id }));
  }

  @Operation('updateProduct')
  async updateProduct(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(updateProduct, this.ctx, { ...(input.body as object), id: input.path.id, auth, requestId: request.id }));
  }

  @Operation('archiveProduct')
  async archiveProduct(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest): Promise<void> {
    await invoke(archiveProduct, this.ctx, { id: input.path.id, auth, requestId: request.id });
  }

  @Operation('restoreProduct')
  async restoreProduct(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(restoreProduct, this.ctx, { id: input.path.id, auth, requestId: request.id }));
  }
}
