import { Controller, Inject, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { V1Auth } from '@workcell/auth-kit';
import { getEventCatalog, invoke, listChanges, type ProcedureContext, type V1AuthContext } from '@workcell/domain';
import { Input, list, Operation, type OperationInput, PROCEDURE_CONTEXT, single } from '@workcell/http';

/** The durable change feed and the event catalog (contract 6; scopes changes:read, events:read). */
@Controller()
export class ChangesController {
  constructor(@Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext) {}

  /**
   * `meta.nextCursor` is always a resumable position (persist it; resuming yields exactly the later events);
   * `links.next` is null once the feed is caught up, so following it ends like any other list.
   */
  @Operation('listChanges')
  async listChanges(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listChanges, this.ctx, { auth, ...input.query });
    const body = list(page.items, page, request);
    return page.more ? body : { ...body, links: { next: null } };
  }

  @Operation('getEventCatalog')
  async getEventCatalog(@V1Auth() auth: V1AuthContext) {
    return single(await invoke(getEventCatalog, this.ctx, { auth }));
  }
}
