import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { V1Auth } from '@workcell/auth-kit';
import { getProjectSharing, invoke, type ProcedureContext, replaceProjectSharing, type V1AuthContext } from '@workcell/domain';
import { Input, Operation, type OperationInput, PROCEDURE_CONTEXT, versioned } from '@workcell/http';

type Id = { id: string };

/** Project access-control entries (projects:sharing; compare-and-set on the sharing version). */
@Controller()
export class ProjectSharingController {
  constructor(@Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext) {}

  @Operation('getProjectSharing')
  async getProjectSharing(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(getProjectSharing, this.ctx, { auth, id: input.path.id }));
  }

  @Operation('replaceProjectSharing')
  async replaceProjectSharing(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(replaceProjectSharing, this.ctx, { ...(input.body as object), id: input.path.id, auth, requestId: request.id }));
  }
}
