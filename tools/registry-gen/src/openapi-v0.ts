import { getV1Operation, LegacyError, LegacyResponse, V0_DEPRECATED_AT, type V0OperationDefinition, type V1OperationId } from '@workcell/registry';
import type { z } from 'zod';
import { exampleOf } from './examples.js';
import { allComponents, reachableSchemas, toSchema, unwrapOptional, type JsonSchema } from './json-schema.js';

const SECURITY_SCHEME = 'apiToken';

const RESOURCE_DESCRIPTIONS: Record<string, string> = {
  root: 'Discovery redirect.',
  calendar: 'Calendar token feed (retained on v0; no v1 replacement).',
  callnotes: 'Call notes (v1: /v1/call-notes).',
  contactgroups: 'Contact groups (v1: /v1/contact-groups).',
  contacts: 'Contacts (v1: /v1/contacts).',
  journalEntries: 'Journal entries (v1: project statements).',
  lists: 'Lists (v1: /v1/lists).',
  productgroups: 'Product groups (v1: /v1/product-groups).',
  products: 'Products (v1: /v1/products).',
  projects: 'Projects (v1: /v1/projects).',
  projectTemplates: 'Project templates (v1: /v1/project-templates).',
  scheduledWork: 'Scheduled work (v1: planned work).',
  services: 'Services (v1: /v1/services).',
  tags: 'Tags (v1: /v1/tags).',
  tasks: 'Tasks (v1: /v1/tasks).',
  teams: 'Team (v1: the workspace).',
  times: 'Time entries (v1: /v1/time-entries).',
  users: 'Users (v1: /v1/users).',
  webhooks: 'Legacy unsigned webhooks (v1: signed v2 subscriptions).',
};

const V0_DESCRIPTION = `Frozen legacy compatibility contract 0.4.5 of the work-management service. New integrations use v1. Generated from the operation registry (\`libs/registry\`); do not edit.

## Servers and tokens
Served from \`{base_url}\` and from \`{base_url_alt}\`. Authenticated operations (\`x-authenticated: true\`) require \`Authorization: Bearer <API_TOKEN>\`. A token belongs to exactly one team and can use every authenticated v0 operation for that team; the server applies the token's team to every write. \`GET /teams\` confirms a token. v0 tokens are not v1 credentials.

## Operation flags
Every operation carries \`x-authenticated\`, \`x-contract-status: frozen-legacy\`, \`x-availability\` (\`supported\`, \`deprecated-alias\`, \`unavailable\` = the frozen route is unavailable and v1 is the replacement), \`x-migration-class\` and \`x-v1-operation-id\` (null for the calendar feed). \`deprecated-alias\` collection writes carry the resource id in the body; \`deprecated-alias\` and \`unavailable\` operations are marked deprecated.

## Parameters and payloads
\`page\` (integer, minimum 1) and \`limit\` (integer, 1-500) are accepted by every GET except \`GET /\` (the contract shows them for list and \`/{_id}\` GETs and for the calendar feed; the same rule is applied to the resources whose parameters it does not show). POST and PUT take a required broad JSON body; payload fields are not part of the frozen contract. Integers (\`page\`, \`limit\`) are decimal digits only (no sign, spaces, exponent, hex or fraction). A body must be \`application/json\` in UTF-8 without a \`Content-Encoding\` other than \`identity\` (otherwise 415 in the legacy error shape); no text of a request (body, query or path) may hold NUL, another control character except tab, line feed and carriage return, or invalid UTF-8; dates and timestamps lie in years 0001-9999 (UTC). Any of these, and any value the database cannot store, is a 400 \`invalid_request\`.

## Responses and errors
Every operation declares 200, 201, 204, 400, 401 and 429; besides, each declares what the service really sends: 302 on \`GET /\` (to v1's discovery document), \`text/calendar\` on the calendar feed, 404 on the \`/{_id}\` operations and the calendar feed, and 403 on every authenticated operation (a locked team). 200, 201 and 400 use a broad legacy response shape; errors (401, 429, and the 400/403/404 error bodies) use the legacy error shape \`{ "error": { "code", "message" } }\`. 403: team locked, or operation not possible; \`unavailable\` operations declare it as the status of their refusal (code \`forbidden\`, naming the v1 replacement, after authentication, with nothing read or written); 404: resource or route does not exist (another team's resource answers exactly like a missing one); 405: a path of this document with a method it does not list (code \`method_not_allowed\`, \`Allow\` names its methods; before authentication); 5xx: not completed.

## Deprecation
\`deprecated-alias\` and \`unavailable\` operations answer with \`Deprecation: @<unix seconds>\` (RFC 9745) and \`Link: <v1 successor>; rel="successor-version"\`; nothing else about their frozen shapes changes.

## Rate limits and retries
100 requests per minute per API token and URL path: the authenticated token however the \`Bearer\` scheme is spelled, and the decoded path (\`/teams\` and \`/team%73\` are one path); requests without a valid token count against the client address and path. 429 carries \`Retry-After\` (seconds) when known. v0 creates are not idempotent: a retried create after a timeout may create a duplicate.`;

