import { Controller, Inject } from '@nestjs/common';
import { Op } from '@workcell/auth-kit';
import { getWorkspace, invoke, type ProcedureContext } from '@workcell/domain';
import { Input, LegacyOperation, type OperationInput, PROCEDURE_CONTEXT } from '@workcell/http';
import { legacyPage } from '../legacy/resources.js';

/** `GET /teams`: confirms a token and shows its team (the v0 collection holds exactly the token's team). */
@Controller()
export class TeamsController {
  constructor(@Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext) {}

  @LegacyOperation('legacyGetTeams')
  async list(@Op() op: Op, @Input() input: OperationInput<Record<string, string>, { page?: number; limit?: number }>) {
    const team = await invoke(getWorkspace, op, {});
    const view = { _id: team.id, name: team.name, locked: team.status === 'locked', createdAt: team.createdAt, updatedAt: team.updatedAt };
    // Paged like every v0 collection (a one-item collection: page 2 is empty, so page-until-empty clients stop).
    return legacyPage(this.ctx, input.query, async () => ({ items: [view], nextCursor: null }));
  }
}
