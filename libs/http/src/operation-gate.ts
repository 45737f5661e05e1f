import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * What stands before every API operation, implemented or not: rate limit, authentication and scopes, in that
 * order, from the operation's registry entry. The auth kit provides it; the compiled request path of every operation
 * (operation-routes.ts) runs it first, an operation without a handler too (so it still answers 401/403 before 501).
 */
export interface OperationGate {
  /** Resolves when the request may run the operation; throws the refusal (401, 403, 429, 503) otherwise. */
  enter(operationId: string, request: FastifyRequest, reply: FastifyReply): Promise<void>;
}

export const OPERATION_GATE = Symbol('OPERATION_GATE');
