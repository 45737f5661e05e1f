import { Controller, Inject, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { V0Auth } from '@workcell/auth-kit';
import { getTag, invoke, listTags, type ProcedureContext, type V0AuthContext } from '@workcell/domain';
import { Input, LegacyOperation, type OperationInput, PROCEDURE_CONTEXT } from '@workcell/http';
import { actingFor } from '../legacy/acting.js';
import { assertNotArchived, legacyPage, seekOf, toLegacy } from '../legacy/resources.js';

type Page = { page?: number; limit?: number };

/** v0 tags (reads only: the frozen v0 has no tag writes) over the v1 tag procedures. */
@Controller()
export class TagsController {
  constructor(@Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext) {}

  @LegacyOperation('legacyGetTags')
  async list(@V0Auth() auth: V0AuthContext, @Req() request: FastifyRequest, @Input() input: OperationInput<Record<string, string>, Page>) {
    const acting = await actingFor(this.ctx, auth, request);
    return (await legacyPage(this.ctx, input.query, (cursor, limit) => invoke(listTags, this.ctx, { auth: acting.auth, limit, ...(cursor === undefined ? {} : { cursor }) }), seekOf(this.ctx, acting.auth.workspaceId, 'tags', 'listTags'))).map(toLegacy);
  }

  @LegacyOperation('legacyGetTagsById')
  async get(@V0Auth() auth: V0AuthContext, @Req() request: FastifyRequest, @Input() input: OperationInput<{ _id: string }>) {
    const acting = await actingFor(this.ctx, auth, request);
    const { resource } = await invoke(getTag, this.ctx, { auth: acting.auth, id: input.path._id });
    assertNotArchived(resource, 'tag');
    return toLegacy(resource);
  }
}
