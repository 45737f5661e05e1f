import type { OperationDefinition, V1ErrorStatus } from '@workcell/registry';

/** One error code an operation answers with, and when. */
export interface SentCode {
  readonly code: string;
  readonly when: string;
}

/** The codes one status of one operation carries: what its error response documents. */
export interface SentStatus {
  readonly status: V1ErrorStatus;
  readonly codes: readonly SentCode[];
}

/** When each code is sent (the platform's wording of libs/http and libs/auth, in one sentence each). */
const WHEN = {
  validation_failed:
    "the path, query, headers or body do not match the operation's schemas (a query parameter it does not declare included), or hold text no operation accepts (NUL, another control character, a lone surrogate, undecodable percent-encoding); each error names its pointer or parameter",
  invalid_json: 'the body is not JSON in UTF-8, repeats a key within one object, holds a __proto__ or constructor.prototype key or nests deeper than 32 levels',
  invalid_idempotency_key: 'the Idempotency-Key header is not 8-255 characters of [A-Za-z0-9._:-]',
  invalid_precondition: 'If-Match is not exactly one strong ETag (weak, a list, * or malformed)',
  unauthenticated: 'no bearer credential, or one that is unknown or malformed',
  credential_expired: 'the credential has expired',
  credential_revoked: 'the credential has been revoked',
  insufficient_scope: 'the credential lacks a required scope (or every one of the any-of scopes); the detail names what is missing',
  workspace_locked: "the credential's workspace is locked",
  not_found: "no such resource in the credential's workspace (or one a service account's resource grants do not let it read)",
  conflict: "the resource's state does not allow the change",
  version_conflict: 'expectedVersion is not the stored version',
  idempotency_key_reused: 'the Idempotency-Key was used with a different payload',
  idempotency_request_in_progress: 'a request with this Idempotency-Key is still running; retry after Retry-After',
  upload_expired: 'the upload reservation expired; create a new upload intent',
  precondition_failed: 'If-Match names a stale revision; read the resource again and decide',
  payload_too_large: 'the body is larger than 1 MiB',
  unsupported_media_type: 'the body is not application/json, or its charset is not UTF-8, or it has a Content-Encoding other than identity',
  precondition_required: 'If-Match is missing',
  rate_limit_exceeded: "the credential's (or, without one, the client address's) budget for this operation class is spent; retry after Retry-After",
  service_unavailable: 'PostgreSQL, Redis or the auth service did not answer in time; retry after Retry-After',
} as const;

type Code = keyof typeof WHEN;
const sent = (...codes: Code[]): SentCode[] => codes.map((code) => ({ code, when: WHEN[code] }));
const only = (condition: boolean, ...codes: Code[]): Code[] => (condition ? codes : []);

/**
 * The error codes an operation sends under each of its registry error statuses, derived from its entry by the rules
 * the platform applies to every operation (libs/http: validation, body parsing, idempotency, preconditions, rate
 * limits, dependency failures; libs/auth: the operation gate). Codes an operation's own domain rules add under a
 * status it already declares (`forbidden`, `insufficient_grant`, `last_administrator`, …) are named by that
 * status's shared description, not here.
 */
export function sentErrors(op: OperationDefinition): SentStatus[] {
  const byStatus: Record<V1ErrorStatus, SentCode[]> = {
    400: sent(
      'validation_failed',
      ...only(op.request.body !== null, 'invalid_json'),
      ...only(op.idempotent, 'invalid_idempotency_key'),
      ...only(op.concurrency === 'if-match', 'invalid_precondition'),
    ),
    401: sent('unauthenticated', 'credential_expired', 'credential_revoked'),
    403: sent('insufficient_scope', 'workspace_locked'),
    404: sent('not_found'),
    409: sent('conflict', ...only(op.concurrency === 'cas', 'version_conflict'), ...only(op.idempotent, 'idempotency_key_reused', 'idempotency_request_in_progress')),
    410: sent('upload_expired'),
    412: sent('precondition_failed'),
    413: sent('payload_too_large'),
    415: sent('unsupported_media_type'),
    428: sent('precondition_required'),
    429: sent('rate_limit_exceeded'),
    503: sent('service_unavailable'),
  };
  return op.errors.map((status) => ({ status, codes: byStatus[status] }));
}
