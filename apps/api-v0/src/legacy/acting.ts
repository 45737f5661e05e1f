import type { FastifyRequest } from 'fastify';
import { type ProcedureContext, type V0AuthContext, v0ActingContext } from '@workcell/domain';

/** The caller of the v1 procedures for this v0 request, and the request id for the outbox events. */
export async function actingFor(ctx: ProcedureContext, auth: V0AuthContext, request: FastifyRequest) {
  const acting = await v0ActingContext(ctx, auth);
  const { tokenMemberId, ...v1Auth } = acting;
  return { auth: v1Auth, tokenMemberId, requestId: request.id };
}
