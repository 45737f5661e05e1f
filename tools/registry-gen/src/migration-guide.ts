import { getV1Operation, type OperationDefinition, singleEnvelope, V0_DEPRECATED_AT, type V0OperationDefinition } from '@workcell/registry';
import { exampleOf } from './examples.js';
import { allComponents, toSchema } from './json-schema.js';

/**
 * The v0 → v1 migration guide (issue 15), rendered from the registry so it cannot drift from what the two
 * generations serve: for each of the v0 operations its availability, its migration class, the v1 operation that
 * replaces it and what a client must change to call it. Each change is derived from the two registry entries
 * (methods, paths, scopes, concurrency, idempotency, pagination, the body alias), never written by hand per row.
 */

/** What a client changes to move one v0 operation to its v1 replacement, in the order a developer meets it. */
export function migrationSteps(v0: V0OperationDefinition, v1: OperationDefinition | null): string[] {
  if (v1 === null) return ['none: it stays on v0 (no v1 replacement exists yet)'];
  const steps: string[] = [];
  const scopes = [...v1.scopes, ...(v1.anyOfScopes.length > 0 ? [`one of ${v1.anyOfScopes.join(', ')}`] : [])];
  if (v1.authenticated) steps.push(`credential: a v1 token with ${scopes.length > 0 ? scopes.join(', ') : 'no particular scope'} instead of the team token`);
  if (v1.overlayScopes.length > 0) steps.push(`finance fields only with ${v1.overlayScopes.join(', ')}`);
  if (v0.method !== v1.method) steps.push(`method: ${v1.method} instead of ${v0.method}${v1.method === 'PATCH' ? ' (send only the fields that change)' : ''}`);
  const v0Resource = v0.path.split('/')[1] ?? '';
  const v1Resource = v1.path.split('/')[2] ?? '';
  if (v0Resource.toLowerCase() !== v1Resource.replace(/-/g, '').toLowerCase()) steps.push(`resource renamed: /${v0Resource} is ${v1.path.split('/').slice(0, 3).join('/')}`);
  if (v0.bodyAlias) steps.push('id: in the path, no longer in the body');
  else if (v0.pathParams.includes('_id') && v1.path.includes('{id}')) steps.push('id: the path parameter `{id}` (was `{_id}`)');
  if (v1.concurrency === 'if-match') steps.push('send `If-Match` with the ETag of your last read (428 without it, 412 when stale)');
  if (v1.concurrency === 'cas') steps.push('send `expectedVersion` (the version of your last read) in the body (409 when stale)');
  if (v1.response.kind === 'list') steps.push('pages: `cursor` and `limit` instead of `page`; follow `links.next` until it is null');
  else if (v0.pageQuery) steps.push('drop `page`/`limit` (v1 single-resource reads take none)');
  if (v1.response.kind === 'single') steps.push('answer: the resource under `data`');
  if (v1.response.kind === 'list') steps.push('answer: the items under `data`, with `meta` and `links`');
  if (v1.idempotent) steps.push('retries: send an `Idempotency-Key` (v0 creates may duplicate on retry)');
  return steps;
}

const AVAILABILITY: Record<V0OperationDefinition['availability'], string> = {
  supported: 'supported',
  'deprecated-alias': 'deprecated alias',
  unavailable: '**unavailable** (403 on v0)',
};

function row(v0: V0OperationDefinition): string {
  const v1 = v0.v1OperationId === null ? null : getV1Operation(v0.v1OperationId);
  const target = v1 === null ? '—' : `\`${v1.method} ${v1.path}\` (${v1.operationId})`;
  const cells = [`\`${v0.method} ${v0.path}\``, AVAILABILITY[v0.availability], v0.migrationClass, target, migrationSteps(v0, v1).join('; ')];
  return `| ${cells.map((cell) => cell.replace(/\|/g, '\\|')).join(' | ')} |`;
}

