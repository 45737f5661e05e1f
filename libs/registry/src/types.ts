import type { z } from 'zod';
import type { V1Scope } from './scopes.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Resource families of v1 (section 2 resources plus the scope-only families). */
export const V1_FAMILIES = [
  'meta',
  'auth',
  'workspace',
  'workspace-settings',
  'projects',
  'project-templates',
  'tasks',
  'task-recurrences',
  'time-entries',
  'contacts',
  'call-notes',
  'contact-groups',
  'users',
  'lists',
  'services',
  'tags',
  'custom-field-definitions',
  'custom-field-values',
  'planned-work',
  'appointments',
  'absences',
  'availability',
  'activity',
  'comments',
  'documents',
  'files',
  'products',
  'product-groups',
  'project-statements',
  'members',
  'invitations',
  'roles',
  'groups',
  'search',
  'exports',
  'automations',
  'integrations',
  'credentials',
  'service-accounts',
  'resource-grants',
  'changes',
  'events',
  'webhooks',
  'audit',
] as const;
export type V1Family = (typeof V1_FAMILIES)[number];

/**
 * - `if-match`: one of the 14 protected project / task / project-template
 *   mutations; a strong revision is REQUIRED in `If-Match` (428 when missing,
 *   412 when stale, 400 `invalid_precondition` when malformed).
 * - `cas`: one of the 31 compare-and-set operations; the request body carries
 *   the domain validator `expectedVersion` (409 `version_conflict` when stale).
 * - `none`: no precondition.
 */
export type Concurrency = 'if-match' | 'cas' | 'none';

/**
 * Automatic-retry class used by the official client (contract 7.4):
 * `safe` GET, `idempotent` POST with Idempotency-Key, `guarded` fully guarded
 * replacement (planned work), `never` everything else.
 */
export type RetryClass = 'safe' | 'idempotent' | 'guarded' | 'never';

/**
 * Scope requirements that depend on the request and therefore cannot be a
 * static list; the handler MUST enforce them in addition to `scopes`:
 * - `requested-domains`: every resource domain named by the request (search
 *   `types`, export `resourceTypes`) needs its `<domain>:read` scope.
 * - `target-resource`: the target named by `targetType` (or, for an operation
 *   on a stored resource, that resource's target) needs its read scope (the
 *   static `anyOfScopes` is the necessary pre-check); enforced by the domain
 *   kernel's `kernel/targets.ts` (`requireTargetScope`, `resolveTarget`).
 * - `automation-flow`: writes also need the scopes implied by the flow's actions.
 * - `authorization-filtered`: results are filtered to resource types whose read
 *   scope the credential holds (no 403; items are omitted).
 */
export type DynamicScopeRule = 'requested-domains' | 'target-resource' | 'automation-flow' | 'authorization-filtered';

export type SuccessStatus = 200 | 201 | 202 | 204;
export type V1ErrorStatus = 400 | 401 | 403 | 404 | 409 | 410 | 412 | 413 | 415 | 428 | 429 | 503;

export type ResponseHeaderName = 'ETag' | 'Cache-Control' | 'Location';

/* eslint-disable @typescript-eslint/no-explicit-any */
export type AnyZodObject = z.ZodObject<any>;
/* eslint-enable @typescript-eslint/no-explicit-any */

export type ResponseSpec =
  /** `{ data: <schema> }` */
  | { readonly kind: 'single'; readonly schema: z.ZodType }
  /** `{ data: <schema>[], meta: ListMeta, links: ListLinks }` */
  | { readonly kind: 'list'; readonly schema: z.ZodType }
  /** no body (204) */
  | { readonly kind: 'empty' }
  /** a raw JSON document that is not enveloped (the OpenAPI document) */
  | { readonly kind: 'document' }
  /** a file, not enveloped, in one of these media types (what the Content-Type says, parameters aside) */
  | { readonly kind: 'binary'; readonly mediaTypes: readonly [string, ...string[]] };

