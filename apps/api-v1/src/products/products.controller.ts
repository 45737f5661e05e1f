import { Controller, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Op } from '@workcell/auth-kit';
import { archiveProduct, createProduct, getProduct, invoke, listProducts, restoreProduct, updateProduct } from '@workcell/domain';
import { Input, list, Operation, type OperationInput, versioned } from '@workcell/http';

type Id = { id: string };

/** Products (scopes products:*; purchasePrice is the products:finance:* overlay); updates are compare-and-set. */
@Controller()
export class ProductsController {
  @Operation('listProducts')
  async listProducts(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listProducts, op, { ...input.query });
    return list(page.items, page, request);
  }

  @Operation('createProduct')
  async createProduct(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const created = await invoke(createProduct, op, { ...(input.body as object) });
    reply.header('location', `/v1/products/${created.resource.id}`);
    return versioned(reply, created);
  }

  @Operation('getProduct')
  async getProduct(@Op() op: Op, @Input() input: OperationInput<Id>, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(getProduct, op, { id: input.path.id }));
  }

  @Operation('updateProduct')
  async updateProduct(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(updateProduct, op, { ...(input.body as object), id: input.path.id }));
  }

  @Operation('archiveProduct')
  async archiveProduct(@Op() op: Op, @Input() input: OperationInput<Id>): Promise<void> {
    await invoke(archiveProduct, op, { id: input.path.id });
  }

  @Operation('restoreProduct')
  async restoreProduct(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(restoreProduct, op, { id: input.path.id }));
  }
}
