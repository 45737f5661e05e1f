import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { V0Auth } from '@workcell/auth-kit';
import { archiveList, createList, DomainError, getList, invoke, listLists, type ListView, type ProcedureContext, updateList, type V0AuthContext } from '@workcell/domain';
import { Input, LegacyOperation, type OperationInput, PROCEDURE_CONTEXT } from '@workcell/http';
import { actingFor } from '../legacy/acting.js';
import { assertNotArchived, bodyAliasId, legacyPage, pick, seekOf, toLegacy } from '../legacy/resources.js';

type Page = { page?: number; limit?: number };
const CREATE = ['name', 'kind', 'position', 'color'];
/** The kind never changes (v1 ListUpdate); a v0 PUT ignores it like any other undeclared field. */
const UPDATE = ['name', 'position', 'color'];

/** v0 lists over the v1 list procedures (same rows, same ids); v1 declares no precondition, so the last writer wins. */
@Controller()
export class ListsController {
  constructor(@Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext) {}

  private async current(auth: V0AuthContext, request: FastifyRequest, id: string): Promise<ListView> {
    const acting = await actingFor(this.ctx, auth, request);
    const { resource } = await invoke(getList, this.ctx, { auth: acting.auth, id });
    assertNotArchived(resource, 'list');
    return resource;
  }

  @LegacyOperation('legacyGetLists')
  async list(@V0Auth() auth: V0AuthContext, @Req() request: FastifyRequest, @Input() input: OperationInput<Record<string, string>, Page>) {
    const acting = await actingFor(this.ctx, auth, request);
    return (await legacyPage(this.ctx, input.query, (cursor, limit) => invoke(listLists, this.ctx, { auth: acting.auth, limit, ...(cursor === undefined ? {} : { cursor }) }), seekOf(this.ctx, acting.auth.workspaceId, 'lists', 'listLists', { kind: null }))).map(toLegacy);
  }

  @LegacyOperation('legacyGetListsById')
  async get(@V0Auth() auth: V0AuthContext, @Req() request: FastifyRequest, @Input() input: OperationInput<{ _id: string }>) {
    return toLegacy(await this.current(auth, request, input.path._id));
  }

  @LegacyOperation('legacyPostLists')
  async create(@V0Auth() auth: V0AuthContext, @Req() request: FastifyRequest, @Input() input: OperationInput, @Res({ passthrough: true }) reply: FastifyReply) {
    const acting = await actingFor(this.ctx, auth, request);
    const { resource } = await invoke(createList, this.ctx, { auth: acting.auth, requestId: acting.requestId, ...pick(input.body, CREATE) });
    void reply.status(201);
    return toLegacy(resource);
  }

  @LegacyOperation('legacyPutListsById')
  async update(@V0Auth() auth: V0AuthContext, @Req() request: FastifyRequest, @Input() input: OperationInput<{ _id: string }>) {
    return this.write(auth, request, input.path._id, input.body);
  }

  @LegacyOperation('legacyPutLists')
  async updateByBody(@V0Auth() auth: V0AuthContext, @Req() request: FastifyRequest, @Input() input: OperationInput) {
    return this.write(auth, request, bodyAliasId(input.body), input.body);
  }

  private async write(auth: V0AuthContext, request: FastifyRequest, id: string, body: unknown) {
    const acting = await actingFor(this.ctx, auth, request);
    const attributes = pick(body, UPDATE);
    // As v1 ListUpdate (minProperties 1): a PUT that changes nothing is a mistake, not a no-op write.
    if (Object.keys(attributes).length === 0) throw new DomainError('validation_failed', 'send at least one attribute', [{ pointer: '', message: `send at least one of ${UPDATE.join(', ')}` }]);
    const current = await this.current(auth, request, id);
    const { resource } = await invoke(updateList, this.ctx, { auth: acting.auth, requestId: acting.requestId, id: current.id, ...attributes });
    return toLegacy(resource);
  }

  @LegacyOperation('legacyDeleteListsById')
  async remove(@V0Auth() auth: V0AuthContext, @Req() request: FastifyRequest, @Input() input: OperationInput<{ _id: string }>, @Res({ passthrough: true }) reply: FastifyReply) {
    await this.archive(auth, request, input.path._id);
    void reply.status(204);
  }

  @LegacyOperation('legacyDeleteLists')
  async removeByBody(@V0Auth() auth: V0AuthContext, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    await this.archive(auth, request, bodyAliasId(request.body));
    void reply.status(204);
  }

  private async archive(auth: V0AuthContext, request: FastifyRequest, id: string): Promise<void> {
    const acting = await actingFor(this.ctx, auth, request);
    const current = await this.current(auth, request, id);
    await invoke(archiveList, this.ctx, { auth: acting.auth, requestId: acting.requestId, id: current.id });
  }
}
