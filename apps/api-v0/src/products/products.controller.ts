import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  archiveProduct,
  archiveProductGroup,
  createProduct,
  createProductGroup,
  getProduct,
  getProductGroup,
  invoke,
  listProductGroups,
  listProducts,
  type ProcedureContext,
  PRODUCTS_FINANCE_READ,
  PRODUCTS_FINANCE_WRITE,
  updateProduct,
  updateProductGroup,
} from '@workcell/domain';
import { Input, LegacyOperation, type OperationInput, PROCEDURE_CONTEXT } from '@workcell/http';
import { type Acting, V0Acting } from '../legacy/acting.js';
import { bodyAliasId, currentResource, lastWriterWins, legacyPage, pick, seekOf, toLegacy } from '../legacy/resources.js';

type Page = { page?: number; limit?: number };
type PathId = { _id: string };
const PRODUCT = ['name', 'description', 'sku', 'unit', 'salesPrice', 'purchasePrice', 'productGroupId'];
const PRODUCT_GROUP = ['name', 'parentId'];
const since = (cursor: string | undefined) => (cursor === undefined ? {} : { cursor });

/**
 * v0 products and product groups over the v1 procedures (same rows, same ids). v0 has no scopes (contract 5.1:
 * a team token may use every v0 operation of its team), so its frozen broad shape keeps purchasePrice: the
 * acting context holds the products finance overlay for reads and writes. Writes are last-writer-wins.
 */
@Controller()
export class ProductsController {
  constructor(@Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext) {}

  private finance(acting: Acting) {
    return { ...acting, auth: { ...acting.auth, effectiveScopes: [PRODUCTS_FINANCE_READ, PRODUCTS_FINANCE_WRITE] } };
  }

  @LegacyOperation('legacyGetProducts')
  async listProducts(@V0Acting() caller: Acting, @Input() input: OperationInput<Record<string, string>, Page>) {
    const acting = this.finance(caller);
    return (
      await legacyPage(
        this.ctx,
        input.query,
        (cursor, limit) => invoke(listProducts, this.ctx, { auth: acting.auth, limit, ...since(cursor) }),
        seekOf(this.ctx, acting.auth.workspaceId, 'products', 'listProducts', { productGroupId: null }),
      )
    ).map(toLegacy);
  }

  @LegacyOperation('legacyGetProductsById')
  async getProduct(@V0Acting() acting: Acting, @Input() input: OperationInput<PathId>) {
    return toLegacy(await currentResource(this.ctx, getProduct, this.finance(acting).auth, input.path._id, 'product'));
  }

  @LegacyOperation('legacyPostProducts')
  async createProduct(@V0Acting() caller: Acting, @Input() input: OperationInput, @Res({ passthrough: true }) reply: FastifyReply) {
    const acting = this.finance(caller);
    const { resource } = await invoke(createProduct, this.ctx, { auth: acting.auth, requestId: acting.requestId, ...pick(input.body, PRODUCT) });
    void reply.status(201);
    return toLegacy(resource);
  }

  @LegacyOperation('legacyPutProductsById')
  async updateProduct(@V0Acting() acting: Acting, @Input() input: OperationInput<PathId>) {
    return this.writeProduct(acting, input.path._id, input.body);
  }

  @LegacyOperation('legacyPutProducts')
  async updateProductByBody(@V0Acting() acting: Acting, @Input() input: OperationInput) {
    return this.writeProduct(acting, bodyAliasId(input.body), input.body);
  }

  private async writeProduct(caller: Acting, id: string, body: unknown) {
    const acting = this.finance(caller);
    const { resource } = await lastWriterWins(id, async () => {
      const current = await currentResource(this.ctx, getProduct, acting.auth, id, 'product');
      return invoke(updateProduct, this.ctx, { auth: acting.auth, requestId: acting.requestId, id: current.id, expectedVersion: current.version, ...pick(body, PRODUCT) });
    });
    return toLegacy(resource);
  }

