import {
  CURSOR_PAGE_DEFAULT_LIMIT,
  CURSOR_PAGE_MAX_LIMIT,
  ErrorDocument,
  FINANCE_OVERLAY_SCOPES,
  ListLinks,
  ListMeta,
  SENSITIVE_SCOPES,
  titleFor,
  V1_FAMILIES,
  type OperationDefinition,
  type V1ErrorStatus,
  type V1Family,
} from '@workcell/registry';
import type { z } from 'zod';
import { type SentCode, type SentStatus, sentErrors } from './error-codes.js';
import { exampleOf, exampleUuid } from './examples.js';
import { allComponents, componentId, reachableSchemas, toSchema, unwrapOptional, type JsonSchema } from './json-schema.js';

const SECURITY_SCHEME = 'bearerCredential';

const FAMILY_DESCRIPTIONS: Record<V1Family, string> = {
  meta: 'Public discovery: API version and this document.',
  auth: "The authenticating credential's own context.",
  workspace: 'The workspace (v0 team), its capabilities and entitlements.',
  'workspace-settings': 'Six-field safe settings projection (compare-and-set).',
  projects: 'Projects, their lifecycle (asynchronous) and sharing.',
  'project-templates': 'Project templates and instantiation.',
  tasks: 'Tasks and task time tracking.',
  'task-recurrences': 'Recurring task series, previews, rechecks and external events.',
  'time-entries': 'Time entries and their billing state.',
  contacts: 'Contacts (people and organizations).',
  'call-notes': 'Plain-text call notes.',
  'contact-groups': 'Hierarchical contact groups.',
  users: 'Workspace users.',
  lists: 'Project and task lists.',
  services: 'Services and billing rates.',
  tags: 'Tags.',
  'custom-field-definitions': 'Custom-field schemas and configuration.',
  'custom-field-values': 'Custom-field values on projects, tasks and contacts.',
  'planned-work': 'Planned workload windows (v0 scheduled work).',
  appointments: 'Appointments, own and delegated.',
  absences: 'Absences, own, delegated and administered.',
  availability: 'Derived availability, own and delegated.',
  activity: 'Activity of contacts, projects and tasks.',
  comments: 'Comments on contacts, projects and tasks.',
  documents: 'Bounded text documents.',
  files: 'Private files and short-lived transfer intents.',
  products: 'Product catalog (purchasePrice is a finance overlay).',
  'product-groups': 'Hierarchical product groups.',
  'project-statements': 'Project statements (v0 journal entries).',
  members: 'Workspace membership and role assignment.',
  invitations: 'Pending invitations.',
  roles: 'Roles and permission configuration.',
  groups: 'Workspace groups and membership.',
  search: 'Federated search.',
  exports: 'Bounded export jobs.',
  automations: 'Automation actions, definitions, versions and runs.',
  integrations: 'Integration installation status.',
  credentials: 'Personal access tokens.',
  'service-accounts': 'Service-account principals and their credentials.',
  'resource-grants': 'Bounded resource grants of service accounts.',
  changes: 'Durable change feed.',
  events: 'Event and channel catalog.',
  webhooks: 'Signed (v2) webhook subscriptions and delivery history.',
  audit: 'Developer-platform audit events.',
};

/**
 * Each error status's response: a component name, what the status means (the codes it carries come from
 * error-codes.ts, per operation) and the headers it adds.
 */
