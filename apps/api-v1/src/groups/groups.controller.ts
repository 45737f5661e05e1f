import { Controller, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Op } from '@workcell/auth-kit';
import { createGroup, deleteGroup, getGroup, invoke, listGroupMembers, listGroups, replaceGroupMembers, updateGroup } from '@workcell/domain';
import { Input, list, Operation, type OperationInput, single } from '@workcell/http';

type Id = { id: string };

/** Workspace groups and their membership (contract 5.3 groups:*). */
@Controller()
export class GroupsController {
  @Operation('listGroups')
  async listGroups(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listGroups, op, { ...input.query });
    return list(page.items, page, request);
  }

  @Operation('createGroup')
  async createGroup(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const created = await invoke(createGroup, op, { ...(input.body as object) });
    reply.header('location', `/v1/groups/${created.id}`);
    return single(created);
  }

  @Operation('getGroup')
  async getGroup(@Op() op: Op, @Input() input: OperationInput<Id>) {
    return single(await invoke(getGroup, op, { id: input.path.id }));
  }

  @Operation('updateGroup')
  async updateGroup(@Op() op: Op, @Input() input: OperationInput<Id>) {
    return single(await invoke(updateGroup, op, { ...(input.body as object), id: input.path.id }));
  }

  @Operation('deleteGroup')
  async deleteGroup(@Op() op: Op, @Input() input: OperationInput<Id>): Promise<void> {
    await invoke(deleteGroup, op, { id: input.path.id });
  }

  @Operation('listGroupMembers')
  async listGroupMembers(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest) {
    const page = await invoke(listGroupMembers, op, { id: input.path.id, ...input.query });
    return list(page.items, page, request);
  }

  @Operation('replaceGroupMembers')
  async replaceGroupMembers(@Op() op: Op, @Input() input: OperationInput<Id>) {
    return single(await invoke(replaceGroupMembers, op, { ...(input.body as object), id: input.path.id }));
  }
}
