import { Controller, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Op } from '@workcell/auth-kit';
import { getUser, invoke, listUsers } from '@workcell/domain';
import { Input, list, Operation, type OperationInput, single } from '@workcell/http';

/**
 * Workspace users (contract 5.3 users:read): the directory view of the members (id, display name, active or
 * not). Email and phone are members:pii:read data of the members family and never appear here.
 */
@Controller()
export class UsersController {
  @Operation('listUsers')
  async listUsers(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listUsers, op, { ...input.query });
    return list(page.items, page, request);
  }

  @Operation('getUser')
  async getUser(@Op() op: Op, @Input() input: OperationInput<{ id: string }>) {
    return single(await invoke(getUser, op, { id: input.path.id }));
  }
}