const ERROR_RESPONSES: Record<V1ErrorStatus, { name: string; description: string; extraHeaders?: string[] }> = {
  400: { name: 'BadRequest', description: 'The request is not valid; nothing was read or written.' },
  401: {
    name: 'Unauthorized',
    description: 'No valid credential. `WWW-Authenticate: Bearer realm="workcell-v1"`, with `error="invalid_token"` when a bearer token was presented (RFC 6750).',
    extraHeaders: ['WWW-Authenticate'],
  },
  403: {
    name: 'Forbidden',
    description:
      "Refused for this credential. An operation's own rules may also refuse with `forbidden` (a member permission or principal type it needs), `insufficient_grant` (a service account's resource grants allow reading the resource but not changing it, or not creating one) or `insufficient_project_access` (a shared project's entry gives the caller `viewer` access where `editor` or `manager` is needed).",
  },
  404: { name: 'NotFound', description: "Not visible in the credential's workspace." },
  409: {
    name: 'Conflict',
    description:
      'The change conflicts with the current state. Some operations name their conflict with a code of their own: `last_administrator`, `built_in_role`, `role_in_use`, `hierarchy_cycle`, `timer_already_running`, `timer_not_running`, `custom_field_values_in_use`, `already_member`, `invitation_pending`, `invitation_not_pending`, `resend_too_soon` (with `Retry-After`), `automation_run_not_running`, and for files `upload_not_received`, `upload_mismatch` and `file_not_available` (docs/files.md).',
  },
  410: { name: 'Gone', description: 'Private-file upload reservation expired.' },
  412: { name: 'PreconditionFailed', description: 'Strong revision stale.' },
  413: { name: 'ContentTooLarge', description: "The body is over the operation's limit, or a bounded field is over its bound (with the field's pointer); nothing is written." },
  415: { name: 'UnsupportedMediaType', description: 'The body is not JSON in UTF-8.' },
  428: { name: 'PreconditionRequired', description: 'A required precondition is missing.' },
  429: {
    name: 'TooManyRequests',
    description: 'Rate limit exceeded; honor Retry-After.',
    extraHeaders: ['Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'],
  },
  503: {
    name: 'ServiceUnavailable',
    description: 'Temporary availability failure; only safe operations are retried automatically. 502 and 504 are used alike.',
    extraHeaders: ['Retry-After'],
  },
};

const INTERNAL_ERROR = 'InternalServerError';

/**
 * The 500 every operation can answer: a defect, never an expected outcome (bad input is a 4xx, a failing dependency
 * 503). Declared so clients and contract tests know its shape: the error document, with no internals.
 */
function internalErrorResponse(): JsonSchema {
  const example = { errors: [{ code: 'internal_error', detail: 'the request could not be completed', status: '500', title: titleFor(500) }], meta: { requestId: exampleUuid(0) } };
  return {
    description: 'An unexpected failure (a defect): the error document with code `internal_error` and no internals; report its request id. Not retried automatically except for safe operations.',
    headers: headerRefs(['X-Request-Id']),
    content: { 'application/json': { schema: toSchema(ErrorDocument), examples: { internal_error: { summary: 'internal_error', value: example } } } },
    'x-error-codes': ['internal_error'],
  };
}

/** The error document an operation answers with for one code (its `detail` says when; the request id is an example). */
export function errorDocumentExample(status: V1ErrorStatus, sent: SentCode): unknown {
  return { errors: [{ code: sent.code, detail: sent.when, status: String(status), title: titleFor(status) }], meta: { requestId: exampleUuid(0) } };
}

const pascal = (code: string) => code.replace(/(^|_)([a-z])/g, (_m, _s, c: string) => c.toUpperCase());

/**
 * The error responses of the v1 document: one component per status and set of codes (an operation refers to the
 * one whose codes it sends), each listing its codes with when they are sent, and an example error document per code.
 */
class ErrorResponses {
  private readonly byName = new Map<string, JsonSchema>();
  /** Per status, the codes every operation declaring it sends: a component's name adds only the others. */
  private readonly common = new Map<V1ErrorStatus, Set<string>>();

  constructor(ops: readonly OperationDefinition[]) {
    for (const sent of ops.flatMap(sentErrors)) {
      const codes = new Set(sent.codes.map((c) => c.code));
      const seen = this.common.get(sent.status);
      this.common.set(sent.status, seen ? new Set([...seen].filter((c) => codes.has(c))) : codes);
    }
  }

