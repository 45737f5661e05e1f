import { Controller, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Op } from '@workcell/auth-kit';
import { archiveTimeEntry, createTimeEntry, getTimeEntry, getTimeEntryBilling, invoke, listTimeEntries, restoreTimeEntry, setTimeEntryBilling, updateTimeEntry } from '@workcell/domain';
import { Input, list, Operation, type OperationInput, versioned } from '@workcell/http';

type Id = { id: string };

/**
 * Time entries (contract 2, scopes time-entries:*): updates and billing are compare-and-set; `billing` on
 * entries is an overlay present only with time-entries:billing.
 */
@Controller()
export class TimeEntriesController {
  @Operation('listTimeEntries')
  async listTimeEntries(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listTimeEntries, op, { ...input.query });
    return list(page.items, page, request);
  }

  @Operation('createTimeEntry')
  async createTimeEntry(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const created = await invoke(createTimeEntry, op, { ...(input.body as object) });
    reply.header('location', `/v1/time-entries/${created.resource.id}`);
    return versioned(reply, created);
  }

  @Operation('getTimeEntry')
  async getTimeEntry(@Op() op: Op, @Input() input: OperationInput<Id>, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(getTimeEntry, op, { id: input.path.id }));
  }

  @Operation('updateTimeEntry')
  async updateTimeEntry(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(updateTimeEntry, op, { ...(input.body as object), id: input.path.id }));
  }

  @Operation('archiveTimeEntry')
  async archiveTimeEntry(@Op() op: Op, @Input() input: OperationInput<Id>): Promise<void> {
    await invoke(archiveTimeEntry, op, { id: input.path.id });
  }

  @Operation('restoreTimeEntry')
  async restoreTimeEntry(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(restoreTimeEntry, op, { id: input.path.id }));
  }

  @Operation('getTimeEntryBilling')
  async getTimeEntryBilling(@Op() op: Op, @Input() input: OperationInput<Id>, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(getTimeEntryBilling, op, { id: input.path.id }));
  }

  @Operation('setTimeEntryBilling')
  async setTimeEntryBilling(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(setTimeEntryBilling, op, { ...(input.body as object), id: input.path.id }));
  }
}
