import { Controller, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Op } from '@workcell/auth-kit';
import { getProjectSharing, invoke, replaceProjectSharing } from '@workcell/domain';
import { Input, Operation, type OperationInput, versioned } from '@workcell/http';

type Id = { id: string };

/** Project access-control entries (projects:sharing; compare-and-set on the sharing version). */
@Controller()
export class ProjectSharingController {
  @Operation('getProjectSharing')
  async getProjectSharing(@Op() op: Op, @Input() input: OperationInput<Id>, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(getProjectSharing, op, { id: input.path.id }));
  }

  @Operation('replaceProjectSharing')
  async replaceProjectSharing(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(replaceProjectSharing, op, { ...(input.body as object), id: input.path.id }));
  }
}
