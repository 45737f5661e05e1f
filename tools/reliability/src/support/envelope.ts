import type { Answer } from './http.js';

/**
 * The error body each generation promises (contract 7.1, docs/protocol.md "Errors at the edge"): v1 an `errors` array of
 * `{ code, detail, status, title }` plus `meta.requestId` equal to the `X-Request-Id` header; v0 exactly
 * `{ error: { code, message } }`. Returns what is wrong, or null.
 */
export function errorBodyProblem(generation: 'v0' | 'v1', answer: Answer): string | null {
  const body = answer.json as Record<string, unknown> | undefined;
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) return `no JSON error document (content-type ${answer.headers['content-type'] ?? 'none'})`;
  if (generation === 'v0') {
    const error = body['error'] as Record<string, unknown> | undefined;
    if (Object.keys(body).join() !== 'error' || !error || typeof error.code !== 'string' || typeof error.message !== 'string') return 'not the legacy shape { error: { code, message } }';
    return null;
  }
  const errors = body['errors'];
  if (!Array.isArray(errors) || errors.length === 0) return 'no errors[]';
  for (const item of errors as Record<string, unknown>[]) {
    for (const field of ['code', 'detail', 'status', 'title']) if (typeof item?.[field] !== 'string') return `errors[] item without string ${field}`;
    if (item['status'] !== String(answer.status)) return `errors[].status ${String(item['status'])} is not the HTTP status ${answer.status}`;
  }
  const requestId = (body['meta'] as Record<string, unknown> | undefined)?.['requestId'];
  const header = answer.headers['x-request-id'];
  if (typeof requestId !== 'string' || !requestId) return 'no meta.requestId';
  if (requestId !== header) return `meta.requestId ${requestId} differs from X-Request-Id ${String(header)}`;
  return null;
}
