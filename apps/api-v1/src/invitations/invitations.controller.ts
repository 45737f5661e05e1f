import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { V1Auth } from '@workcell/auth-kit';
import { createInvitation, getInvitation, invoke, listInvitations, type ProcedureContext, resendInvitation, revokeInvitation, type V1AuthContext } from '@workcell/domain';
import { Input, list, Operation, type OperationInput, PROCEDURE_CONTEXT, single } from '@workcell/http';

type Id = { id: string };

/**
 * Invitations (contract 5.3 invitations:*): the pending-invitation lifecycle. The address only with the
 * members:pii:read overlay, decided by the domain from the effective scopes. Accepting is the auth service's
 * `POST /invitations/accept` (the invitee has no credential yet).
 */
@Controller()
export class InvitationsController {
  constructor(@Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext) {}

  @Operation('listInvitations')
  async listInvitations(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listInvitations, this.ctx, { auth, ...input.query });
    return list(page.items, page, request);
  }

  @Operation('createInvitation')
  async createInvitation(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const created = await invoke(createInvitation, this.ctx, { ...(input.body as object), auth, requestId: request.id });
    reply.header('location', `/v1/invitations/${created.id}`);
    return single(created);
  }

  @Operation('getInvitation')
  async getInvitation(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>) {
    return single(await invoke(getInvitation, this.ctx, { auth, id: input.path.id }));
  }

  @Operation('resendInvitation')
  async resendInvitation(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest) {
    return single(await invoke(resendInvitation, this.ctx, { id: input.path.id, auth, requestId: request.id }));
  }

  @Operation('revokeInvitation')
  async revokeInvitation(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest): Promise<void> {
    await invoke(revokeInvitation, this.ctx, { id: input.path.id, auth, requestId: request.id });
  }
}
