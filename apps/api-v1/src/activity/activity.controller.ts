import { Controller, Inject, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { V1Auth } from '@workcell/auth-kit';
import { invoke, listActivity, type ProcedureContext, type V1AuthContext } from '@workcell/domain';
import { Input, list, Operation, type OperationInput, PROCEDURE_CONTEXT } from '@workcell/http';

/** The activity of a contact, project or task, derived from the event log (activity:read plus the target type's read scope). */
@Controller()
export class ActivityController {
  constructor(@Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext) {}

  @Operation('listActivity')
  async listActivity(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listActivity, this.ctx, { auth, ...input.query });
    return list(page.items, page, request);
  }
}
