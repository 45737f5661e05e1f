import { Controller, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Op } from '@workcell/auth-kit';
import { getTaskPlannedWork, invoke, listPlannedWork, replaceTaskPlannedWork } from '@workcell/domain';
import { Input, list, Operation, type OperationInput, single } from '@workcell/http';

type Id = { id: string };

/**
 * Planned work (contract 2, sensitive scopes planned-work:*): the bounded list, and a task's whole schedule,
 * read with its `version` and replaced atomically with compare-and-set (`expectedVersion`, 409 when stale).
 */
@Controller()
export class PlannedWorkController {
  @Operation('listPlannedWork')
  async listPlannedWork(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listPlannedWork, op, { ...(input.query as { from: string; to: string }) });
    return list(page.items, page, request);
  }

  @Operation('getTaskPlannedWork')
  async getTaskPlannedWork(@Op() op: Op, @Input() input: OperationInput<Id>) {
    return single(await invoke(getTaskPlannedWork, op, { id: input.path.id }));
  }

  @Operation('replaceTaskPlannedWork')
  async replaceTaskPlannedWork(@Op() op: Op, @Input() input: OperationInput<Id>) {
    return single(await invoke(replaceTaskPlannedWork, op, { ...(input.body as { expectedVersion: string; windows: [] }), id: input.path.id }));
  }
}
