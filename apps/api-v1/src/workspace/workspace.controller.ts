import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Op } from '@workcell/auth-kit';
import { getWorkspace, getWorkspaceEntitlements, getWorkspaceSettings, invoke, updateWorkspaceSettings } from '@workcell/domain';
import { Input, Operation, type OperationInput, single, versioned } from '@workcell/http';
import { ServedOperations } from './served-operations.js';

@Controller()
export class WorkspaceController {
  constructor(@Inject(ServedOperations) private readonly served: ServedOperations) {}

  /** Also how a client tells authentication failure (401) from authorization failure (403): it needs only workspace:read. */
  @Operation('getWorkspace')
  async getWorkspace(@Op() op: Op, @Res({ passthrough: true }) reply: FastifyReply) {
    const { revision, updatedAt: _updatedAt, ...workspace } = await invoke(getWorkspace, op, {});
    return versioned(reply, { resource: workspace, revision });
  }

  @Operation('getWorkspaceCapabilities')
  getWorkspaceCapabilities() {
    return single({ capabilities: this.served.capabilities() });
  }

  @Operation('getWorkspaceEntitlements')
  async getWorkspaceEntitlements(@Op() op: Op) {
    return single(await invoke(getWorkspaceEntitlements, op, {}));
  }

  @Operation('getWorkspaceSettings')
  async getWorkspaceSettings(@Op() op: Op, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(getWorkspaceSettings, op, {}));
  }

  @Operation('updateWorkspaceSettings')
  async updateWorkspaceSettings(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(updateWorkspaceSettings, op, { ...(input.body as object) }));
  }
}
