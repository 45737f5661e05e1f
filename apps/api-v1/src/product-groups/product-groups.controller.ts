import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { V1Auth } from '@workcell/auth-kit';
import {
  archiveProductGroup,
  createProductGroup,
  getProductGroup,
  invoke,
  listProductGroups,
  type ProcedureContext,
  restoreProductGroup,
  updateProductGroup,
  type V1AuthContext,
} from '@workcell/domain';
import { Input, list, Operation, type OperationInput, PROCEDURE_CONTEXT, versioned } from '@workcell/http';

type Id = { id: string };

/** Hierarchical product groups (scopes product-groups:*); updates are compare-and-set, re-parenting never forms a cycle. */
@Controller()
export class ProductGroupsController {
  constructor(@Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext) {}

  @Operation('listProductGroups')
  async listProductGroups(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listProductGroups, this.ctx, { auth, ...input.query });
    return list(page.items, page, request);
  }

  @Operation('createProductGroup')
  async createProductGroup(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const created = await invoke(createProductGroup, this.ctx, { ...(input.body as object), auth, requestId: request.id });
    reply.header('location', `/v1/product-groups/${created.resource.id}`);
    return versioned(reply, created);
  }

  @Operation('getProductGroup')
  async getProductGroup(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(getProductGroup, this.ctx, { auth, id: input.path.id }));
  }

  @Operation('updateProductGroup')
  async updateProductGroup(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(updateProductGroup, this.ctx, { ...(input.body as object), id: input.path.id, auth, requestId: request.id }));
  }

  @Operation('archiveProductGroup')
  async archiveProductGroup(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest): Promise<void> {
    await invoke(archiveProductGroup, this.ctx, { id: input.path.id, auth, requestId: request.id });
  }

  @Operation('restoreProductGroup')
  async restoreProductGroup(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(restoreProductGroup, this.ctx, { id: input.path.id, auth, requestId: request.id }));
  }
}
