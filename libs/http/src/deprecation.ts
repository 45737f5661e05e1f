import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '@workcell/config';
import { getV1Operation, V0_DEPRECATED_AT, type V0OperationDefinition, type V1OperationId } from '@workcell/registry';
import { ProtocolError } from './problems.js';

/**
 * Deprecation signalling for v0, driven only by the registry (issue 5): every `deprecated-alias` and
 * `unavailable` operation answers with
 * - `Deprecation: @<unix-seconds>` (RFC 9745 structured-field date): v0 was deprecated when v1 shipped, V0_DEPRECATED_AT;
 * - `Link: <{V1_BASE_URL}{v1 path}>; rel="successor-version"`, the operation's v1 replacement (the `{id}` of the
 *   v1 path is filled in when the request names the resource, in the path or in the body alias `_id`).
 * `unavailable` operations are refused after authentication with 403 `forbidden` (contract 7.1 "the operation
 * cannot be performed"), naming the v1 replacement; nothing is read or written. The compiled request path
 * (operation-routes.ts) runs `enterLegacyOperation` after the gate of every v0 operation.
 */

function resourceIdOf(request: FastifyRequest): string | undefined {
  const fromPath = (request.params as Record<string, unknown> | undefined)?.['_id'];
  const body = request.body;
  const fromBody = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>)['_id'] : undefined;
  const id = typeof fromPath === 'string' ? fromPath : fromBody;
  return typeof id === 'string' && /^[A-Za-z0-9-]{1,64}$/.test(id) ? id : undefined;
}

/** The v1 successor of a v0 operation: its method, path and address (with the id when the request names one). */
function successorOf(op: V0OperationDefinition, config: AppConfig, request?: FastifyRequest): { operationId: string; method: string; path: string; url: string } | null {
  if (op.v1OperationId === null) return null;
  const v1 = getV1Operation(op.v1OperationId as V1OperationId);
  const id = request === undefined ? undefined : resourceIdOf(request);
  const path = id === undefined ? v1.path : v1.path.replace('{id}', encodeURIComponent(id));
  return { operationId: v1.operationId, method: v1.method, path: v1.path, url: `${config.baseUrls.v1}${path}` };
}

/**
 * Sets Deprecation and Link on a non-`supported` operation's response (success or error alike, once authenticated)
 * and refuses an `unavailable` one, whatever its body (before it is validated).
 */
export function enterLegacyOperation(op: V0OperationDefinition, config: AppConfig, request: FastifyRequest, reply: FastifyReply): void {
  if (op.availability === 'supported') return;
  reply.header('deprecation', `@${V0_DEPRECATED_AT}`);
  const successor = successorOf(op, config, request);
  if (successor) reply.header('link', `<${successor.url}>; rel="successor-version"`);
  if (op.availability !== 'unavailable') return;
  const replacement = successor ? `; use v1 ${successor.operationId} (${successor.method} ${successor.path}) instead` : '';
  throw new ProtocolError(403, 'forbidden', `${op.method} ${op.path} is unavailable in v0${replacement}`);
}