/** What differs in bodies: the v0 resource is the v1 resource with `_id` for `id` (the v0 app's one mapper). */
const BODIES = [
  '## Bodies: `_id` → `id` and the envelope',
  '',
  'A v0 resource is the v1 resource with one field renamed; every other field has the same name, type and meaning.',
  '',
  '| v0 | v1 |',
  '| --- | --- |',
  '| `_id` | `id` |',
  '| the resource at the top level | the resource under `data` |',
  '| a JSON array of resources (`page`, `limit`: 1-500, default 100) | `{ "data": [...], "meta": { "limit", "nextCursor" }, "links": { "next" } }` (`cursor`, `limit`) |',
  '| write bodies: unknown fields (`team`, `teamId`, `_id` outside the aliases, …) are ignored | write bodies are strict: an undeclared field is 400 `validation_failed` naming it |',
  "| write bodies: the token's team applies | the credential's workspace applies; no workspace id is sent |",
  '| deprecated aliases: `_id` in the body of `PUT`/`DELETE` on the collection | the id in the path of `PATCH`/`DELETE /v1/<resource>/{id}` |',
  '| legacy webhook: `{ _id, url, events, createdAt, updatedAt }`, no secret | subscription: `{ id, url, … }` and `signingSecret` once at creation (below) |',
  '',
];

/**
 * v0's error statuses and legacy codes, and the v1 status and codes of the same refusal: the platform renders one
 * problem in each generation's shape (v0: the legacy code table and v0's status adaptation; a test checks each row
 * against that rendering).
 */
export const V0_ERROR_MAPPING: ReadonlyArray<{ readonly v0Status: number; readonly v0Code: string; readonly v1: ReadonlyArray<readonly [status: number, codes: readonly string[]]> }> = [
  {
    v0Status: 400,
    v0Code: 'invalid_request',
    v1: [
      [400, ['validation_failed', 'invalid_json', 'invalid_precondition']],
      [409, ['conflict', 'version_conflict', 'hierarchy_cycle', 'timer_already_running', 'timer_not_running']],
      [412, ['precondition_failed']],
    ],
  },
  { v0Status: 401, v0Code: 'unauthorized', v1: [[401, ['unauthenticated', 'credential_expired', 'credential_revoked']]] },
  { v0Status: 403, v0Code: 'team_locked', v1: [[403, ['workspace_locked']]] },
  { v0Status: 403, v0Code: 'forbidden', v1: [[403, ['forbidden', 'insufficient_scope']]] },
  { v0Status: 404, v0Code: 'not_found', v1: [[404, ['not_found', 'route_not_found']]] },
  { v0Status: 405, v0Code: 'method_not_allowed', v1: [[405, ['method_not_allowed']]] },
  { v0Status: 413, v0Code: 'payload_too_large', v1: [[413, ['payload_too_large']]] },
  { v0Status: 415, v0Code: 'unsupported_media_type', v1: [[415, ['unsupported_media_type']]] },
  { v0Status: 429, v0Code: 'rate_limited', v1: [[429, ['rate_limit_exceeded']]] },
  { v0Status: 503, v0Code: 'service_unavailable', v1: [[503, ['service_unavailable']]] },
];

function errorMapping(): string[] {
  return [
    '## Errors: v0 status → v1 codes',
    '',
    'v0 answers `{ "error": { "code", "message" } }` with a frozen status; v1 answers the error document with a finer',
    "code per refusal. The same refusal, in each generation (v0 knows no 409 or 412: a write the resource's state refuses",
    'is a 400 there):',
    '',
    '| v0 status | v0 `error.code` | v1 status: `errors[].code` |',
    '| --- | --- | --- |',
    ...V0_ERROR_MAPPING.map((row) => `| ${row.v0Status} | \`${row.v0Code}\` | ${row.v1.map(([status, codes]) => `${status}: ${codes.map((c) => `\`${c}\``).join(', ')}`).join('; ')} |`),
    '',
    'v1 adds refusals v0 never sends for the v0 operations (e.g. 409 `idempotency_key_reused`, 428 `precondition_required`);',
    "each v1 operation's reference entry lists the codes it sends. A 401 in v1 says why (`credential_expired`,",
    '`credential_revoked`); retry only 429 and 503, after `Retry-After`.',
    '',
  ];
}

