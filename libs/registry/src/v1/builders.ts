import { z } from 'zod';
import { AsyncOperation, IDEMPOTENCY_KEY_HEADER, IF_MATCH_HEADER, IdempotencyKey, IfMatch, paginationQuery, ResourceId } from '../schemas/common.js';
import { isSensitiveScope, type V1Scope } from '../scopes.js';
import type { Concurrency, DynamicScopeRule, HttpMethod, OperationDefinition, ResponseHeaderName, ResponseSpec, RetryClass, SuccessStatus, V1ErrorStatus, V1Family } from '../types.js';

/**
 * Small builders that turn a compact, reviewable spec into a complete,
 * explicit `OperationDefinition`. Every derived field follows one documented
 * rule (see docs/registry.md) and the tests re-check those rules on
 * the built data:
 *
 * - idempotent = POST && concurrency none && authenticated && !revealsSecret
 * - retry      = GET -> safe | idempotent -> idempotent | guarded -> guarded | never
 * - sensitive  = a required or any-of scope is marked sensitive in 5.3
 * - errors     = 400 401 403 429 503 (+404 with a path id, +409 for writes,
 *                +412/428 for if-match, +413/415 with a body); public: 400 429 503
 *                (every operation validates its request: an undeclared query parameter is a 400)
 * - headers    = If-Match (required) for if-match, Idempotency-Key (optional) for idempotent
 */
export interface OperationSpec {
  readonly summary?: string;
  readonly description?: string;
  readonly scopes?: readonly V1Scope[];
  readonly anyOfScopes?: readonly V1Scope[];
  readonly overlayScopes?: readonly V1Scope[];
  readonly dynamicScopes?: DynamicScopeRule;
  /** public (unauthenticated) operation */
  readonly public?: boolean;
  readonly concurrency?: Concurrency;
  /** fully guarded replacement (automatic retry allowed) */
  readonly guarded?: boolean;
  /** accepted for asynchronous processing: 202 + AsyncOperation */
  readonly async?: boolean;
  readonly revealsSecret?: boolean;
  /** response carries the strong revision in ETag */
  readonly etag?: boolean;
  /** response carries `Cache-Control: private, no-store` (implied by revealsSecret: a secret is never stored by a cache) */
  readonly noStore?: boolean;
  /**
   * A 201 without `Location`: the created resource has no GET operation of its own in the fixed registry
   * (contract 5.2 rule 7), and a Location must name a route that answers GET. It is read through its collection.
   */
  readonly noLocation?: boolean;
  /** query parameters (filters of lists, options of other operations) */
  readonly query?: z.ZodRawShape;
  /** path parameter schemas other than the default ResourceId */
  readonly pathParams?: Readonly<Record<string, z.ZodType>>;
  readonly extraErrors?: readonly V1ErrorStatus[];
  /** Largest request body in bytes, where the server's DEFAULT_BODY_LIMIT is too small for what the operation takes. */
  readonly bodyLimit?: number;
}

export interface BodySpec extends OperationSpec {
  readonly body: z.ZodType;
}
export interface DataSpec extends OperationSpec {
  readonly data: z.ZodType;
}
export interface ActionSpec extends OperationSpec {
  readonly body?: z.ZodType;
  readonly success?: SuccessStatus;
  /** data schema of a `{ data }` response; omit for 204 (or for async) */
  readonly data?: z.ZodType;
  readonly response?: ResponseSpec;
}

type V1Path = `/v1${string}`;

