import { Op } from '@workcell/auth-kit';
import { Controller, Inject } from '@nestjs/common';
import { getService, invoke, listServices, type ProcedureContext } from '@workcell/domain';
import { Input, LegacyOperation, type OperationInput, PROCEDURE_CONTEXT } from '@workcell/http';
import { currentResource, legacyPage, seekOf, toLegacy } from '../legacy/resources.js';

type Page = { page?: number; limit?: number };
const since = (cursor: string | undefined) => (cursor === undefined ? {} : { cursor });

/** v0 services (reads only, contract 4.3 `equivalent`) over the v1 service procedures. */
@Controller()
export class ServicesController {
  constructor(@Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext) {}

  @LegacyOperation('legacyGetServices')
  async listServices(@Op() op: Op, @Input() input: OperationInput<Record<string, string>, Page>) {
    return (await legacyPage(this.ctx, input.query, (cursor, limit) => invoke(listServices, op, { limit, ...since(cursor) }), seekOf(this.ctx, op.auth.workspaceId, 'services', 'listServices'))).map(
      toLegacy,
    );
  }

  @LegacyOperation('legacyGetServicesById')
  async getService(@Op() op: Op, @Input() input: OperationInput<{ _id: string }>) {
    return toLegacy(await currentResource(op, getService, input.path._id, 'service'));
  }
}
