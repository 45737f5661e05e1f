import { Controller, Inject } from '@nestjs/common';
import { getService, invoke, listServices, type ProcedureContext } from '@workcell/domain';
import { Input, LegacyOperation, type OperationInput, PROCEDURE_CONTEXT } from '@workcell/http';
import { type Acting, V0Acting } from '../legacy/acting.js';
import { currentResource, legacyPage, seekOf, toLegacy } from '../legacy/resources.js';

type Page = { page?: number; limit?: number };
const since = (cursor: string | undefined) => (cursor === undefined ? {} : { cursor });

/** v0 services (reads only, contract 4.3 `equivalent`) over the v1 service procedures. */
@Controller()
export class ServicesController {
  constructor(@Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext) {}

  @LegacyOperation('legacyGetServices')
  async listServices(@V0Acting() acting: Acting, @Input() input: OperationInput<Record<string, string>, Page>) {
    return (
      await legacyPage(
        this.ctx,
        input.query,
        (cursor, limit) => invoke(listServices, this.ctx, { auth: acting.auth, limit, ...since(cursor) }),
        seekOf(this.ctx, acting.auth.workspaceId, 'services', 'listServices'),
      )
    ).map(toLegacy);
  }

  @LegacyOperation('legacyGetServicesById')
  async getService(@V0Acting() acting: Acting, @Input() input: OperationInput<{ _id: string }>) {
    return toLegacy(await currentResource(this.ctx, getService, acting.auth, input.path._id, 'service'));
  }
}
