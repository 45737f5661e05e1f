import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { V1Auth } from '@workcell/auth-kit';
import { createAppointment, deleteAppointment, getAppointment, invoke, listAppointments, type ProcedureContext, updateAppointment, type V1AuthContext } from '@workcell/domain';
import { Input, list, Operation, type OperationInput, PROCEDURE_CONTEXT, versioned } from '@workcell/http';

type Id = { id: string };
type MemberAppointment = { id: string; appointmentId: string };

/**
 * Appointments: the acting member's own (appointments:*) and another member's (appointments:delegated:*, with the
 * relationship checks of libs/domain scheduling/subject.ts). Both routes of an action share one procedure; the
 * delegated one names the member. Updates are compare-and-set.
 */
@Controller()
export class AppointmentsController {
  constructor(@Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext) {}

  @Operation('listAppointments')
  async listAppointments(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listAppointments, this.ctx, { auth, ...input.query });
    return list(page.items, page, request);
  }

  @Operation('createAppointment')
  async createAppointment(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const created = await invoke(createAppointment, this.ctx, { ...(input.body as object), auth, requestId: request.id });
    reply.header('location', `/v1/appointments/${created.resource.id}`);
    return versioned(reply, created);
  }

  @Operation('getAppointment')
  async getAppointment(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(getAppointment, this.ctx, { auth, id: input.path.id }));
  }

  @Operation('updateAppointment')
  async updateAppointment(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(updateAppointment, this.ctx, { ...(input.body as object), id: input.path.id, auth, requestId: request.id }));
  }

  @Operation('deleteAppointment')
  async deleteAppointment(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest): Promise<void> {
    await invoke(deleteAppointment, this.ctx, { id: input.path.id, auth, requestId: request.id });
  }

  @Operation('listMemberAppointments')
  async listMemberAppointments(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest) {
    const page = await invoke(listAppointments, this.ctx, { auth, ...input.query, memberId: input.path.id });
    return list(page.items, page, request);
  }

  @Operation('createMemberAppointment')
  async createMemberAppointment(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const created = await invoke(createAppointment, this.ctx, { ...(input.body as object), memberId: input.path.id, auth, requestId: request.id });
    return versioned(reply, created);
  }

  @Operation('updateMemberAppointment')
  async updateMemberAppointment(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<MemberAppointment>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(updateAppointment, this.ctx, { ...(input.body as object), memberId: input.path.id, id: input.path.appointmentId, auth, requestId: request.id }));
  }

  @Operation('deleteMemberAppointment')
  async deleteMemberAppointment(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<MemberAppointment>, @Req() request: FastifyRequest): Promise<void> {
    await invoke(deleteAppointment, this.ctx, { memberId: input.path.id, id: input.path.appointmentId, auth, requestId: request.id });
  }
}
