import { Op } from '@workcell/auth-kit';
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
import { bodyAliasId, currentResource, lastWriterWins, legacyPage, pick, seekOf, toLegacy } from '../legacy/resources.js';

type Page = { page?: number; limit?: number };
type PathId = { _id: string };
const PRODUCT = ['name', 'description', 'sku', 'unit', 'salesPrice', 'purchasePrice', 'productGroupId'];
const PRODUCT_GROUP = ['name', 'parentId'];
const since = (cursor: string | undefined) => (cursor === undefined ? {} : { cursor });

/**
 * v0 products and product groups over the v1 procedures (same rows, same ids). v0 has no scopes (contract 5.1:
 * a team token may use every v0 operation of its team), so its frozen broad shape keeps purchasePrice: the
 * op context holds the products finance overlay for reads and writes. Writes are last-writer-wins.
 */
@Controller()
export class ProductsController {
  constructor(@Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext) {}

  private finance(op: Op): Op {
    return { ...op, auth: { ...op.auth, effectiveScopes: [PRODUCTS_FINANCE_READ, PRODUCTS_FINANCE_WRITE] } };
  }

  @LegacyOperation('legacyGetProducts')
  async listProducts(@Op() caller: Op, @Input() input: OperationInput<Record<string, string>, Page>) {
    const op = this.finance(caller);
    return (
      await legacyPage(
        this.ctx,
        input.query,
        (cursor, limit) => invoke(listProducts, op, { limit, ...since(cursor) }),
        seekOf(this.ctx, op.auth.workspaceId, 'products', 'listProducts', { productGroupId: null }),
      )
    ).map(toLegacy);
  }

  @LegacyOperation('legacyGetProductsById')
  async getProduct(@Op() op: Op, @Input() input: OperationInput<PathId>) {
    return toLegacy(await currentResource(this.finance(op), getProduct, input.path._id, 'product'));
  }

  @LegacyOperation('legacyPostProducts')
  async createProduct(@Op() caller: Op, @Input() input: OperationInput, @Res({ passthrough: true }) reply: FastifyReply) {
    const op = this.finance(caller);
    const { resource } = await invoke(createProduct, op, { ...pick(input.body, PRODUCT) });
    void reply.status(201);
    return toLegacy(resource);
  }

  @LegacyOperation('legacyPutProductsById')
  async updateProduct(@Op() op: Op, @Input() input: OperationInput<PathId>) {
    return this.writeProduct(op, input.path._id, input.body);
  }

  @LegacyOperation('legacyPutProducts')
  async updateProductByBody(@Op() op: Op, @Input() input: OperationInput) {
    return this.writeProduct(op, bodyAliasId(input.body), input.body);
  }

  private async writeProduct(caller: Op, id: string, body: unknown) {
    const op = this.finance(caller);
    const { resource } = await lastWriterWins(id, async () => {
      const current = await currentResource(op, getProduct, id, 'product');
      return invoke(updateProduct, op, { id: current.id, expectedVersion: current.version, ...pick(body, PRODUCT) });
    });
    return toLegacy(resource);
  }

  @LegacyOperation('legacyDeleteProductsById')
  async deleteProduct(@Op() op: Op, @Input() input: OperationInput<PathId>, @Res({ passthrough: true }) reply: FastifyReply) {
    await this.archiveProduct(op, input.path._id);
    void reply.status(204);
  }

  @LegacyOperation('legacyDeleteProducts')
  async deleteProductByBody(@Op() op: Op, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    await this.archiveProduct(op, bodyAliasId(request.body));
    void reply.status(204);
  }

  private async archiveProduct(caller: Op, id: string): Promise<void> {
    const op = this.finance(caller);
    const current = await currentResource(op, getProduct, id, 'product');
    await invoke(archiveProduct, op, { id: current.id });
  }

  @LegacyOperation('legacyGetProductgroups')
  async listGroups(@Op() caller: Op, @Input() input: OperationInput<Record<string, string>, Page>) {
    const op = this.finance(caller);
    return (
      await legacyPage(
        this.ctx,
        input.query,
        (cursor, limit) => invoke(listProductGroups, op, { limit, ...since(cursor) }),
        seekOf(this.ctx, op.auth.workspaceId, 'productGroups', 'listProductGroups', { parentId: null }),
      )
    ).map(toLegacy);
  }

  @LegacyOperation('legacyGetProductgroupsById')
  async getGroup(@Op() op: Op, @Input() input: OperationInput<PathId>) {
    return toLegacy(await currentResource(this.finance(op), getProductGroup, input.path._id, 'product group'));
  }

  @LegacyOperation('legacyPostProductgroups')
  async createGroup(@Op() caller: Op, @Input() input: OperationInput, @Res({ passthrough: true }) reply: FastifyReply) {
    const op = this.finance(caller);
    const { resource } = await invoke(createProductGroup, op, { ...pick(input.body, PRODUCT_GROUP) });
    void reply.status(201);
    return toLegacy(resource);
  }

  @LegacyOperation('legacyPutProductgroupsById')
  async updateGroup(@Op() op: Op, @Input() input: OperationInput<PathId>) {
    return this.writeGroup(op, input.path._id, input.body);
  }

  @LegacyOperation('legacyPutProductgroups')
  async updateGroupByBody(@Op() op: Op, @Input() input: OperationInput) {
    return this.writeGroup(op, bodyAliasId(input.body), input.body);
  }

  private async writeGroup(caller: Op, id: string, body: unknown) {
    const op = this.finance(caller);
    const { resource } = await lastWriterWins(id, async () => {
      const current = await currentResource(op, getProductGroup, id, 'product group');
      return invoke(updateProductGroup, op, { id: current.id, expectedVersion: current.version, ...pick(body, PRODUCT_GROUP) });
    });
    return toLegacy(resource);
  }

  @LegacyOperation('legacyDeleteProductgroupsById')
  async deleteGroup(@Op() op: Op, @Input() input: OperationInput<PathId>, @Res({ passthrough: true }) reply: FastifyReply) {
    await this.archiveGroup(op, input.path._id);
    void reply.status(204);
  }

  @LegacyOperation('legacyDeleteProductgroups')
  async deleteGroupByBody(@Op() op: Op, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    await this.archiveGroup(op, bodyAliasId(request.body));
    void reply.status(204);
  }

  private async archiveGroup(caller: Op, id: string): Promise<void> {
    const op = this.finance(caller);
    const current = await currentResource(op, getProductGroup, id, 'product group');
    await invoke(archiveProductGroup, op, { id: current.id });
  }
}
