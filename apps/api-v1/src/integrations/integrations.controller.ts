import { Controller, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Op } from '@workcell/auth-kit';
import { getIntegration, invoke, listIntegrations } from '@workcell/domain';
import { Input, list, Operation, type OperationInput, single } from '@workcell/http';

/** Integrations (integrations:read): installation status and health of the workspace's connected apps, read-only. */
@Controller()
export class IntegrationsController {
  @Operation('listIntegrations')
  async listIntegrations(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listIntegrations, op, { ...input.query });
    return list(page.items, page, request);
  }

  @Operation('getIntegration')
  async getIntegration(@Op() op: Op, @Input() input: OperationInput<{ id: string }>) {
    return single(await invoke(getIntegration, op, { id: input.path.id }));
  }
}