  ref(sent: SentStatus): { $ref: string } {
    const spec = ERROR_RESPONSES[sent.status];
    const common = this.common.get(sent.status);
    const name = `${spec.name}${sent.codes
      .filter((c) => !common?.has(c.code))
      .map((c) => pascal(c.code))
      .join('')}`;
    if (!this.byName.has(name)) {
      const codes = sent.codes.map((c) => `\`${c.code}\``).join(', ');
      this.byName.set(name, {
        description: `${spec.description} Codes: ${codes}.\n\n${sent.codes.map((c) => `- \`${c.code}\`: ${c.when}.`).join('\n')}`,
        // Every answer but a 503 passes the rate limiter first (libs/http rate-limit.ts), so it carries the window's headers.
        headers: headerRefs([...new Set(['X-Request-Id', ...(sent.status < 500 ? RATE_LIMIT_HEADERS : []), ...(spec.extraHeaders ?? [])])]),
        content: {
          'application/json': {
            schema: toSchema(ErrorDocument),
            examples: Object.fromEntries(sent.codes.map((c) => [c.code, { summary: c.code, value: errorDocumentExample(sent.status, c) }])),
          },
        },
        'x-error-codes': sent.codes.map((c) => c.code),
      });
    }
    return { $ref: `#/components/responses/${name}` };
  }

  /** The components, by name. */
  all(): Record<string, JsonSchema> {
    return Object.fromEntries([...this.byName].sort(([a], [b]) => a.localeCompare(b)));
  }
}

const HEADERS: Record<string, JsonSchema> = {
  'X-Request-Id': {
    description: 'Correlation id; equals `meta.requestId` of error documents.',
    schema: { type: 'string', maxLength: 128 },
  },
  'X-RateLimit-Limit': { description: 'Maximum requests in the current window.', schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 2_147_483_647 } },
  'X-RateLimit-Remaining': { description: 'Requests still available in the window.', schema: { type: 'integer', format: 'int32', minimum: 0, maximum: 2_147_483_647 } },
  'X-RateLimit-Reset': {
    description: 'Window reset as Unix time in milliseconds.',
    schema: { type: 'integer', format: 'int64', minimum: 0, maximum: 253_402_300_799_999 },
  },
  'Retry-After': { description: 'Minimum seconds to wait before retrying.', schema: { type: 'integer', format: 'int32', minimum: 0, maximum: 86_400 } },
  'WWW-Authenticate': {
    description: 'RFC 6750 challenge: `Bearer realm="workcell-v1"`, plus `error="invalid_token"` when the presented token is unknown, malformed, expired or revoked.',
    schema: { type: 'string' },
  },
  ETag: { description: 'Strong revision of the returned resource (quoted); send it back in If-Match.', schema: { type: 'string' } },
  Location: { description: 'URL of the created resource or of the accepted asynchronous operation.', schema: { type: 'string' } },
  'Cache-Control': { description: 'Always `private, no-store`.', schema: { type: 'string', const: 'private, no-store' } },
};

type Components = Readonly<Record<string, JsonSchema>>;

const RATE_LIMIT_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];
const SUCCESS_HEADERS = ['X-Request-Id', ...RATE_LIMIT_HEADERS];
const headerRefs = (names: readonly string[]) => Object.fromEntries(names.map((n) => [n, { $ref: `#/components/headers/${n}` }]));

/** Shared parameters referenced instead of inlined. */
/**
 * Whether a parameter carries an `example`. The reference page's "Test Request" fills every parameter that has one,
 * so an optional query parameter (a filter, a cursor) has none: a made-up cursor or filter value would be sent and
 * refused (`cursor=Example cursor` answers 400). Path parameters, required query parameters and headers keep theirs.
 */
function prefilled(location: string, required: boolean): boolean {
  return location !== 'query' || required;
}