const WEBHOOKS = [
  '## Webhooks: unsigned v0 → signed v2',
  '',
  '- **v0 webhooks** (`/webhooks`) post an **unsigned** body `{ event, _id, teamId, resourceId, createdAt, data }`: a',
  '  receiver cannot tell a delivery from a forgery. They keep working while v0 does.',
  '- **v1 subscriptions** (`POST /v1/webhooks`, scope `webhooks:write`) are signed per',
  '  [Standard Webhooks](https://www.standardwebhooks.com/): each delivery carries `webhook-id`, `webhook-timestamp`,',
  '  `webhook-signature` (`v1,<base64 HMAC-SHA256 over "<webhook-id>.<webhook-timestamp>.<body>">`) and',
  '  `webhook-sequence`; the body is `{ type, timestamp, sequence, data: { resourceType, resourceId, action, payload } }`.',
  '- **The secret is shown once**: `signingSecret` (`whsec_…`) is in the response that creates the subscription and',
  '  never again (not in `GET`, not in logs). Store it then; a lost secret means rotating it (`PATCH /v1/webhooks/{id}`',
  '  answers a new one, once, and signs with both during the overlap) or a new subscription.',
  '- **Verify every delivery** with any Standard Webhooks library before trusting it, e.g.',
  '  `new Webhook(secret).verify(rawBody, headers)` (it checks the signature and refuses an old timestamp); verify',
  '  the raw bytes, not re-serialized JSON. Deduplicate by `webhook-id` and order by `webhook-sequence`: delivery is',
  '  at least once and not ordered.',
  '- **Switching**: create the v1 subscription, verify its deliveries, then delete the v0 webhook; during the overlap',
  "  both receive each event; v0's `_id` and v1's `webhook-id` are the same event's id, so deduplicate by it.",
  '  Details: [Webhooks](webhooks.md).',
  '',
];

const FIRST_CREDENTIAL = [
  '## A first v1 credential for a team-token holder',
  '',
  'A v0 team token belongs to the team, not to a person, and cannot be exchanged for a v1 credential. A v1 credential',
  'belongs to a member of the workspace (a personal access token) or to a service account:',
  '',
  '- **As a member**: sign in on the sign-in page (`/sign-in` of the auth service: an e-mailed link, no password),',
  '  then create a token on the account page (`/account`): a name, the scopes the tables below name, a last day',
  '  (at most 365 days ahead); the token is shown once. Or run `workcell login`, which opens the device page',
  '  (`/device`) where you approve its code, and stores the token for the CLI. Both need the member permission',
  '  `settings.api.personalCredentials`. Not a member yet: an administrator invites you (an e-mail with a link).',
  '- **For an integration that is not a person** (what a team token usually was): an administrator with',
  '  `settings.api.serviceAccounts.manage` creates a service account (`POST /v1/service-accounts`) and its',
  '  credential (`POST /v1/service-accounts/{id}/credentials`, shown once), with only the scopes it needs.',
  '- `GET /v1` (public) names the sign-in, account and device addresses of this deployment under',
  '  `data.authentication`. Details: [Authentication](authentication.md).',
  '',
];

/** One example per migration class: the first supported v0 operation of the class that fits an example. */
export const EXAMPLE_OPERATIONS = {
  equivalent: 'legacyGetTagsById',
  'adaptation-required': 'legacyPutListsById',
  'retained-v0': 'legacyGetCalendarByTokenIcs',
} as const;

const ID = '0194a1b2-c3d4-7e5f-8a6b-1c2d3e4f5a60';
const V0_TOKEN = 'wc_v0_…';
const V1_TOKEN = 'svc_pat_v2_…';

