import { Controller, Inject, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { V1Auth } from '@workcell/auth-kit';
import { getIntegration, invoke, listIntegrations, type ProcedureContext, type V1AuthContext } from '@workcell/domain';
import { Input, list, Operation, type OperationInput, PROCEDURE_CONTEXT, single } from '@workcell/http';

/** Integrations (integrations:read): installation status and health of the workspace's connected apps, read-only. */
@Controller()
export class IntegrationsController {
  constructor(@Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext) {}

  @Operation('listIntegrations')
  async listIntegrations(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listIntegrations, this.ctx, { auth, ...input.query });
    return list(page.items, page, request);
  }

  @Operation('getIntegration')
  async getIntegration(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<{ id: string }>) {
    return single(await invoke(getIntegration, this.ctx, { auth, id: input.path.id }));
  }
}
