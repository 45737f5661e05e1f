import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { V1Auth } from '@workcell/auth-kit';
import {
  archiveTimeEntry,
  createTimeEntry,
  getTimeEntry,
  getTimeEntryBilling,
  invoke,
  listTimeEntries,
  type ProcedureContext,
  restoreTimeEntry,
  setTimeEntryBilling,
  updateTimeEntry,
  type V1AuthContext,
} from '@workcell/domain';
import { Input, list, Operation, type OperationInput, PROCEDURE_CONTEXT, versioned } from '@workcell/http';

type Id = { id: string };

/**
 * Time entries (contract 2, scopes time-entries:*): updates and billing are compare-and-set; `billing` on
 * entries is an overlay present only with time-entries:billing.
 */
@Controller()
export class TimeEntriesController {
  constructor(@Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext) {}

  @Operation('listTimeEntries')
  async listTimeEntries(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listTimeEntries, this.ctx, { auth, ...input.query });
    return list(page.items, page, request);
  }

  @Operation('createTimeEntry')
  async createTimeEntry(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const created = await invoke(createTimeEntry, this.ctx, { ...(input.body as object), auth, requestId: request.id });
    reply.header('location', `/v1/time-entries/${created.resource.id}`);
    return versioned(reply, created);
  }

  @Operation('getTimeEntry')
  async getTimeEntry(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(getTimeEntry, this.ctx, { auth, id: input.path.id }));
  }

  @Operation('updateTimeEntry')
  async updateTimeEntry(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(updateTimeEntry, this.ctx, { ...(input.body as object), id: input.path.id, auth, requestId: request.id }));
  }

  @Operation('archiveTimeEntry')
  async archiveTimeEntry(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest): Promise<void> {
    await invoke(archiveTimeEntry, this.ctx, { id: input.path.id, auth, requestId: request.id });
  }

  @Operation('restoreTimeEntry')
  async restoreTimeEntry(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(restoreTimeEntry, this.ctx, { id: input.path.id, auth, requestId: request.id }));
  }

  @Operation('getTimeEntryBilling')
  async getTimeEntryBilling(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(getTimeEntryBilling, this.ctx, { auth, id: input.path.id }));
  }

  @Operation('setTimeEntryBilling')
  async setTimeEntryBilling(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(setTimeEntryBilling, this.ctx, { ...(input.body as object), id: input.path.id, auth, requestId: request.id }));
  }
}