/** The v1 resource of an operation as its reference shows it, and the same resource as v0 sends it (`_id`). */
function resourceExamples(v1: OperationDefinition): { v1Body: unknown; v0Body: unknown } {
  if (v1.response.kind !== 'single') throw new Error(`${v1.operationId}: an example needs a single-resource answer`);
  const envelope = exampleOf(toSchema(singleEnvelope(v1.response.schema)), allComponents()) as { data: { id: string } & Record<string, unknown> };
  // Values a real resource would hold (the generator's placeholders otherwise: an archived tag named "Example name").
  const real = Object.fromEntries(Object.entries({ archivedAt: null, name: 'Invoices', color: '#2f80ed' }).filter(([key]) => key in envelope.data));
  const data = { ...envelope.data, ...real, id: ID };
  const { id, ...rest } = data;
  return { v1Body: { ...envelope, data }, v0Body: { _id: id, ...rest } };
}

const fence = (lang: string, ...body: string[]) => ['```' + lang, ...body, '```', ''];
const json = (value: unknown) => JSON.stringify(value, null, 2);

/** One JSON request and its 200 answer as an `http` block: the request line, the bearer token, the body if any. */
function exchange(requestLine: string, token: string, body: unknown, answer: unknown): string[] {
  const request = body === undefined ? [] : ['Content-Type: application/json', '', json(body)];
  return fence('http', requestLine, `Authorization: Bearer ${token}`, ...request, '', 'HTTP/1.1 200 OK', 'Content-Type: application/json; charset=utf-8', '', json(answer));
}

function examples(v0Operations: readonly V0OperationDefinition[]): string[] {
  const byId = new Map(v0Operations.map((op) => [op.operationId, op]));
  const op = (id: string) => {
    const found = byId.get(id);
    if (!found) throw new Error(`example operation ${id} is not in the registry`);
    return found;
  };
  const out = ['## Before and after, one example per class', ''];

  const equivalent = op(EXAMPLE_OPERATIONS.equivalent);
  const eqV1 = getV1Operation(equivalent.v1OperationId!);
  const eq = resourceExamples(eqV1);
  out.push(
    `### \`${equivalent.migrationClass}\`: \`${equivalent.method} ${equivalent.path}\` → ${eqV1.operationId}`,
    '',
    'Before (v0):',
    '',
    ...exchange(`${equivalent.method} ${equivalent.path.replace('{_id}', ID)}`, V0_TOKEN, undefined, eq.v0Body),
    `After (v1, scope ${eqV1.scopes.map((s) => `\`${s}\``).join(', ')}):`,
    '',
    ...exchange(`${eqV1.method} ${eqV1.path.replace('{id}', ID)}`, V1_TOKEN, undefined, eq.v1Body),
  );

  const adapted = op(EXAMPLE_OPERATIONS['adaptation-required']);
  const adV1 = getV1Operation(adapted.v1OperationId!);
  const ad = resourceExamples(adV1);
  const change = { ...(adV1.request.body ? (exampleOf(toSchema(adV1.request.body), allComponents()) as object) : {}), name: 'Invoices 2026' };
  out.push(
    `### \`${adapted.migrationClass}\`: \`${adapted.method} ${adapted.path}\` → ${adV1.operationId}`,
    '',
    `What changes: ${migrationSteps(adapted, adV1).join('; ')}.`,
    '',
    'Before (v0):',
    '',
    ...exchange(`${adapted.method} ${adapted.path.replace('{_id}', ID)}`, V0_TOKEN, change, { ...(ad.v0Body as object), ...(change as object) }),
    'After (v1):',
    '',
    ...exchange(`${adV1.method} ${adV1.path.replace('{id}', ID)}`, V1_TOKEN, change, { ...(ad.v1Body as object), data: { ...(ad.v1Body as { data: object }).data, ...(change as object) } }),
  );

  const retained = op(EXAMPLE_OPERATIONS['retained-v0']);
  out.push(
    `### \`${retained.migrationClass}\`: \`${retained.method} ${retained.path}\``,
    '',
    'No v1 replacement: keep calling v0. The feed token in the URL is the credential (no `Authorization`).',
    '',
    ...fence(
      'http',
      `${retained.method} ${retained.path.replace('{token}', '<feed token>')}`,
      '',
      'HTTP/1.1 200 OK',
      'Content-Type: text/calendar; charset=utf-8',
      'Cache-Control: private, max-age=300',
      '',
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//Workcell//Calendar Feed 0.4.5//EN',
      '…',
      'END:VCALENDAR',
    ),
  );
  return out;
}

