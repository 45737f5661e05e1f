import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { V1Auth } from '@workcell/auth-kit';
import { getWorkspace, getWorkspaceEntitlements, getWorkspaceSettings, invoke, type ProcedureContext, updateWorkspaceSettings, type V1AuthContext } from '@workcell/domain';
import { Input, Operation, type OperationInput, PROCEDURE_CONTEXT, single, versioned } from '@workcell/http';
import { ServedOperations } from './served-operations.js';

@Controller()
export class WorkspaceController {
  constructor(
    @Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext,
    @Inject(ServedOperations) private readonly served: ServedOperations,
  ) {}

  /** Also how a client tells authentication failure (401) from authorization failure (403): it needs only workspace:read. */
  @Operation('getWorkspace')
  async getWorkspace(@V1Auth() auth: V1AuthContext, @Res({ passthrough: true }) reply: FastifyReply) {
    const { revision, updatedAt: _updatedAt, ...workspace } = await invoke(getWorkspace, this.ctx, { workspaceId: auth.workspaceId });
    return versioned(reply, { resource: workspace, revision });
  }

  @Operation('getWorkspaceCapabilities')
  getWorkspaceCapabilities() {
    return single({ capabilities: this.served.capabilities() });
  }

  @Operation('getWorkspaceEntitlements')
  async getWorkspaceEntitlements(@V1Auth() auth: V1AuthContext) {
    return single(await invoke(getWorkspaceEntitlements, this.ctx, { auth }));
  }

  @Operation('getWorkspaceSettings')
  async getWorkspaceSettings(@V1Auth() auth: V1AuthContext, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(getWorkspaceSettings, this.ctx, { auth }));
  }

  @Operation('updateWorkspaceSettings')
  async updateWorkspaceSettings(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(updateWorkspaceSettings, this.ctx, { ...(input.body as object), auth, requestId: request.id }));
  }
}