  @LegacyOperation('legacyDeleteProductsById')
  async deleteProduct(@V0Acting() acting: Acting, @Input() input: OperationInput<PathId>, @Res({ passthrough: true }) reply: FastifyReply) {
    await this.archiveProduct(acting, input.path._id);
    void reply.status(204);
  }

  @LegacyOperation('legacyDeleteProducts')
  async deleteProductByBody(@V0Acting() acting: Acting, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    await this.archiveProduct(acting, bodyAliasId(request.body));
    void reply.status(204);
  }

  private async archiveProduct(caller: Acting, id: string): Promise<void> {
    const acting = this.finance(caller);
    const current = await currentResource(this.ctx, getProduct, acting.auth, id, 'product');
    await invoke(archiveProduct, this.ctx, { auth: acting.auth, requestId: acting.requestId, id: current.id });
  }

  @LegacyOperation('legacyGetProductgroups')
  async listGroups(@V0Acting() caller: Acting, @Input() input: OperationInput<Record<string, string>, Page>) {
    const acting = this.finance(caller);
    return (
      await legacyPage(
        this.ctx,
        input.query,
        (cursor, limit) => invoke(listProductGroups, this.ctx, { auth: acting.auth, limit, ...since(cursor) }),
        seekOf(this.ctx, acting.auth.workspaceId, 'productGroups', 'listProductGroups', { parentId: null }),
      )
    ).map(toLegacy);
  }

  @LegacyOperation('legacyGetProductgroupsById')
  async getGroup(@V0Acting() acting: Acting, @Input() input: OperationInput<PathId>) {
    return toLegacy(await currentResource(this.ctx, getProductGroup, this.finance(acting).auth, input.path._id, 'product group'));
  }

  @LegacyOperation('legacyPostProductgroups')
  async createGroup(@V0Acting() caller: Acting, @Input() input: OperationInput, @Res({ passthrough: true }) reply: FastifyReply) {
    const acting = this.finance(caller);
    const { resource } = await invoke(createProductGroup, this.ctx, { auth: acting.auth, requestId: acting.requestId, ...pick(input.body, PRODUCT_GROUP) });
    void reply.status(201);
    return toLegacy(resource);
  }

  @LegacyOperation('legacyPutProductgroupsById')
  async updateGroup(@V0Acting() acting: Acting, @Input() input: OperationInput<PathId>) {
    return this.writeGroup(acting, input.path._id, input.body);
  }

  @LegacyOperation('legacyPutProductgroups')
  async updateGroupByBody(@V0Acting() acting: Acting, @Input() input: OperationInput) {
    return this.writeGroup(acting, bodyAliasId(input.body), input.body);
  }

  private async writeGroup(caller: Acting, id: string, body: unknown) {
    const acting = this.finance(caller);
    const { resource } = await lastWriterWins(id, async () => {
      const current = await currentResource(this.ctx, getProductGroup, acting.auth, id, 'product group');
      return invoke(updateProductGroup, this.ctx, { auth: acting.auth, requestId: acting.requestId, id: current.id, expectedVersion: current.version, ...pick(body, PRODUCT_GROUP) });
    });
    return toLegacy(resource);
  }

  @LegacyOperation('legacyDeleteProductgroupsById')
  async deleteGroup(@V0Acting() acting: Acting, @Input() input: OperationInput<PathId>, @Res({ passthrough: true }) reply: FastifyReply) {
    await this.archiveGroup(acting, input.path._id);
    void reply.status(204);
  }

  @LegacyOperation('legacyDeleteProductgroups')
  async deleteGroupByBody(@V0Acting() acting: Acting, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    await this.archiveGroup(acting, bodyAliasId(request.body));
    void reply.status(204);
  }

  private async archiveGroup(caller: Acting, id: string): Promise<void> {
    const acting = this.finance(caller);
    const current = await currentResource(this.ctx, getProductGroup, acting.auth, id, 'product group');
    await invoke(archiveProductGroup, this.ctx, { auth: acting.auth, requestId: acting.requestId, id: current.id });
  }
}
