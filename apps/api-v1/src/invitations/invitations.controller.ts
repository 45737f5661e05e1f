import { Controller, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Op } from '@workcell/auth-kit';
import { createInvitation, getInvitation, invoke, listInvitations, resendInvitation, revokeInvitation } from '@workcell/domain';
import { Input, list, Operation, type OperationInput, single } from '@workcell/http';

type Id = { id: string };

/**
 * Invitations (contract 5.3 invitations:*): the pending-invitation lifecycle. The address only with the
 * members:pii:read overlay, decided by the domain from the effective scopes. Accepting is the auth service's
 * `POST /invitations/accept` (the invitee has no credential yet).
 */
@Controller()
export class InvitationsController {
  @Operation('listInvitations')
  async listInvitations(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listInvitations, op, { ...input.query });
    return list(page.items, page, request);
  }

  @Operation('createInvitation')
  async createInvitation(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const created = await invoke(createInvitation, op, { ...(input.body as object) });
    reply.header('location', `/v1/invitations/${created.id}`);
    return single(created);
  }

  @Operation('getInvitation')
  async getInvitation(@Op() op: Op, @Input() input: OperationInput<Id>) {
    return single(await invoke(getInvitation, op, { id: input.path.id }));
  }

  @Operation('resendInvitation')
  async resendInvitation(@Op() op: Op, @Input() input: OperationInput<Id>) {
    return single(await invoke(resendInvitation, op, { id: input.path.id }));
  }

  @Operation('revokeInvitation')
  async revokeInvitation(@Op() op: Op, @Input() input: OperationInput<Id>): Promise<void> {
    await invoke(revokeInvitation, op, { id: input.path.id });
  }
}
