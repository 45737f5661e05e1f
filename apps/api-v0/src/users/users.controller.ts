import { Op } from '@workcell/auth-kit';
import { Controller, Inject } from '@nestjs/common';
import { invoke, listUsers, type ProcedureContext } from '@workcell/domain';
import { Input, LegacyOperation, type OperationInput, PROCEDURE_CONTEXT } from '@workcell/http';
import { legacyPage, seekOf, toLegacy } from '../legacy/resources.js';

type Page = { page?: number; limit?: number };

/** v0 users: the team's users (v1 listUsers: id, display name, status; never email or phone) in the legacy shape. */
@Controller()
export class UsersController {
  constructor(@Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext) {}

  @LegacyOperation('legacyGetUsers')
  async list(@Op() op: Op, @Input() input: OperationInput<Record<string, string>, Page>) {
    return (
      await legacyPage(
        this.ctx,
        input.query,
        (cursor, limit) => invoke(listUsers, op, { limit, ...(cursor === undefined ? {} : { cursor }) }),
        seekOf(this.ctx, op.auth.workspaceId, 'users', 'listUsers', { status: null }),
      )
    ).map(toLegacy);
  }
}