const SHARED_PARAMETERS: Record<string, { key: string; param: JsonSchema }> = {
  'path:id': {
    key: 'Id',
    param: {
      name: 'id',
      in: 'path',
      required: true,
      description: 'Opaque resource identifier.',
      schema: { type: 'string', minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' },
    },
  },
  'query:cursor': {
    key: 'Cursor',
    param: {
      name: 'cursor',
      in: 'query',
      required: false,
      description: 'Opaque continuation cursor from `meta.nextCursor` (or `links.next`) of the previous page.',
      schema: { type: 'string', minLength: 1, maxLength: 1024 },
    },
  },
  'query:limit': {
    key: 'Limit',
    param: {
      name: 'limit',
      in: 'query',
      required: false,
      description: `Page size, 1-${CURSOR_PAGE_MAX_LIMIT} in decimal digits only; default ${CURSOR_PAGE_DEFAULT_LIMIT}.`,
      schema: { type: 'integer', format: 'int32', minimum: 1, maximum: CURSOR_PAGE_MAX_LIMIT, default: CURSOR_PAGE_DEFAULT_LIMIT },
    },
  },
  'header:if-match': {
    key: 'IfMatch',
    param: {
      name: 'If-Match',
      in: 'header',
      required: true,
      description: 'Strong revision (quoted ETag) of the last read. Missing: 428 `precondition_required`; stale: 412 `precondition_failed`; weak, `*` or malformed: 400 `invalid_precondition`.',
      schema: { type: 'string', maxLength: 130, pattern: '^"[^"\\s]{1,128}"$' },
    },
  },
  'header:idempotency-key': {
    key: 'IdempotencyKey',
    param: {
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        'Optional client-chosen key, 8-255 characters `[A-Za-z0-9._:-]` (UUID recommended), scoped to credential and operation and kept 24 hours. ' +
        'A replay with the same payload returns the stored response; a different payload gets 409 `idempotency_key_reused`; an invalid key gets 400 `invalid_idempotency_key`.',
      schema: { type: 'string', maxLength: 255, pattern: '^[A-Za-z0-9][A-Za-z0-9._:-]{7,254}$' },
    },
  },
};

const HEADER_DISPLAY: Record<string, string> = { 'if-match': 'If-Match', 'idempotency-key': 'Idempotency-Key' };

function parametersOf(op: OperationDefinition, components: Components): JsonSchema[] {
  const out: JsonSchema[] = [];
  const add = (location: 'path' | 'query' | 'header', obj: z.ZodObject | null) => {
    if (!obj) return;
    for (const [name, field] of Object.entries(obj.shape as Record<string, z.ZodType>)) {
      const shared = SHARED_PARAMETERS[`${location}:${name}`];
      if (shared) {
        out.push({ $ref: `#/components/parameters/${shared.key}` });
        continue;
      }
      const { schema, optional } = unwrapOptional(field);
      const json = toSchema(schema);
      const { description, ...rest } = json;
      out.push({
        name: location === 'header' ? (HEADER_DISPLAY[name] ?? name) : name,
        in: location,
        required: location === 'path' ? true : !optional,
        ...(typeof description === 'string' ? { description } : {}),
        schema: rest,
        ...(prefilled(location, !optional) ? { example: exampleOf(rest, components, name) } : {}),
      });
    }
  };
  add('path', op.request.path);
  add('query', op.request.query);
  add('header', op.request.headers);
  return out;
}

function successResponse(op: OperationDefinition, components: Components): JsonSchema {
  const json = (schema: JsonSchema) => ({ 'application/json': { schema, example: exampleOf(schema, components) } });
  const headers = headerRefs([...SUCCESS_HEADERS, ...op.responseHeaders]);
  const r = op.response;
  switch (r.kind) {
    case 'empty':
      return { description: 'Done; no content.', headers };
    case 'document':
      return {
        description: 'The OpenAPI 3.1 document of v1.',
        headers,
        content: { 'application/json': { schema: { type: 'object', additionalProperties: true } } },
      };
    case 'binary':
      return {
        description: 'The file, in one of these media types (its Content-Type says which).',
        headers,
        content: Object.fromEntries(r.mediaTypes.map((mediaType) => [mediaType, { schema: { type: 'string', contentMediaType: mediaType } }])),
      };
    case 'single':
      return {
        description: op.async ? 'Accepted; poll the asynchronous operation at Location.' : 'Resource envelope `{ data }`.',
        headers,
        content: json({ type: 'object', required: ['data'], properties: { data: toSchema(r.schema) } }),
      };
    case 'list':
      return {
        description: 'List envelope `{ data: [], meta, links }`.',
        headers,
        content: json({
          type: 'object',
          required: ['data', 'meta', 'links'],
          properties: {
            data: { type: 'array', items: toSchema(r.schema) },
            meta: toSchema(ListMeta),
            links: toSchema(ListLinks),
          },
        }),
      };
  }
}

function securityOf(op: OperationDefinition): JsonSchema[] {
  if (!op.authenticated) return [];
  if (op.anyOfScopes.length === 0) return [{ [SECURITY_SCHEME]: [...op.scopes] }];
  // any-of: one alternative requirement per any-of scope (OpenAPI ORs the array entries)
  return op.anyOfScopes.map((s) => ({ [SECURITY_SCHEME]: [...op.scopes, s] }));
}

function operationObject(op: OperationDefinition, components: Components, errors: ErrorResponses): JsonSchema {
  const parameters = parametersOf(op, components);
  const responses: Record<string, unknown> = { [String(op.success)]: successResponse(op, components) };
  for (const sent of sentErrors(op)) responses[String(sent.status)] = errors.ref(sent);
  responses['500'] = { $ref: `#/components/responses/${INTERNAL_ERROR}` };
  let requestBody: JsonSchema | undefined;
  if (op.request.body) {
    const { schema, optional } = unwrapOptional(op.request.body);
    const json = toSchema(schema);
    requestBody = { required: !optional, content: { 'application/json': { schema: json, example: exampleOf(json, components) } } };
  }
  const notes: string[] = [];
  if (op.description) notes.push(op.description);
  if (op.authenticated) {
    const scopeText = op.scopes.length > 0 ? op.scopes.map((s) => `\`${s}\``).join(' + ') : 'none beyond a valid credential';
    notes.push(`Scopes: ${scopeText}${op.anyOfScopes.length > 0 ? `, plus one of ${op.anyOfScopes.map((s) => `\`${s}\``).join(', ')}` : ''}.`);
    if (op.overlayScopes.length > 0) notes.push(`Overlay scopes (widen, never grant): ${op.overlayScopes.map((s) => `\`${s}\``).join(', ')}.`);
  } else {
    notes.push('Public: no credential required.');
  }
  if (op.concurrency === 'cas') notes.push('Compare-and-set: send the last read `version` as `expectedVersion`; 409 `version_conflict` when stale.');
  return {
    operationId: op.operationId,
    summary: op.summary,
    description: notes.join('\n\n'),
    tags: [op.family],
    security: securityOf(op),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses,
    'x-scopes': [...op.scopes],
    'x-any-of-scopes': [...op.anyOfScopes],
    'x-overlay-scopes': [...op.overlayScopes],
    'x-dynamic-scopes': op.dynamicScopes,
    'x-concurrency': op.concurrency,
    'x-idempotent': op.idempotent,
    'x-retry': op.retry,
    'x-async': op.async,
    'x-sensitive': op.sensitive,
    'x-reveals-secret': op.revealsSecret,
  };
}

const V1_DESCRIPTION = `Scoped v1 API of the work-management service. Generated from the operation registry (\`libs/registry\`); do not edit.

## Endpoint and credentials
Requests go to the regional endpoint derived from the credential; bearer requests are never redirected across regions. Send \`Authorization: Bearer <credential>\` with a personal access token (\`svc_pat_v2_\`), a service-account credential (\`svc_sa_v2_\`) or a legacy v1 credential (\`svc_sk_v1_\`). v0 team tokens are not v1 credentials.

## Scopes
Each operation lists its required scopes (all of them) in \`security\` and \`x-scopes\`. \`x-any-of-scopes\` adds "at least one of" (expressed as alternative security requirements). \`x-overlay-scopes\` only widen a result (reveal or permit fields) and never grant access alone: finance overlays (${FINANCE_OVERLAY_SCOPES.join(', ')}), \`time-entries:billing\` on time-entry reads and \`members:pii:read\` on member and invitation reads. \`x-dynamic-scopes\` names request-dependent rules: \`requested-domains\` (every requested resource domain needs its read scope), \`target-resource\` (the target's read scope), \`automation-flow\` (scopes implied by the flow), \`authorization-filtered\` (results limited to readable types). Sensitive scopes: ${SENSITIVE_SCOPES.join(', ')}. Insufficient scope yields 403 \`insufficient_scope\`.

## Envelope and pagination
Single resources are returned as \`{ "data": {...} }\`; lists as \`{ "data": [...], "meta": { "limit", "nextCursor" }, "links": { "next" } }\`. Lists use cursor pagination: pass \`cursor\` (opaque, from \`meta.nextCursor\`) and \`limit\` (1-${CURSOR_PAGE_MAX_LIMIT}, default ${CURSOR_PAGE_DEFAULT_LIMIT}); persist the cursor when present. Clients must ignore unknown response fields. Request bodies are strict: unknown attributes are rejected with 400; PATCH bodies carry only the attributes that change.

## Input rules
Request bodies are \`application/json\` in UTF-8 and nothing else: any other media type (a form-encoded body included), a charset other than UTF-8 or a \`Content-Encoding\` other than \`identity\` answers 415 \`unsupported_media_type\`; bytes that are not UTF-8, a key repeated within one object, \`__proto__\` or \`constructor.prototype\` keys and nesting deeper than 32 levels answer 400 \`invalid_json\`. No text (body string or key, query or path value) may hold NUL or another control character except tab, line feed and carriage return, nor a lone UTF-16 surrogate; percent-encoding must decode to UTF-8: 400 \`validation_failed\` naming the pointer or parameter. Dates are 0001-01-01 to 9999-12-31 and timestamps lie between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z (UTC), including results of date arithmetic (\`startedAt\` + \`durationSeconds\`); integer query and path parameters are decimal digits only (no sign, spaces, exponent, hex or fraction). A value the database cannot store is 400 \`validation_failed\`, never a 5xx.

## Concurrency
\`x-concurrency: if-match\` (the 14 protected project, task and project-template mutations): send the strong revision from \`ETag\` / \`revision\` in \`If-Match\`; missing gives 428 \`precondition_required\`, stale 412 \`precondition_failed\`, malformed 400 \`invalid_precondition\`. \`x-concurrency: cas\` (31 operations): send the last read \`version\` as \`expectedVersion\` in the body; stale gives 409 \`version_conflict\`.

## Idempotency and retries
Operations with \`x-idempotent: true\` accept an optional \`Idempotency-Key\` header (8-255 characters \`[A-Za-z0-9._:-]\`, scoped to credential and operation, kept 24 hours): a replay with the same payload returns the first response again (the key is completed in the same transaction as the change, so a retry after a lost response never runs the operation twice), a different payload gets 409 \`idempotency_key_reused\`, an invalid key 400 \`invalid_idempotency_key\`. Operations that reveal a one-time secret never take a key. \`x-retry\` is the official client's automatic-retry class: \`safe\` (GET), \`idempotent\`, \`guarded\` (fully guarded planned-work replacement) and \`never\`. Retry 429 after \`Retry-After\` (else exponential backoff with jitter) and transient 5xx with bounded backoff; never drop a required precondition.

## Asynchronous operations
\`x-async: true\` operations answer 202 with an \`AsyncOperation\` and its \`Location\`.

## Rate limits and correlation
Responses carry \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\` (Unix time in milliseconds); 429 adds \`Retry-After\` (seconds). Budgets are per authenticated credential and operation class (reads, writes), however the \`Authorization\` scheme is spelled; requests without a valid credential (none, refused, public or unknown routes) count against their client address, and a valid credential never does: callers refused at the same address (behind one NAT) cannot spend or block its budget. A resource id in the path counts in one spelling (UUIDs in lower case), so its budget is the same however the id is written. \`X-Request-Id\` equals \`meta.requestId\` of the error document.

## Errors
Errors use the error document \`{ "errors": [{ "code", "detail", "status", "title", "source": { "pointer" } }], "meta": { "requestId" } }\`. Each operation's error responses name the codes it sends under each status (\`x-error-codes\`, each with when it is sent and an example error document); \`validation_failed\` (400) is sent by every operation whose request does not match its schemas, an undeclared query parameter included. A dependency that is unreachable (PostgreSQL, Redis, the auth service) answers 503 \`service_unavailable\` with \`Retry-After\`, never a 500; no error carries internals. A path that is no operation answers 404 \`route_not_found\`; a path of this document with a method it does not list answers 405 \`method_not_allowed\` with \`Allow\` naming its methods (both before authentication: they restate this public document). Every operation, implemented or not, checks the credential (401) and its scopes (403) first; an operation not implemented yet then answers 501 \`not_implemented\`.

## ETags and conditional reads
Every single-resource response carries a strong \`ETag\`: the revision (\`"3"\`) for revisioned resources (the value \`If-Match\` compares), otherwise a digest of the exact representation. A GET whose \`If-None-Match\` names the current ETag answers 304 without a body.

## Resource grants
A service-account credential acts within its scopes and its account's resource grants: a resource it may not read answers 404 like a missing one, a readable one it may not change answers 403 \`insufficient_grant\`, creating needs a grant on every resource of the type (\`resourceId: null\`) with write access, and lists, the change feed and webhook deliveries show only granted resources. A grant names a resource domain, or \`appointments\` / \`absences\`, which bound the delegated calendar routes (\`/v1/members/{id}/appointments\`, \`…/absences\`, \`…/availability\`); an \`insufficient_grant\` detail names the grant, as \`PUT /v1/service-accounts/{id}/resource-grants\` takes it, that would allow the request.

## Project sharing
A project without access-control entries (\`GET/PUT /v1/projects/{id}/sharing\`) is open to every member and service account whose scopes (and grants) allow. A project with entries is visible only to the principals they name (a member, the members of a group, a service account) and to workspace administrators (a member credential holding both \`roles:write\` and \`members:write\`): to anyone else it and everything that belongs to it (its tasks, time entries, planned work, statements, task recurrences, comments, activity, documents and custom-field values) answer 404 like missing resources and are left out of lists, search, exports, the change feed and webhook deliveries. \`viewer\` reads; \`editor\` also changes the project and what belongs to it; \`manager\` also replaces the entries. A write the caller's entry does not allow answers 403 \`insufficient_project_access\`. Only a manager or an administrator replaces the entries, and an open project's first entries are an administrator's to set, so nobody can add themselves. v0 team tokens keep their team-wide access.

## Change feed
\`GET /v1/changes\` reads the durable feed in commit order: each entry's \`id\` is the workspace's event sequence. Persist \`meta.nextCursor\` and resume from it; it is never null (when the feed is caught up it points at its end, and \`links.next\` is null). A page may hold fewer entries than \`limit\` (even none) when events are filtered out by authorization; its cursor still advances. Each entry names its event (\`type\`, \`eventId\`); with \`include=payload\` it also carries the event payload, so an entry holds everything a signed webhook delivery of that event sends (\`type\`, \`occurredAt\` as \`timestamp\`, \`id\` as \`sequence\`, \`data\`, and \`eventId\` as \`webhook-id\`): the CLI's \`workcell listen\` forwards the feed to a local receiver that way. The feed and webhooks apply the same authorization to each event.

## Webhooks (signed, v2)
Deliveries follow Standard Webhooks: \`POST\` to the subscription URL (https; http only to a loopback host outside production) with a JSON body \`{ "type", "timestamp", "sequence", "data": { "resourceType", "resourceId", "action", "payload" } }\` and the headers \`webhook-id\` (the event id, the same on every retry: deduplicate on it), \`webhook-timestamp\` (Unix seconds of this attempt), \`webhook-signature\` (\`v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">\`, keyed with the base64 part of the one-time \`whsec_\` signing secret; several space-separated signatures may appear during a rotation) and \`webhook-sequence\` (the event's per-workspace change-feed sequence, also \`sequence\` in the body: the \`id\` of its \`GET /v1/changes\` entry). Any 2xx acknowledges; 410 Gone disables the subscription at once (\`disabledReason: receiver_gone\`, no retry); anything else, a redirect or a timeout (10 s by default) is retried with exponential backoff (30 s × 2^(attempt−1), 8 attempts by default), after which the delivery is \`failed\` in the delivery history with its \`failureReason\`. Delivery is at least once and **not ordered**: events are sent concurrently and retried independently, so a later event may arrive before an earlier one. Order and deduplicate by \`sequence\` (strictly increasing per workspace in commit order; a gap means an event you were not sent or that is still in flight), or read \`GET /v1/changes\` for an ordered, gap-free feed. An event is delivered only if the subscription owner may read its resource at delivery time, as a GET would (its scopes, finance overlays, project sharing, ownership of exports and subscriptions and, for service accounts, resource grants). A subscription belongs to the credential that created it (a rotation hands it to the successor): only that credential reads, changes or removes it and reads its delivery history; a workspace administrator (settings.api.serviceAccounts.manage) sees metadata and may only disable it. When the owning credential is revoked, expires or its member or service account is no longer active, the subscription becomes \`disabled\` with a \`disabledReason\` and a \`webhook.disabled\` event. In production, receivers on private, loopback or link-local addresses are refused. The top-level \`webhooks\` object of this document describes the request.`;

/** The delivery request every signed (v2) webhook subscription receives (OpenAPI 3.1 `webhooks`). */
const WEBHOOK_DELIVERY = {
  event: {
    post: {
      summary: 'A signed event delivery',
      description: 'Sent to the subscription URL for each subscribed event the owner may read; verify the signature (Standard Webhooks) before trusting the body.',
      operationId: 'receiveWebhookEvent',
      // The receiver authenticates the request by its signature, not by a credential.
      security: [],
      parameters: [
        { name: 'webhook-id', in: 'header', required: true, description: 'The event id; the same on every retry of this event.', schema: { type: 'string', format: 'uuid' } },
        { name: 'webhook-timestamp', in: 'header', required: true, description: 'Unix seconds of this attempt; reject stale ones.', schema: { type: 'string', pattern: '^[0-9]+$' } },
        { name: 'webhook-signature', in: 'header', required: true, description: 'Space-separated `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`.', schema: { type: 'string' } },
        {
          name: 'webhook-sequence',
          in: 'header',
          required: true,
          description: 'The event’s per-workspace change-feed sequence (decimal; the `id` of its GET /v1/changes entry). Deliveries are not ordered: order and deduplicate by it.',
          schema: { type: 'string', pattern: '^[0-9]+$' },
        },
      ],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['type', 'timestamp', 'sequence', 'data'],
              properties: {
                type: { type: 'string', description: 'The event type, e.g. `task.updated` (see GET /v1/event-catalog).' },
                timestamp: { type: 'string', format: 'date-time', description: 'When the event occurred.' },
                sequence: {
                  type: 'string',
                  pattern: '^[0-9]+$',
                  description: 'The event’s per-workspace change-feed sequence (the `webhook-sequence` header): strictly increasing in commit order; order and deduplicate by it.',
                },
                data: {
                  type: 'object',
                  required: ['resourceType', 'resourceId', 'action', 'payload'],
                  properties: {
                    resourceType: { type: 'string', description: 'The resource domain, e.g. `tasks`.' },
                    resourceId: { type: 'string', format: 'uuid' },
                    action: { type: 'string', enum: ['created', 'updated', 'archived', 'restored', 'deleted'] },
                    payload: { type: 'object', description: 'The event payload (never finance fields the owner may not read).' },
                  },
                },
              },
            },
          },
        },
      },
      responses: {
        '2XX': { description: 'Acknowledged; no retry.' },
        '410': { description: 'Gone: the subscription is disabled at once (`disabledReason: receiver_gone`); no retry.' },
        default: { description: 'Anything else (or a timeout or redirect): retried with exponential backoff.' },
      },
    },
  },
} as const;

