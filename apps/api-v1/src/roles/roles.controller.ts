import { Controller, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Op } from '@workcell/auth-kit';
import { createRole, deleteRole, getRole, invoke, listRoles, replaceRolePermissions, updateRole } from '@workcell/domain';
import { Input, list, Operation, type OperationInput, single } from '@workcell/http';

type Id = { id: string };

/** Roles and their permission configuration (contract 5.3 roles:*). */
@Controller()
export class RolesController {
  @Operation('listRoles')
  async listRoles(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listRoles, op, { ...input.query });
    return list(page.items, page, request);
  }

  @Operation('createRole')
  async createRole(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const created = await invoke(createRole, op, { ...(input.body as object) });
    reply.header('location', `/v1/roles/${created.id}`);
    return single(created);
  }

  @Operation('getRole')
  async getRole(@Op() op: Op, @Input() input: OperationInput<Id>) {
    return single(await invoke(getRole, op, { id: input.path.id }));
  }

  @Operation('updateRole')
  async updateRole(@Op() op: Op, @Input() input: OperationInput<Id>) {
    return single(await invoke(updateRole, op, { ...(input.body as object), id: input.path.id }));
  }

  @Operation('deleteRole')
  async deleteRole(@Op() op: Op, @Input() input: OperationInput<Id>): Promise<void> {
    await invoke(deleteRole, op, { id: input.path.id });
  }

  @Operation('replaceRolePermissions')
  async replaceRolePermissions(@Op() op: Op, @Input() input: OperationInput<Id>) {
    return single(await invoke(replaceRolePermissions, op, { ...(input.body as object), id: input.path.id }));
  }
}
