import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { V1Auth } from '@workcell/auth-kit';
import { createRole, deleteRole, getRole, invoke, listRoles, type ProcedureContext, replaceRolePermissions, updateRole, type V1AuthContext } from '@workcell/domain';
import { Input, list, Operation, type OperationInput, PROCEDURE_CONTEXT, single } from '@workcell/http';

type Id = { id: string };

/** Roles and their permission configuration (contract 5.3 roles:*). */
@Controller()
export class RolesController {
  constructor(@Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext) {}

  @Operation('listRoles')
  async listRoles(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listRoles, this.ctx, { auth, ...input.query });
    return list(page.items, page, request);
  }

  @Operation('createRole')
  async createRole(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const created = await invoke(createRole, this.ctx, { ...(input.body as object), auth, requestId: request.id });
    reply.header('location', `/v1/roles/${created.id}`);
    return single(created);
  }

  @Operation('getRole')
  async getRole(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>) {
    return single(await invoke(getRole, this.ctx, { auth, id: input.path.id }));
  }

  @Operation('updateRole')
  async updateRole(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest) {
    return single(await invoke(updateRole, this.ctx, { ...(input.body as object), id: input.path.id, auth, requestId: request.id }));
  }

  @Operation('deleteRole')
  async deleteRole(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest): Promise<void> {
    await invoke(deleteRole, this.ctx, { id: input.path.id, auth, requestId: request.id });
  }

  @Operation('replaceRolePermissions')
  async replaceRolePermissions(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest) {
    return single(await invoke(replaceRolePermissions, this.ctx, { ...(input.body as object), id: input.path.id, auth, requestId: request.id }));
  }
}
