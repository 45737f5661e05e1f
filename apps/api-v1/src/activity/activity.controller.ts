import { Controller, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Op } from '@workcell/auth-kit';
import { invoke, listActivity } from '@workcell/domain';
import { Input, list, Operation, type OperationInput } from '@workcell/http';

/** The activity of a contact, project or task, derived from the event log (activity:read plus the target type's read scope). */
@Controller()
export class ActivityController {
  @Operation('listActivity')
  async listActivity(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listActivity, op, { ...input.query });
    return list(page.items, page, request);
  }
}
