import { Controller, Inject, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { V1Auth } from '@workcell/auth-kit';
import { getWorkspace, invoke, type ProcedureContext, type V1AuthContext } from '@workcell/domain';
import { Operation, PROCEDURE_CONTEXT } from '@workcell/http';

@Controller()
export class WorkspaceController {
  constructor(@Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext) {}

  /** Also how a client tells authentication failure (401) from authorization failure (403): it needs only workspace:read. */
  @Operation('getWorkspace')
  async getWorkspace(@V1Auth() auth: V1AuthContext, @Res({ passthrough: true }) reply: FastifyReply) {
    const { revision, updatedAt: _updatedAt, ...workspace } = await invoke(getWorkspace, this.ctx, { workspaceId: auth.workspaceId });
    reply.header('etag', `"${revision}"`);
    return { data: workspace };
  }
}
