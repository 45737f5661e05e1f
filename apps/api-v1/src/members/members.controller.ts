import { Controller, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Op } from '@workcell/auth-kit';
import { getMember, invoke, listMembers, removeMember, updateMember } from '@workcell/domain';
import { Input, list, Operation, type OperationInput, single } from '@workcell/http';

type Id = { id: string };

/**
 * Workspace members (contract 5.3 members:*): membership, status and role assignment. Personal data
 * (name, email) only with the members:pii:read overlay, decided by the domain from the effective scopes.
 */
@Controller()
export class MembersController {
  @Operation('listMembers')
  async listMembers(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listMembers, op, { ...input.query });
    return list(page.items, page, request);
  }

  @Operation('getMember')
  async getMember(@Op() op: Op, @Input() input: OperationInput<Id>) {
    return single(await invoke(getMember, op, { id: input.path.id }));
  }

  @Operation('updateMember')
  async updateMember(@Op() op: Op, @Input() input: OperationInput<Id>) {
    return single(await invoke(updateMember, op, { ...(input.body as object), id: input.path.id }));
  }

  @Operation('removeMember')
  async removeMember(@Op() op: Op, @Input() input: OperationInput<Id>): Promise<void> {
    await invoke(removeMember, op, { id: input.path.id });
  }
}
