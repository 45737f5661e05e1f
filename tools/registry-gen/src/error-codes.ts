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

const CODE = {
  validation_failed: {
    code: 'validation_failed',
    when: "the path, query, headers or body do not match the operation's schemas (a query parameter it does not declare included), or hold text no operation accepts (NUL, another control character, a lone surrogate, undecodable percent-encoding); each error names its pointer or parameter",
  },
  invalid_json: { code: 'invalid_json', when: 'the body is not JSON in UTF-8, repeats a key within one object, holds a __proto__ or constructor.prototype key or nests deeper than 32 levels' },
  invalid_idempotency_key: { code: 'invalid_idempotency_key', when: 'the Idempotency-Key header is not 8-255 characters of [A-Za-z0-9._:-]' },
  invalid_precondition: { code: 'invalid_precondition', when: 'If-Match is not exactly one strong ETag (weak, a list, * or malformed)' },
  unauthenticated: { code: 'unauthenticated', when: 'no bearer credential, or one that is unknown or malformed' },
  credential_expired: { code: 'credential_expired', when: 'the credential has expired' },
  credential_revoked: { code: 'credential_revoked', when: 'the credential has been revoked' },
  insufficient_scope: { code: 'insufficient_scope', when: "the credential lacks a required scope (or every one of the any-of scopes); the detail names what is missing" },
  workspace_locked: { code: 'workspace_locked', when: "the credential's workspace is locked" },
  not_found: { code: 'not_found', when: "no such resource in the credential's workspace (or one a service account's resource grants do not let it read)" },
  conflict: { code: 'conflict', when: "the resource's state does not allow the change" },
  version_conflict: { code: 'version_conflict', when: 'expectedVersion is not the stored version' },
  idempotency_key_reused: { code: 'idempotency_key_reused', when: 'the Idempotency-Key was used with a different payload' },
  idempotency_request_in_progress: { code: 'idempotency_request_in_progress', when: 'a request with this Idempotency-Key is still running; retry after Retry-After' },
  upload_expired: { code: 'upload_expired', when: 'the upload reservation expired; create a new upload intent' },
  precondition_failed: { code: 'precondition_failed', when: 'If-Match names a stale revision; read the resource again and decide' },
  payload_too_large: { code: 'payload_too_large', when: 'the body is larger than 1 MiB' },
  unsupported_media_type: { code: 'unsupported_media_type', when: 'the body is not application/json, or its charset is not UTF-8, or it has a Content-Encoding other than identity' },
  precondition_required: { code: 'precondition_required', when: 'If-Match is missing' },
  rate_limit_exceeded: { code: 'rate_limit_exceeded', when: "the credential's (or, without one, the client address's) budget for this operation class is spent; retry after Retry-After" },
  service_unavailable: { code: 'service_unavailable', when: 'PostgreSQL, Redis or the auth service did not answer in time; retry after Retry-After' },
} as const;

/**
 * The error codes an operation sends under each of its registry error statuses, derived from its entry by the rules
 * the platform applies to every operation (libs/http: validation, body parsing, idempotency, preconditions, rate
 * limits, dependency failures; libs/auth: the operation gate). Codes an operation's own domain rules add under a
 * status it already declares (`forbidden`, `insufficient_grant`, `last_administrator`, …) are named by that
 * status's shared description, not here.
 */
export function sentErrors(op: OperationDefinition): SentStatus[] {
  const byStatus: Record<V1ErrorStatus, SentCode[]> = {
    400: [CODE.validation_failed, ...(op.request.body ? [CODE.invalid_json] : []), ...(op.idempotent ? [CODE.invalid_idempotency_key] : []), ...(op.concurrency === 'if-match' ? [CODE.invalid_precondition] : [])],
    401: [CODE.unauthenticated, CODE.credential_expired, CODE.credential_revoked],
    403: [CODE.insufficient_scope, CODE.workspace_locked],
    404: [CODE.not_found],
    409: [CODE.conflict, ...(op.concurrency === 'cas' ? [CODE.version_conflict] : []), ...(op.idempotent ? [CODE.idempotency_key_reused, CODE.idempotency_request_in_progress] : [])],
    410: [CODE.upload_expired],
    412: [CODE.precondition_failed],
    413: [CODE.payload_too_large],
    415: [CODE.unsupported_media_type],
    428: [CODE.precondition_required],
    429: [CODE.rate_limit_exceeded],
    503: [CODE.service_unavailable],
  };
  return op.errors.map((status) => ({ status, codes: byStatus[status] }));
}
