import { Controller, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Op } from '@workcell/auth-kit';
import { createAppointment, deleteAppointment, getAppointment, invoke, listAppointments, updateAppointment } from '@workcell/domain';
import { Input, list, Operation, type OperationInput, versioned } from '@workcell/http';

type Id = { id: string };
type MemberAppointment = { id: string; appointmentId: string };

/**
 * Appointments: the op member's own (appointments:*) and another member's (appointments:delegated:*, with the
 * relationship checks of libs/domain scheduling/subject.ts). Both routes of an action share one procedure; the
 * delegated one names the member. Updates are compare-and-set.
 */
@Controller()
export class AppointmentsController {
  @Operation('listAppointments')
  async listAppointments(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listAppointments, op, { ...input.query });
    return list(page.items, page, request);
  }

  @Operation('createAppointment')
  async createAppointment(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const created = await invoke(createAppointment, op, { ...(input.body as object) });
    reply.header('location', `/v1/appointments/${created.resource.id}`);
    return versioned(reply, created);
  }

  @Operation('getAppointment')
  async getAppointment(@Op() op: Op, @Input() input: OperationInput<Id>, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(getAppointment, op, { id: input.path.id }));
  }

  @Operation('updateAppointment')
  async updateAppointment(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(updateAppointment, op, { ...(input.body as object), id: input.path.id }));
  }

  @Operation('deleteAppointment')
  async deleteAppointment(@Op() op: Op, @Input() input: OperationInput<Id>): Promise<void> {
    await invoke(deleteAppointment, op, { id: input.path.id });
  }

  @Operation('listMemberAppointments')
  async listMemberAppointments(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest) {
    const page = await invoke(listAppointments, op, { ...input.query, memberId: input.path.id });
    return list(page.items, page, request);
  }

  @Operation('createMemberAppointment')
  async createMemberAppointment(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const created = await invoke(createAppointment, op, { ...(input.body as object), memberId: input.path.id });
    return versioned(reply, created);
  }

  @Operation('updateMemberAppointment')
  async updateMemberAppointment(@Op() op: Op, @Input() input: OperationInput<MemberAppointment>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(updateAppointment, op, { ...(input.body as object), memberId: input.path.id, id: input.path.appointmentId }));
  }

  @Operation('deleteMemberAppointment')
  async deleteMemberAppointment(@Op() op: Op, @Input() input: OperationInput<MemberAppointment>): Promise<void> {
    await invoke(deleteAppointment, op, { memberId: input.path.id, id: input.path.appointmentId });
  }
}
