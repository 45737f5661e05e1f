import { Controller, Inject } from '@nestjs/common';
import { V0Auth } from '@workcell/auth-kit';
import { getWorkspace, invoke, type ProcedureContext, type V0AuthContext } from '@workcell/domain';
import { LegacyOperation, PROCEDURE_CONTEXT } from '@workcell/http';

/** `GET /teams`: confirms a token and shows its team (the v0 collection holds exactly the token's team). */
@Controller()
export class TeamsController {
  constructor(@Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext) {}

  @LegacyOperation('legacyGetTeams')
  async list(@V0Auth() auth: V0AuthContext) {
    const team = await invoke(getWorkspace, this.ctx, { workspaceId: auth.workspaceId });
    return [{ _id: team.id, name: team.name, locked: team.status === 'locked', createdAt: team.createdAt, updatedAt: team.updatedAt }];
  }
}
