import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { V1Auth } from '@workcell/auth-kit';
import { createAbsence, deleteAbsence, getAbsence, invoke, listAbsences, type ProcedureContext, updateAbsence, type V1AuthContext } from '@workcell/domain';
import { Input, list, Operation, type OperationInput, PROCEDURE_CONTEXT, versioned } from '@workcell/http';

type Id = { id: string };
type MemberAbsence = { id: string; absenceId: string };

/**
 * Absences: the acting member's own (absences:*) and another member's (absences:delegated:read, absences:admin:write, with the
 * relationship checks of libs/domain scheduling/subject.ts). Both routes of an action share one procedure; the
 * delegated one names the member. Updates are compare-and-set.
 */
@Controller()
export class AbsencesController {
  constructor(@Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext) {}

  @Operation('listAbsences')
  async listAbsences(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listAbsences, this.ctx, { auth, ...input.query });
    return list(page.items, page, request);
  }

  @Operation('createAbsence')
  async createAbsence(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const created = await invoke(createAbsence, this.ctx, { ...(input.body as object), auth, requestId: request.id });
    reply.header('location', `/v1/absences/${created.resource.id}`);
    return versioned(reply, created);
  }

  @Operation('getAbsence')
  async getAbsence(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(getAbsence, this.ctx, { auth, id: input.path.id }));
  }

  @Operation('updateAbsence')
  async updateAbsence(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(updateAbsence, this.ctx, { ...(input.body as object), id: input.path.id, auth, requestId: request.id }));
  }

  @Operation('deleteAbsence')
  async deleteAbsence(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest): Promise<void> {
    await invoke(deleteAbsence, this.ctx, { id: input.path.id, auth, requestId: request.id });
  }

  @Operation('listMemberAbsences')
  async listMemberAbsences(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest) {
    const page = await invoke(listAbsences, this.ctx, { auth, ...input.query, memberId: input.path.id });
    return list(page.items, page, request);
  }

  @Operation('createMemberAbsence')
  async createMemberAbsence(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const created = await invoke(createAbsence, this.ctx, { ...(input.body as object), memberId: input.path.id, auth, requestId: request.id });
    return versioned(reply, created);
  }

  @Operation('updateMemberAbsence')
  async updateMemberAbsence(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<MemberAbsence>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(updateAbsence, this.ctx, { ...(input.body as object), memberId: input.path.id, id: input.path.absenceId, auth, requestId: request.id }));
  }

  @Operation('deleteMemberAbsence')
  async deleteMemberAbsence(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<MemberAbsence>, @Req() request: FastifyRequest): Promise<void> {
    await invoke(deleteAbsence, this.ctx, { memberId: input.path.id, id: input.path.absenceId, auth, requestId: request.id });
  }
}