function summaryFromId(operationId: string): string {
  const words = operationId
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(' ')
    .map((w) => w.toLowerCase());
  const text = words
    .join(' ')
    .replace(/\bapi\b/g, 'API')
    .replace(/\bopenapi\b/g, 'OpenAPI');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function pathParamNames(path: string): string[] {
  return [...path.matchAll(/\{([A-Za-z]+)\}/g)].map((m) => m[1] ?? '');
}

function sortedErrors(set: Set<V1ErrorStatus>): V1ErrorStatus[] {
  return [...set].sort((a, b) => a - b);
}

interface Resolved {
  readonly success: SuccessStatus;
  readonly body: z.ZodType | null;
  readonly response: ResponseSpec;
  readonly paginated: boolean;
}

export function defineOperation(family: V1Family, method: HttpMethod, operationId: string, path: V1Path, spec: OperationSpec, resolved: Resolved): OperationDefinition {
  const authenticated = spec.public !== true;
  const concurrency = spec.concurrency ?? 'none';
  const revealsSecret = spec.revealsSecret === true;
  const idempotent = method === 'POST' && concurrency === 'none' && authenticated && !revealsSecret;
  const guarded = spec.guarded === true;
  if (guarded && concurrency === 'none') throw new Error(`${operationId}: a guarded operation needs a precondition`);
  const retry: RetryClass = method === 'GET' ? 'safe' : idempotent ? 'idempotent' : guarded ? 'guarded' : 'never';
  const scopes = spec.scopes ?? [];
  const anyOfScopes = spec.anyOfScopes ?? [];
  const sensitive = [...scopes, ...anyOfScopes].some(isSensitiveScope);
  const isAsync = spec.async === true;

  const params = pathParamNames(path);
  const pathSchema = params.length === 0 ? null : z.strictObject(Object.fromEntries(params.map((p) => [p, spec.pathParams?.[p] ?? ResourceId])));
  const queryShape = resolved.paginated ? { ...paginationQuery, ...spec.query } : spec.query;
  const querySchema = queryShape && Object.keys(queryShape).length > 0 ? z.strictObject(queryShape) : null;
  const headerShape: Record<string, z.ZodType> = {};
  if (concurrency === 'if-match') headerShape[IF_MATCH_HEADER] = IfMatch;
  if (idempotent) headerShape[IDEMPOTENCY_KEY_HEADER] = IdempotencyKey.optional();
  const headerSchema = Object.keys(headerShape).length > 0 ? z.object(headerShape) : null;

  const errors = new Set<V1ErrorStatus>(authenticated ? [400, 401, 403, 429, 503] : [400, 429, 503]);
  if (resolved.body !== null) {
    errors.add(413);
    errors.add(415);
  }
  if (authenticated && params.length > 0) errors.add(404);
  if (authenticated && method !== 'GET') errors.add(409);
  if (concurrency === 'if-match') {
    errors.add(412);
    errors.add(428);
  }
  for (const e of spec.extraErrors ?? []) errors.add(e);

  const responseHeaders: ResponseHeaderName[] = [];
  if (spec.etag === true) responseHeaders.push('ETag');
  if (spec.noStore === true || revealsSecret) responseHeaders.push('Cache-Control');
  if ((resolved.success === 201 || resolved.success === 202) && spec.noLocation !== true) responseHeaders.push('Location');

  return {
    operationId,
    method,
    path,
    family,
    summary: spec.summary ?? summaryFromId(operationId),
    description: spec.description ?? null,
    scopes,
    anyOfScopes,
    overlayScopes: spec.overlayScopes ?? [],
    dynamicScopes: spec.dynamicScopes ?? null,
    authenticated,
    concurrency,
    idempotent,
    retry,
    async: isAsync,
    sensitive,
    revealsSecret,
    success: resolved.success,
    errors: sortedErrors(errors),
    responseHeaders,
    request: { path: pathSchema, query: querySchema, headers: headerSchema, body: resolved.body },
    bodyLimit: spec.bodyLimit ?? null,
    response: resolved.response,
  };
}

const asyncResponse: ResponseSpec = { kind: 'single', schema: AsyncOperation };

/** Family-scoped builders; the HTTP method follows from the kind unless stated. */
export function family(name: V1Family) {
  const def = (method: HttpMethod, id: string, path: V1Path, spec: OperationSpec, r: Resolved) => defineOperation(name, method, id, path, spec, r);
  const maybeAsync = (spec: OperationSpec, success: SuccessStatus, response: ResponseSpec) => (spec.async === true ? { success: 202 as const, response: asyncResponse } : { success, response });

  return {
    /** GET collection, cursor-paginated: `{ data: [], meta, links }` */
    list: (id: string, path: V1Path, spec: OperationSpec & { readonly item: z.ZodType }) =>
      def('GET', id, path, spec, {
        success: 200,
        body: null,
        response: { kind: 'list', schema: spec.item },
        paginated: true,
      }),
    /** GET one: `{ data }` */
    get: (id: string, path: V1Path, spec: DataSpec) => def('GET', id, path, spec, { success: 200, body: null, response: { kind: 'single', schema: spec.data }, paginated: false }),
    /** POST create: 201 `{ data }` (or 202 when async) */
    create: (id: string, path: V1Path, spec: BodySpec & DataSpec) =>
      def('POST', id, path, spec, {
        ...maybeAsync(spec, 201, { kind: 'single', schema: spec.data }),
        body: spec.body,
        paginated: false,
      }),
    /** PATCH partial update: 200 `{ data }` */
    update: (id: string, path: V1Path, spec: BodySpec & DataSpec) =>
      def('PATCH', id, path, spec, {
        success: 200,
        body: spec.body,
        response: { kind: 'single', schema: spec.data },
        paginated: false,
      }),
    /** PUT atomic replacement: 200 `{ data }` */
    replace: (id: string, path: V1Path, spec: BodySpec & DataSpec) =>
      def('PUT', id, path, spec, {
        success: 200,
        body: spec.body,
        response: { kind: 'single', schema: spec.data },
        paginated: false,
      }),
    /** DELETE archive (never physical deletion): 204, or 202 when async */
    archive: (id: string, path: V1Path, spec: OperationSpec) => def('DELETE', id, path, spec, { ...maybeAsync(spec, 204, { kind: 'empty' }), body: null, paginated: false }),
    /** POST .../restore: 200 `{ data }`, or 202 when async */
    restore: (id: string, path: V1Path, spec: DataSpec) =>
      def('POST', id, path, spec, {
        ...maybeAsync(spec, 200, { kind: 'single', schema: spec.data }),
        body: null,
        paginated: false,
      }),
    /** DELETE for resources without an archive lifecycle: 204 */
    remove: (id: string, path: V1Path, spec: OperationSpec) => def('DELETE', id, path, spec, { success: 204, body: null, response: { kind: 'empty' }, paginated: false }),
    /** any other operation */
    action: (method: HttpMethod, id: string, path: V1Path, spec: ActionSpec) => {
      const response: ResponseSpec = spec.response ?? (spec.data ? { kind: 'single', schema: spec.data } : { kind: 'empty' });
      const base = spec.async === true ? { success: 202 as const, response: asyncResponse } : { success: spec.success ?? (response.kind === 'empty' ? 204 : 200), response };
      return def(method, id, path, spec, { ...base, body: spec.body ?? null, paginated: false });
    },
  };
}

export interface ArchivableCrudSpec {
  /** e.g. 'CallNote' -> listCallNotes, createCallNote, getCallNote, updateCallNote, archiveCallNote, restoreCallNote */
  readonly singular: string;
  readonly plural: string;
  /** collection path, e.g. '/v1/call-notes' */
  readonly path: V1Path;
  readonly read: readonly V1Scope[];
  readonly write: readonly V1Scope[];
  readonly resource: z.ZodType;
  readonly create: z.ZodType;
  readonly update: z.ZodType;
  /** concurrency of the update (archive/restore never carry a validator) */
  readonly updateConcurrency: Concurrency;
  readonly filters?: z.ZodRawShape;
  /** overlays on operations that return the resource */
  readonly readOverlay?: readonly V1Scope[];
  /** overlays on operations that accept resource attributes (create, update) */
  readonly writeOverlay?: readonly V1Scope[];
  /** dynamic scope rule of create and update */
  readonly writeDynamicScopes?: DynamicScopeRule;
  /** further errors and the body limit of the operations that take the resource's attributes (create, update) */
  readonly writes?: Pick<OperationSpec, 'extraErrors' | 'bodyLimit'>;
  /** what the OpenAPI document says of each operation, beyond what the registry derives (scopes, concurrency) */
  readonly descriptions?: Readonly<Partial<Record<ArchivableOperation, string>>>;
}

export type ArchivableOperation = 'list' | 'create' | 'get' | 'update' | 'archive' | 'restore';

/**
 * The six standard operations of an archivable resource:
 * `GET {path}`, `POST {path}`, `GET {path}/{id}`, `PATCH {path}/{id}`,
 * `DELETE {path}/{id}` (archive) and `POST {path}/{id}/restore`.
 */
export function archivableCrud(name: V1Family, s: ArchivableCrudSpec): OperationDefinition[] {
  const f = family(name);
  const item = `${s.path}/{id}` as V1Path;
  const readOverlay = s.readOverlay ?? [];
  const writeOverlay = [...readOverlay, ...(s.writeOverlay ?? [])];
  const writeDynamic = s.writeDynamicScopes ? { dynamicScopes: s.writeDynamicScopes } : {};
  const writes = s.writes ?? {};
  const describe = (operation: ArchivableOperation) => (s.descriptions?.[operation] === undefined ? {} : { description: s.descriptions[operation] });
  return [
    f.list(`list${s.plural}`, s.path, {
      ...describe('list'),
      scopes: s.read,
      overlayScopes: readOverlay,
      ...(s.filters ? { query: s.filters } : {}),
      item: s.resource,
    }),
    f.create(`create${s.singular}`, s.path, {
      ...describe('create'),
      ...writes,
      scopes: s.write,
      overlayScopes: writeOverlay,
      ...writeDynamic,
      body: s.create,
      data: s.resource,
    }),
    f.get(`get${s.singular}`, item, { ...describe('get'), scopes: s.read, overlayScopes: readOverlay, data: s.resource }),
    f.update(`update${s.singular}`, item, {
      ...describe('update'),
      ...writes,
      scopes: s.write,
      overlayScopes: writeOverlay,
      ...writeDynamic,
      concurrency: s.updateConcurrency,
      body: s.update,
      data: s.resource,
    }),
    f.archive(`archive${s.singular}`, item, { ...describe('archive'), scopes: s.write }),
    f.restore(`restore${s.singular}`, `${item}/restore` as V1Path, {
      ...describe('restore'),
      scopes: s.write,
      overlayScopes: readOverlay,
      data: s.resource,
    }),
  ];
}

/** One boundary of a member calendar: its scopes, what it says of itself, and what its writes take. */
export interface CalendarBoundary {
  readonly read: V1Scope;
  readonly write: V1Scope;
  /** what every operation of the boundary says first (who may act, and how) */
  readonly description: string;
  readonly create: z.ZodType;
  readonly update: z.ZodType;
}

export interface MemberCalendarSpec {
  /** the entry, e.g. 'Appointment' -> getAppointment, createMemberAppointment, listMemberAppointments, `{appointmentId}` */
  readonly singular: string;
  readonly resource: z.ZodType;
  /** the filters of both lists (the entries overlapping a window) */
  readonly window: z.ZodRawShape;
  /** what the acting member's own list says after the boundary's description */
  readonly listDescription: string;
  /** the acting member's own entries: `/v1/{family}` */
  readonly own: CalendarBoundary;
  /** another member's entries: `/v1/members/{id}/{family}`, read through the list (no GET of one) */
  readonly delegated: CalendarBoundary;
}

/**
 * The nine operations of entries in members' calendars (appointments, absences): the acting member's own
 * (list, create, get, compare-and-set update, delete) and another member's (list, create, update, delete).
 * Deleting archives: a deleted entry is 404 afterwards.
 */
export function memberCalendar(name: V1Family, s: MemberCalendarSpec): OperationDefinition[] {
  const f = family(name);
  const plural = `${s.singular}s`;
  const noun = s.singular.toLowerCase();
  const own = `/v1/${name}` as V1Path;
  const delegated = `/v1/members/{id}/${name}` as V1Path;
  const delegatedItem = `${delegated}/{${noun}Id}` as V1Path;
  return [
    f.list(`list${plural}`, own, { description: `${s.own.description} ${s.listDescription}`, scopes: [s.own.read], query: s.window, item: s.resource }),
    f.create(`create${s.singular}`, own, { description: s.own.description, scopes: [s.own.write], body: s.own.create, data: s.resource }),
    f.get(`get${s.singular}`, `${own}/{id}`, { description: s.own.description, scopes: [s.own.read], data: s.resource }),
    f.update(`update${s.singular}`, `${own}/{id}`, { description: s.own.description, scopes: [s.own.write], concurrency: 'cas', body: s.own.update, data: s.resource }),
    f.remove(`delete${s.singular}`, `${own}/{id}`, { description: `${s.own.description} Deleting archives: the ${noun} is 404 afterwards.`, scopes: [s.own.write] }),
    f.list(`listMember${plural}`, delegated, { description: s.delegated.description, scopes: [s.delegated.read], query: s.window, item: s.resource }),
    f.create(`createMember${s.singular}`, delegated, {
      description: `${s.delegated.description} No Location: another member's ${noun} has no GET of its own; it is listed by GET ${delegated}.`,
      noLocation: true,
      scopes: [s.delegated.write],
      body: s.delegated.create,
      data: s.resource,
    }),
    f.update(`updateMember${s.singular}`, delegatedItem, {
      description: s.delegated.description,
      scopes: [s.delegated.write],
      concurrency: 'cas',
      body: s.delegated.update,
      data: s.resource,
    }),
    f.remove(`deleteMember${s.singular}`, delegatedItem, { description: s.delegated.description, scopes: [s.delegated.write] }),
  ];
}