export function renderMigrationGuide(v0Operations: readonly V0OperationDefinition[]): string {
  const byResource = new Map<string, V0OperationDefinition[]>();
  for (const op of v0Operations) byResource.set(op.resource, [...(byResource.get(op.resource) ?? []), op]);
  const count = (predicate: (op: V0OperationDefinition) => boolean) => v0Operations.filter(predicate).length;
  const deprecatedOn = new Date(V0_DEPRECATED_AT * 1000).toISOString().slice(0, 10);
  const lines = [
    '<!-- GENERATED by @workcell/registry-gen from the operation registry. Do not edit: regenerate. -->',
    '# Moving from v0 to v1',
    '',
    `Each of the ${v0Operations.length} frozen v0 operations, with its v1 replacement and what a client changes to call it.`,
    `${count((op) => op.availability === 'supported')} are supported, ${count((op) => op.availability === 'deprecated-alias')} are deprecated aliases and`,
    `${count((op) => op.availability === 'unavailable')} are unavailable on v0 (they answer 403 naming their v1 replacement); ${count((op) => op.migrationClass === 'equivalent')} are`,
    `\`equivalent\` in v1, ${count((op) => op.migrationClass === 'adaptation-required')} need adaptation and ${count((op) => op.migrationClass === 'retained-v0')} ${count((op) => op.migrationClass === 'retained-v0') === 1 ? 'stays' : 'stay'} on v0. Deprecated and unavailable v0 operations`,
    'send `Deprecation` and a `Link` to their successor ([v0](v0.md)). A v1 operation of the reference that the',
    'server does not implement yet answers 501 `not_implemented` (after the credential and scope checks).',
    '',
    'What changes for every call:',
    '',
    '- **Credential**: v1 takes a scoped, reveal-once credential (a personal access token or a service-account',
    '  credential) as `Authorization: Bearer`; the v0 team token is refused (401). Ask for the smallest set of scopes',
    '  the tables below name ([Authentication](authentication.md)).',
    '- **Envelope**: a resource comes as `{ "data": … }`; a list adds `meta` (`limit`, `nextCursor`) and `links.next`.',
    '- **Errors**: one error document, `{ "errors": [{ "code", "status", "title", "detail", "source" }], "meta": { "requestId" } }`,',
    '  with the codes of [the protocol](protocol.md) instead of v0\'s `{ "error": { "code", "message" } }` (mapping below).',
    '- **Pages**: cursors instead of page numbers; a cursor is opaque and belongs to its query.',
    '- **Writes**: partial updates are `PATCH`; resources with a strong revision take `If-Match`, those with a version',
    '  `expectedVersion`; creates take an `Idempotency-Key` so a retry never duplicates.',
    "- **Ids**: always in the path (`{id}`); v0's aliases that carried `_id` in the body are gone.",
    '',
    ...BODIES,
    ...errorMapping(),
    ...WEBHOOKS,
    ...FIRST_CREDENTIAL,
    ...examples(v0Operations),
    '## Deprecation timeline',
    '',
    `- v0 has been deprecated since ${deprecatedOn} (when v1 shipped): every deprecated-alias and unavailable v0`,
    `  operation answers with \`Deprecation: @${V0_DEPRECATED_AT}\` (RFC 9745) and \`Link: <v1 successor>; rel="successor-version"\`.`,
    '- No end-of-life date is set: v0 sends **no `Sunset` header**, and every supported v0 operation keeps answering as',
    '  the frozen contract says. When a date is set it will be announced with a `Sunset` header (RFC 8594) on v0',
    '  responses before v0 stops answering; until then nothing about v0 changes without notice.',
    '- Unavailable operations already answer 403 with their v1 replacement: move those first.',
    '',
    '## The operations',
    '',
  ];
  for (const [resource, ops] of byResource) {
    lines.push(`### ${resource}`, '', '| v0 operation | v0 availability | class | v1 operation | what a client changes |', '| --- | --- | --- | --- | --- |', ...ops.map(row), '');
  }
  return lines.join('\n');
}
