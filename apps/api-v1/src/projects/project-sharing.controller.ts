import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Op } from '@workcell/auth-kit';
import { getProjectSharing, invoke, type ProcedureContext, replaceProjectSharing } from '@workcell/domain';
import { Input, Operation, type OperationInput, PROCEDURE_CONTEXT, versioned } from '@workcell/http';

type Id = { id: string };

/** Project access-control entries (projects:sharing; compare-and-set on the sharing version). */
@Controller()
export class ProjectSharingController {
  constructor(@Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext) {}

  @Operation('getProjectSharing')
  async getProjectSharing(@Op() op: Op, @Input() input: OperationInput<Id>, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(getProjectSharing, op, { id: input.path.id }));
  }

  @Operation('replaceProjectSharing')
  async replaceProjectSharing(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(replaceProjectSharing, op, { ...(input.body as object), id: input.path.id }));
  }
}
