import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { archiveList, createList, DomainError, getList, invoke, listLists, type ProcedureContext, updateList } from '@workcell/domain';
import { Input, LegacyOperation, type OperationInput, PROCEDURE_CONTEXT } from '@workcell/http';
import { type Acting, V0Acting } from '../legacy/acting.js';
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
  async list(@V0Acting() acting: Acting, @Input() input: OperationInput<Record<string, string>, Page>) {
    return (
      await legacyPage(
        this.ctx,
        input.query,
        (cursor, limit) => invoke(listLists, this.ctx, { auth: acting.auth, limit, ...(cursor === undefined ? {} : { cursor }) }),
        seekOf(this.ctx, acting.auth.workspaceId, 'lists', 'listLists', { kind: null }),
      )
    ).map(toLegacy);
  }

  @LegacyOperation('legacyGetListsById')
  async get(@V0Acting() acting: Acting, @Input() input: OperationInput<{ _id: string }>) {
    return toLegacy(await currentResource(this.ctx, getList, acting.auth, input.path._id, 'list'));
  }

  @LegacyOperation('legacyPostLists')
  async create(@V0Acting() acting: Acting, @Input() input: OperationInput, @Res({ passthrough: true }) reply: FastifyReply) {
    const { resource } = await invoke(createList, this.ctx, { auth: acting.auth, requestId: acting.requestId, ...pick(input.body, CREATE) });
    void reply.status(201);
    return toLegacy(resource);
  }

  @LegacyOperation('legacyPutListsById')
  async update(@V0Acting() acting: Acting, @Input() input: OperationInput<{ _id: string }>) {
    return this.write(acting, input.path._id, input.body);
  }

  @LegacyOperation('legacyPutLists')
  async updateByBody(@V0Acting() acting: Acting, @Input() input: OperationInput) {
    return this.write(acting, bodyAliasId(input.body), input.body);
  }

  private async write(acting: Acting, id: string, body: unknown) {
    const attributes = pick(body, UPDATE);
    // As v1 ListUpdate (minProperties 1): a PUT that changes nothing is a mistake, not a no-op write.
    if (Object.keys(attributes).length === 0) throw new DomainError('validation_failed', 'send at least one attribute', [{ pointer: '', message: `send at least one of ${UPDATE.join(', ')}` }]);
    const current = await currentResource(this.ctx, getList, acting.auth, id, 'list');
    const { resource } = await invoke(updateList, this.ctx, { auth: acting.auth, requestId: acting.requestId, id: current.id, ...attributes });
    return toLegacy(resource);
  }

  @LegacyOperation('legacyDeleteListsById')
  async remove(@V0Acting() acting: Acting, @Input() input: OperationInput<{ _id: string }>, @Res({ passthrough: true }) reply: FastifyReply) {
    await this.archive(acting, input.path._id);
    void reply.status(204);
  }

  @LegacyOperation('legacyDeleteLists')
  async removeByBody(@V0Acting() acting: Acting, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    await this.archive(acting, bodyAliasId(request.body));
    void reply.status(204);
  }

  private async archive(acting: Acting, id: string): Promise<void> {
    const current = await currentResource(this.ctx, getList, acting.auth, id, 'list');
    await invoke(archiveList, this.ctx, { auth: acting.auth, requestId: acting.requestId, id: current.id });
  }
}