export interface RequestSchemas {
  readonly path: AnyZodObject | null;
  readonly query: AnyZodObject | null;
  /** header names are lower-case (as Node delivers them) */
  readonly headers: AnyZodObject | null;
  readonly body: z.ZodType | null;
}

/** One v1 operation. Built by the helpers in `v1/builders.ts`, checked with `satisfies`. */
export interface OperationDefinition {
  readonly operationId: string;
  readonly method: HttpMethod;
  readonly path: `/v1${string}`;
  readonly family: V1Family;
  readonly summary: string;
  readonly description: string | null;
  /** all-of */
  readonly scopes: readonly V1Scope[];
  /** at least one of (empty = no any-of requirement) */
  readonly anyOfScopes: readonly V1Scope[];
  /** scopes that widen the result (reveal fields / permit fields) but never grant access alone */
  readonly overlayScopes: readonly V1Scope[];
  readonly dynamicScopes: DynamicScopeRule | null;
  readonly authenticated: boolean;
  readonly concurrency: Concurrency;
  /** POST that accepts an `Idempotency-Key` header */
  readonly idempotent: boolean;
  readonly retry: RetryClass;
  readonly async: boolean;
  readonly sensitive: boolean;
  /** the response carries a reveal-once secret (never replayable, hence never idempotent) */
  readonly revealsSecret: boolean;
  readonly success: SuccessStatus;
  readonly errors: readonly V1ErrorStatus[];
  readonly responseHeaders: readonly ResponseHeaderName[];
  readonly request: RequestSchemas;
  /** Largest request body in bytes, where it is not the server's DEFAULT_BODY_LIMIT (a larger body answers 413). */
  readonly bodyLimit: number | null;
  readonly response: ResponseSpec;
}

/** Largest request body (bytes) of every operation that does not declare its own `bodyLimit`. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

export type V0Availability = 'supported' | 'deprecated-alias' | 'unavailable';
export type V0MigrationClass = 'equivalent' | 'adaptation-required' | 'retained-v0';
export type V0Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** One frozen v0 operation (contract 4.1-4.3). */
export interface V0OperationDefinition {
  /** generated stable name for OpenAPI (v0 has no operation names of its own) */
  readonly operationId: string;
  readonly method: V0Method;
  readonly path: string;
  readonly resource: string;
  readonly summary: string;
  readonly availability: V0Availability;
  readonly migrationClass: V0MigrationClass;
  readonly v1OperationId: string | null;
  readonly authenticated: boolean;
  readonly pathParams: readonly string[];
  /** `page`/`limit` query (4.2; applied consistently to collection and `/{_id}` GETs) */
  readonly pageQuery: boolean;
  /** POST and PUT carry a required broad JSON body (4.1) */
  readonly body: 'required' | 'none';
  /** `deprecated-alias` collection writes carry the id in the body */
  readonly bodyAlias: boolean;
  readonly request: {
    readonly path: AnyZodObject | null;
    readonly query: AnyZodObject | null;
    readonly body: z.ZodType | null;
  };
  /** always [200, 201, 204, 400, 401, 429] (4.1) */
  readonly responses: readonly [200, 201, 204, 400, 401, 429];
}

/** Row of `generated/operations.json` (v1): the columns of the definition it projects (rows.ts writes them in the file's key order). */
export type V1OperationRow = Pick<
  OperationDefinition,
  'operationId' | 'method' | 'path' | 'family' | 'scopes' | 'anyOfScopes' | 'overlayScopes' | 'authenticated' | 'concurrency' | 'idempotent' | 'retry' | 'async' | 'sensitive'
>;

/** Row of `generated/operations.json` (v0). */
export type V0OperationRow = Pick<V0OperationDefinition, 'method' | 'path' | 'availability' | 'migrationClass' | 'v1OperationId' | 'authenticated'>;