export function buildV1Document(ops: readonly OperationDefinition[], digest: string): JsonSchema {
  const components = allComponents();
  const errors = new ErrorResponses(ops);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of ops) {
    const item = (paths[op.path] ??= {});
    item[op.method.toLowerCase()] = operationObject(op, components, errors);
  }
  const responses = { ...errors.all(), [INTERNAL_ERROR]: internalErrorResponse() };
  const usedFamilies = new Set(ops.map((op) => op.family));
  const parameters = Object.fromEntries(
    Object.values(SHARED_PARAMETERS).map((p) => [
      p.key,
      prefilled(p.param['in'] as string, p.param['required'] === true) ? { ...p.param, example: exampleOf(p.param['schema'] as JsonSchema, components, p.param['name'] as string) } : p.param,
    ]),
  );
  const reachable = reachableSchemas({ paths, responses }, components);
  const schemas = Object.fromEntries([...reachable].sort().map((id) => [id, components[id]]));
  const errorDocumentId = componentId(ErrorDocument);
  if (!errorDocumentId || !schemas[errorDocumentId]) throw new Error('ErrorDocument component missing');

  return {
    openapi: '3.1.0',
    info: {
      title: 'Work-management service API v1',
      version: '1.0.0',
      description: V1_DESCRIPTION,
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      'x-registry-digest': digest,
      'x-operation-count': ops.length,
    },
    servers: [
      {
        url: '{regional_base_url}',
        description: 'Production: the regional endpoint derived from the credential (no cross-region redirects).',
        'x-internal': false,
        variables: {
          regional_base_url: { default: 'https://eu1.api.workcell.invalid', description: 'Regional v1 base URL of the credential.' },
        },
      },
    ],
    tags: V1_FAMILIES.filter((f) => usedFamilies.has(f)).map((f) => ({ name: f, description: FAMILY_DESCRIPTIONS[f] })),
    paths,
    webhooks: WEBHOOK_DELIVERY,
    components: {
      securitySchemes: {
        [SECURITY_SCHEME]: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'svc_pat_v2_* | svc_sa_v2_* | svc_sk_v1_*',
          description:
            'Reveal-once scoped bearer credential. The prefix is only an untrusted routing hint; the cell verifies workspace, region, cell, audience, expiry, revocation, workspace lock and scopes. Requirement entries list the required scopes.',
        },
      },
      parameters,
      headers: HEADERS,
      responses,
      schemas,
    },
  };
}
