import { Op } from '@workcell/auth-kit';
import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { archiveList, createList, DomainError, getList, invoke, listLists, type ProcedureContext, updateList } from '@workcell/domain';
import { Input, LegacyOperation, type OperationInput, PROCEDURE_CONTEXT } from '@workcell/http';
import { bodyAliasId, currentResource, legacyPage, pick, seekOf, toLegacy } from '../legacy/resources.js';

type Page = { page?: number; limit?: number };
const CREATE = ['name', 'kind', 'position', 'color'];
/** The kind never changes (v1 ListUpdate); a v0 PUT ignores it like any other undeclared field. */
const UPDATE = ['name', 'position', 'color'];

/** v0 lists over the v1 list procedures (same rows, same ids); v1 declares no precondition, so the last writer wins. */
@Controller()
export class ListsController {
  constructor(@Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext) {}

  @LegacyOperation('legacyGetLists')
  async list(@Op() op: Op, @Input() input: OperationInput<Record<string, string>, Page>) {
    return (
      await legacyPage(
        this.ctx,
        input.query,
        (cursor, limit) => invoke(listLists, op, { limit, ...(cursor === undefined ? {} : { cursor }) }),
        seekOf(this.ctx, op.auth.workspaceId, 'lists', 'listLists', { kind: null }),
      )
    ).map(toLegacy);
  }

  @LegacyOperation('legacyGetListsById')
  async get(@Op() op: Op, @Input() input: OperationInput<{ _id: string }>) {
    return toLegacy(await currentResource(op, getList, input.path._id, 'list'));
  }

  @LegacyOperation('legacyPostLists')
  async create(@Op() op: Op, @Input() input: OperationInput, @Res({ passthrough: true }) reply: FastifyReply) {
    const { resource } = await invoke(createList, op, { ...pick(input.body, CREATE) });
    void reply.status(201);
    return toLegacy(resource);
  }

  @LegacyOperation('legacyPutListsById')
  async update(@Op() op: Op, @Input() input: OperationInput<{ _id: string }>) {
    return this.write(op, input.path._id, input.body);
  }

  @LegacyOperation('legacyPutLists')
  async updateByBody(@Op() op: Op, @Input() input: OperationInput) {
    return this.write(op, bodyAliasId(input.body), input.body);
  }

  private async write(op: Op, id: string, body: unknown) {
    const attributes = pick(body, UPDATE);
    // As v1 ListUpdate (minProperties 1): a PUT that changes nothing is a mistake, not a no-op write.
    if (Object.keys(attributes).length === 0) throw new DomainError('validation_failed', 'send at least one attribute', [{ pointer: '', message: `send at least one of ${UPDATE.join(', ')}` }]);
    const current = await currentResource(op, getList, id, 'list');
    const { resource } = await invoke(updateList, op, { id: current.id, ...attributes });
    return toLegacy(resource);
  }

  @LegacyOperation('legacyDeleteListsById')
  async remove(@Op() op: Op, @Input() input: OperationInput<{ _id: string }>, @Res({ passthrough: true }) reply: FastifyReply) {
    await this.archive(op, input.path._id);
    void reply.status(204);
  }

  @LegacyOperation('legacyDeleteLists')
  async removeByBody(@Op() op: Op, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    await this.archive(op, bodyAliasId(request.body));
    void reply.status(204);
  }

  private async archive(op: Op, id: string): Promise<void> {
    const current = await currentResource(op, getList, id, 'list');
    await invoke(archiveList, op, { id: current.id });
  }
}
