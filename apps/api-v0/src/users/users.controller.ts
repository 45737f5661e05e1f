import { Controller, Inject, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { V0Auth } from '@workcell/auth-kit';
import { invoke, listUsers, type ProcedureContext, type V0AuthContext } from '@workcell/domain';
import { Input, LegacyOperation, type OperationInput, PROCEDURE_CONTEXT } from '@workcell/http';
import { actingFor } from '../legacy/acting.js';
import { legacyPage, seekOf, toLegacy } from '../legacy/resources.js';

type Page = { page?: number; limit?: number };

/** v0 users: the team's users (v1 listUsers: id, display name, status; never email or phone) in the legacy shape. */
@Controller()
export class UsersController {
  constructor(@Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext) {}

  @LegacyOperation('legacyGetUsers')
  async list(@V0Auth() auth: V0AuthContext, @Req() request: FastifyRequest, @Input() input: OperationInput<Record<string, string>, Page>) {
    const acting = await actingFor(this.ctx, auth, request);
    return (await legacyPage(this.ctx, input.query, (cursor, limit) => invoke(listUsers, this.ctx, { auth: acting.auth, limit, ...(cursor === undefined ? {} : { cursor }) }), seekOf(this.ctx, acting.auth.workspaceId, 'users', 'listUsers', { status: null }))).map(toLegacy);
  }
}
