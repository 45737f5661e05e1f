import { Controller, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Op } from '@workcell/auth-kit';
import { createAbsence, deleteAbsence, getAbsence, invoke, listAbsences, updateAbsence } from '@workcell/domain';
import { Input, list, Operation, type OperationInput, versioned } from '@workcell/http';

type Id = { id: string };
type MemberAbsence = { id: string; absenceId: string };

/**
 * Absences: the op member's own (absences:*) and another member's (absences:delegated:read, absences:admin:write, with the
 * relationship checks of libs/domain scheduling/subject.ts). Both routes of an action share one procedure; the
 * delegated one names the member. Updates are compare-and-set.
 */
@Controller()
export class AbsencesController {
  @Operation('listAbsences')
  async listAbsences(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listAbsences, op, { ...input.query });
    return list(page.items, page, request);
  }

  @Operation('createAbsence')
  async createAbsence(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const created = await invoke(createAbsence, op, { ...(input.body as object) });
    reply.header('location', `/v1/absences/${created.resource.id}`);
    return versioned(reply, created);
  }

  @Operation('getAbsence')
  async getAbsence(@Op() op: Op, @Input() input: OperationInput<Id>, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(getAbsence, op, { id: input.path.id }));
  }

  @Operation('updateAbsence')
  async updateAbsence(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(updateAbsence, op, { ...(input.body as object), id: input.path.id }));
  }

  @Operation('deleteAbsence')
  async deleteAbsence(@Op() op: Op, @Input() input: OperationInput<Id>): Promise<void> {
    await invoke(deleteAbsence, op, { id: input.path.id });
  }

  @Operation('listMemberAbsences')
  async listMemberAbsences(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest) {
    const page = await invoke(listAbsences, op, { ...input.query, memberId: input.path.id });
    return list(page.items, page, request);
  }

  @Operation('createMemberAbsence')
  async createMemberAbsence(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const created = await invoke(createAbsence, op, { ...(input.body as object), memberId: input.path.id });
    return versioned(reply, created);
  }

  @Operation('updateMemberAbsence')
  async updateMemberAbsence(@Op() op: Op, @Input() input: OperationInput<MemberAbsence>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(updateAbsence, op, { ...(input.body as object), memberId: input.path.id, id: input.path.absenceId }));
  }

  @Operation('deleteMemberAbsence')
  async deleteMemberAbsence(@Op() op: Op, @Input() input: OperationInput<MemberAbsence>): Promise<void> {
    await invoke(deleteAbsence, op, { memberId: input.path.id, id: input.path.absenceId });
  }
}
