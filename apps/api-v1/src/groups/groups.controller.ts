import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { V1Auth } from '@workcell/auth-kit';
import { createGroup, deleteGroup, getGroup, invoke, listGroupMembers, listGroups, type ProcedureContext, replaceGroupMembers, updateGroup, type V1AuthContext } from '@workcell/domain';
import { Input, list, Operation, type OperationInput, PROCEDURE_CONTEXT, single } from '@workcell/http';

type Id = { id: string };

/** Workspace groups and their membership (contract 5.3 groups:*). */
@Controller()
export class GroupsController {
  constructor(@Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext) {}

  @Operation('listGroups')
  async listGroups(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listGroups, this.ctx, { auth, ...input.query });
    return list(page.items, page, request);
  }

  @Operation('createGroup')
  async createGroup(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const created = await invoke(createGroup, this.ctx, { ...(input.body as object), auth, requestId: request.id });
    reply.header('location', `/v1/groups/${created.id}`);
    return single(created);
  }

  @Operation('getGroup')
  async getGroup(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>) {
    return single(await invoke(getGroup, this.ctx, { auth, id: input.path.id }));
  }

  @Operation('updateGroup')
  async updateGroup(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest) {
    return single(await invoke(updateGroup, this.ctx, { ...(input.body as object), id: input.path.id, auth, requestId: request.id }));
  }

  @Operation('deleteGroup')
  async deleteGroup(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest): Promise<void> {
    await invoke(deleteGroup, this.ctx, { id: input.path.id, auth, requestId: request.id });
  }

  @Operation('listGroupMembers')
  async listGroupMembers(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest) {
    const page = await invoke(listGroupMembers, this.ctx, { auth, id: input.path.id, ...input.query });
    return list(page.items, page, request);
  }

  @Operation('replaceGroupMembers')
  async replaceGroupMembers(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest) {
    return single(await invoke(replaceGroupMembers, this.ctx, { ...(input.body as object), id: input.path.id, auth, requestId: request.id }));
  }
}