type Components = Readonly<Record<string, JsonSchema>>;

function parametersOf(op: V0OperationDefinition, components: Components): JsonSchema[] {
  const out: JsonSchema[] = [];
  const add = (location: 'path' | 'query', obj: z.ZodObject | null) => {
    if (!obj) return;
    for (const [name, field] of Object.entries(obj.shape as Record<string, z.ZodType>)) {
      if (location === 'query' && (name === 'page' || name === 'limit')) {
        out.push({ $ref: `#/components/parameters/${name === 'page' ? 'Page' : 'Limit'}` });
        continue;
      }
      const { schema, optional } = unwrapOptional(field);
      const { description, ...rest } = toSchema(schema);
      out.push({
        name,
        in: location,
        required: location === 'path' ? true : !optional,
        ...(typeof description === 'string' ? { description } : {}),
        schema: rest,
        example: exampleOf(rest, components, name),
      });
    }
  };
  add('path', op.request.path);
  add('query', op.request.query);
  return out;
}

/** The discovery redirect (apps/api-v0 meta) and the iCalendar feed (apps/api-v0 calendar): v0's non-JSON answers. */
export const ROOT_OPERATION = 'legacyGetRoot';
export const CALENDAR_OPERATION = 'legacyGetCalendarByTokenIcs';

function operationObject(op: V0OperationDefinition, components: Components): JsonSchema {
  const parameters = parametersOf(op, components);
  const notes = [op.v1OperationId ? `v1 replacement: \`${op.v1OperationId}\` (${op.migrationClass}).` : 'No v1 replacement; remains on v0.'];
  if (op.bodyAlias) notes.push('Legacy body alias: the resource id is carried in the request body.');
  if (op.availability === 'unavailable') notes.push('Unavailable: the frozen route is not served; use the v1 replacement.');
  let requestBody: JsonSchema | undefined;
  if (op.request.body) {
    const { schema } = unwrapOptional(op.request.body);
    const json = toSchema(schema);
    requestBody = { required: true, content: { 'application/json': { schema: json, example: exampleOf(json, components) } } };
  }
  return {
    operationId: op.operationId,
    summary: op.summary,
    description: notes.join(' '),
    tags: [op.resource],
    ...(op.availability === 'supported' ? {} : { deprecated: true }),
    security: op.authenticated ? [{ [SECURITY_SCHEME]: [] }] : [],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses: {
      // What the v0 app sends beyond the frozen six (contract 3): GET / redirects to v1's discovery document.
      ...(op.operationId === ROOT_OPERATION ? { '302': { $ref: '#/components/responses/LegacyDiscoveryRedirect' } } : {}),
      '200': { $ref: `#/components/responses/${op.operationId === CALENDAR_OPERATION ? 'LegacyCalendarFeed' : op.availability === 'deprecated-alias' ? 'LegacyOkDeprecated' : 'LegacyOk'}` },
      '201': { $ref: '#/components/responses/LegacyCreated' },
      '204': { $ref: `#/components/responses/${op.availability === 'deprecated-alias' ? 'LegacyNoContentDeprecated' : 'LegacyNoContent'}` },
      '400': { $ref: '#/components/responses/LegacyBadRequest' },
      '401': { $ref: '#/components/responses/LegacyUnauthorized' },
      // The status chosen for refusing an unavailable operation (contract 7.1: "the operation cannot be performed"),
      // and on every authenticated operation the refusal of a locked team's token (contract 7.1, 403).
      ...(op.availability === 'unavailable' ? { '403': { $ref: '#/components/responses/LegacyUnavailable' } } : op.authenticated ? { '403': { $ref: '#/components/responses/LegacyTeamLocked' } } : {}),
      // A `/{_id}` operation names a resource: an unknown id, or another team's, answers 404.
      ...(op.path.includes('{_id}') || op.operationId === CALENDAR_OPERATION ? { '404': { $ref: '#/components/responses/LegacyNotFound' } } : {}),
      '429': { $ref: '#/components/responses/LegacyTooManyRequests' },
    },
    'x-authenticated': op.authenticated,
    'x-contract-status': 'frozen-legacy',
    'x-availability': op.availability,
    'x-migration-class': op.migrationClass,
    'x-v1-operation-id': op.v1OperationId,
  };
}

