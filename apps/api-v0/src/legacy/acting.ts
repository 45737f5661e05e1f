import { type CallHandler, createParamDecorator, type ExecutionContext, Inject, Injectable, type NestInterceptor } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { type ProcedureContext, type V0AuthContext, type V1AuthContext, v0ActingContext } from '@workcell/domain';
import { PROCEDURE_CONTEXT } from '@workcell/http';

/** What a v0 handler acts as: the v1 procedures' caller, the team token's member, and the request id for the outbox events. */
export interface Acting {
  readonly auth: V1AuthContext;
  readonly tokenMemberId: string | null;
  readonly requestId: string;
}

const actingByRequest = new WeakMap<object, Acting>();

/**
 * Computes a v0 request's acting context once, after the authentication guard and before the handler's parameters
 * are read (`@V0Acting()`), however many procedures the handler calls.
 */
@Injectable()
export class ActingContextInterceptor implements NestInterceptor {
  constructor(@Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext) {}

  intercept(context: ExecutionContext, next: CallHandler) {
    const request = context.switchToHttp().getRequest<FastifyRequest & { user?: V0AuthContext }>();
    if (request.user) {
      const { tokenMemberId, ...auth } = v0ActingContext(this.ctx, request.user);
      actingByRequest.set(request, { auth, tokenMemberId, requestId: request.id });
    }
    return next.handle();
  }
}

/** The acting context of this authenticated v0 request (ActingContextInterceptor). */
export const V0Acting = createParamDecorator((_data: unknown, context: ExecutionContext): Acting => {
  const acting = actingByRequest.get(context.switchToHttp().getRequest<object>());
  if (!acting) throw new Error('@V0Acting() on a request that has no v0 authentication');
  return acting;
});
