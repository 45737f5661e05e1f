import { Controller, Inject, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { V1Auth } from '@workcell/auth-kit';
import { getMember, invoke, listMembers, type ProcedureContext, removeMember, updateMember, type V1AuthContext } from '@workcell/domain';
import { Input, list, Operation, type OperationInput, PROCEDURE_CONTEXT, single } from '@workcell/http';

type Id = { id: string };

/**
 * Workspace members (contract 5.3 members:*): membership, status and role assignment. Personal data
 * (name, email) only with the members:pii:read overlay, decided by the domain from the effective scopes.
 */
@Controller()
export class MembersController {
  constructor(@Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext) {}

  @Operation('listMembers')
  async listMembers(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listMembers, this.ctx, { auth, ...input.query });
    return list(page.items, page, request);
  }

  @Operation('getMember')
  async getMember(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>) {
    return single(await invoke(getMember, this.ctx, { auth, id: input.path.id }));
  }

  @Operation('updateMember')
  async updateMember(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest) {
    return single(await invoke(updateMember, this.ctx, { ...(input.body as object), id: input.path.id, auth, requestId: request.id }));
  }

  @Operation('removeMember')
  async removeMember(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest): Promise<void> {
    await invoke(removeMember, this.ctx, { id: input.path.id, auth, requestId: request.id });
  }
}