/** The refusal of the first unavailable operation, as apps/api-v0 (legacy/deprecation.ts) words it. */
function unavailableMessage(ops: readonly V0OperationDefinition[]): string {
  const op = ops.find((o) => o.availability === 'unavailable');
  if (!op) return 'the frozen route is unavailable in v0';
  const successor = op.v1OperationId ? getV1Operation(op.v1OperationId as V1OperationId) : null;
  return `${op.method} ${op.path} is unavailable in v0${successor ? `; use v1 ${successor.operationId} (${successor.method} ${successor.path}) instead` : ''}`;
}

export function buildV0Document(ops: readonly V0OperationDefinition[]): JsonSchema {
  const components = allComponents();
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of ops) {
    const item = (paths[op.path] ??= {});
    item[op.method.toLowerCase()] = operationObject(op, components);
  }
  const pageParameter = (name: string, description: string, schema: JsonSchema) => ({ name, in: 'query', required: false, description, schema, example: exampleOf(schema, components, name) });
  const broadSchema = toSchema(LegacyResponse);
  const broad = { 'application/json': { schema: broadSchema, example: exampleOf(broadSchema, components) } };
  /** The legacy error shape with the code the platform sends for this response (libs/http protocols.ts). */
  const error = (code: string, message: string) => ({ 'application/json': { schema: toSchema(LegacyError), example: { error: { code, message } } } });
  const deprecationHeaders = {
    Deprecation: {
      description: `RFC 9745: when v0 was deprecated, as \`@<unix seconds>\` (\`@${V0_DEPRECATED_AT}\`).`,
      schema: { type: 'string', pattern: '^@[0-9]+$', examples: [`@${V0_DEPRECATED_AT}`] },
    },
    Link: {
      description: 'The v1 successor operation: `<{v1 base}{v1 path}>; rel="successor-version"` (the id filled in when the request names one).',
      schema: { type: 'string' },
    },
  };
  const responses = {
    LegacyOk: { description: 'Success with data (broad legacy response shape).', content: broad },
    LegacyOkDeprecated: { description: 'Success with data (broad legacy response shape); a deprecated-alias operation.', headers: deprecationHeaders, content: broad },
    LegacyNoContentDeprecated: { description: 'Success, no body; a deprecated-alias operation.', headers: deprecationHeaders },
    LegacyUnavailable: {
      description:
        'The frozen route is unavailable: refused after authentication with code `forbidden`, naming the v1 replacement; nothing is read or written. A token of a locked team is refused with 403 `team_locked` first.',
      headers: deprecationHeaders,
      content: error('forbidden', unavailableMessage(ops)),
    },
    LegacyTeamLocked: {
      description: "The token's team is locked: refused after authentication with code `team_locked`; nothing is read or written.",
      content: error('team_locked', 'the team is locked'),
    },
    LegacyNotFound: {
      description: "No resource with this `_id` in the token's team (another team's resource answers exactly like a missing one); on the calendar feed, no feed with this token.",
      content: error('not_found', 'the resource does not exist'),
    },
    LegacyDiscoveryRedirect: {
      description: "`GET /` redirects to v1's discovery document; no body.",
      headers: {
        Location: { description: 'The v1 discovery document: `{v1 base}/v1`.', schema: { type: 'string', format: 'uri' } },
        'Cache-Control': { description: '`public, max-age=300`.', schema: { type: 'string' } },
      },
    },
    LegacyCalendarFeed: {
      description: "The member's iCalendar feed (RFC 5545), `Cache-Control: private, max-age=300`.",
      content: { 'text/calendar': { schema: { type: 'string' }, example: 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Workcell//Calendar Feed 0.4.5//EN\r\nEND:VCALENDAR\r\n' } },
    },
    LegacyCreated: { description: 'Resource created (broad legacy response shape).', content: broad },
    LegacyNoContent: { description: 'Success, no body.' },
    LegacyBadRequest: {
      description: 'Body, selector or parameters invalid. Broad legacy response shape; the service sends the legacy error shape.',
      content: {
        'application/json': {
          schema: { anyOf: [toSchema(LegacyError), broadSchema] },
          example: { error: { code: 'invalid_request', message: 'the request does not match the operation: limit must be at most 500' } },
        },
      },
    },
    LegacyUnauthorized: {
      description: 'Token missing, malformed or invalid (legacy error shape, no team data).',
      headers: {
        'WWW-Authenticate': {
          description: 'RFC 6750 challenge: `Bearer realm="workcell-v0"`, plus `error="invalid_token"` when a bearer token was presented.',
          schema: { type: 'string' },
        },
      },
      content: error('unauthorized', 'the API token is missing, malformed or invalid'),
    },
    LegacyTooManyRequests: {
      description: 'Rate limit exceeded (100 requests per minute per API token and URL path).',
      headers: {
        'Retry-After': { description: 'Minimum seconds to wait before retrying.', schema: { type: 'integer', format: 'int32', minimum: 0, maximum: 86_400 } },
      },
      content: error('rate_limited', 'too many requests; retry after the window resets'),
    },
  };
  const reachable = reachableSchemas({ paths, responses }, components);
  const schemas = Object.fromEntries([...reachable].sort().map((id) => [id, components[id]]));
  const usedResources = [...new Set(ops.map((op) => op.resource))];

  return {
    openapi: '3.1.0',
    info: {
      title: 'Work-management service API v0 (frozen legacy)',
      version: '0.4.5',
      description: V0_DESCRIPTION,
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      'x-contract-status': 'frozen-legacy',
      'x-operation-count': ops.length,
    },
    servers: [
      {
        url: '{base_url}',
        description: 'Production: the primary base address.',
        'x-internal': false,
        variables: { base_url: { default: 'https://api.workcell.invalid', description: 'The {base_url} of the deployment.' } },
      },
      {
        url: '{base_url_alt}',
        description: 'Production: the alternate base address.',
        'x-internal': false,
        variables: {
          base_url_alt: { default: 'https://legacy.workcell.invalid', description: 'The {base_url_alt} of the deployment.' },
        },
      },
    ],
    tags: usedResources.map((r) => ({ name: r, description: RESOURCE_DESCRIPTIONS[r] ?? r })),
    paths,
    components: {
      securitySchemes: {
        [SECURITY_SCHEME]: {
          type: 'http',
          scheme: 'bearer',
          description: 'Team-scoped v0 API token: `Authorization: Bearer <API_TOKEN>`.',
        },
      },
      parameters: {
        Page: pageParameter('page', 'Page number, minimum 1, in decimal digits only.', { type: 'integer', format: 'int64', minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
        Limit: pageParameter('limit', 'Page size, 1-500, in decimal digits only.', { type: 'integer', format: 'int32', minimum: 1, maximum: 500 }),
      },
      responses,
      schemas,
    },
  };
}
