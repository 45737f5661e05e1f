import { z } from 'zod';
import { CalendarToken, legacyPageQuery, LegacyId, LegacyWritePayload } from '../schemas/legacy.js';
import type { V0Availability, V0Method, V0MigrationClass, V0OperationDefinition } from '../types.js';

/**
 * 2026-01-01T00:00:00Z, the date v0 (0.4.5) was declared deprecated in favour of v1: the `Deprecation` header
 * (RFC 9745, `@<unix seconds>`) of every deprecated-alias and unavailable operation, and the v0 document.
 */
export const V0_DEPRECATED_AT = Date.UTC(2026, 0, 1) / 1000;

/** Public v0 operations (4.2: "Auth none"); everything else needs the team token. */
const PUBLIC_PATHS: ReadonlySet<string> = new Set(['/', '/calendar/{token}.ics']);

function operationIdOf(method: V0Method, path: string): string {
  if (path === '/') return `legacy${method[0]}${method.slice(1).toLowerCase()}Root`;
  const parts = path
    .split('/')
    .filter(Boolean)
    .map((seg) => {
      const param = /^\{(\w+)\}(.*)$/.exec(seg);
      const word = param ? `By_${param[1] === '_id' ? 'id' : (param[1] ?? '')}${(param[2] ?? '').replace('.', '_')}` : seg;
      return word
        .split(/[_.]/)
        .filter(Boolean)
        .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
        .join('');
    });
  return `legacy${method.charAt(0)}${method.slice(1).toLowerCase()}${parts.join('')}`;
}

/**
 * One row of contract 4.3, with the parameters of 4.2. Parameter rule (4.2,
 * applied consistently where 4.2 says "not shown"): every GET except `GET /`
 * takes `page`/`limit`; `{_id}` / `{token}` are required path parameters;
 * POST and PUT carry a required broad JSON body; DELETE declares no body.
 */
export function v0op(method: V0Method, path: string, availability: V0Availability, migrationClass: V0MigrationClass, v1OperationId: string | null): V0OperationDefinition {
  const pathParams = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? '');
  const pageQuery = method === 'GET' && path !== '/';
  const body = method === 'POST' || method === 'PUT' ? 'required' : 'none';
  const resource = path === '/' ? 'root' : (path.split('/')[1] ?? 'root');
  return {
    operationId: operationIdOf(method, path),
    method,
    path,
    resource,
    summary: `${method} ${path} (frozen v0)`,
    availability,
    migrationClass,
    v1OperationId,
    authenticated: !PUBLIC_PATHS.has(path),
    pathParams,
    pageQuery,
    body,
    bodyAlias: (method === 'PUT' || method === 'DELETE') && pathParams.length === 0 && path !== '/',
    request: {
      path: pathParams.length === 0 ? null : z.strictObject(Object.fromEntries(pathParams.map((p) => [p, p === 'token' ? CalendarToken : LegacyId]))),
      query: pageQuery ? z.object(legacyPageQuery) : null,
      body: body === 'required' ? LegacyWritePayload : null,
    },
    responses: [200, 201, 204, 400, 401, 429],
  };
}
