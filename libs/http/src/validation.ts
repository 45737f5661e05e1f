import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { DomainError, type FieldIssue, issuesOf } from '@workcell/domain';
import { findV1Operation, v0Operations } from '@workcell/registry';
import { type ApiGeneration, operationParameter } from './operations.js';

/** What a handler receives: the request's parts, parsed by the operation's registry schemas. */
export interface OperationInput<Path = Record<string, string>, Query = Record<string, unknown>, Body = unknown, Headers = Record<string, string>> {
  readonly path: Path;
  readonly query: Query;
  readonly body: Body;
  readonly headers: Headers;
}

/** Headers with their own protocol (428/412/400 invalid_precondition, idempotency conflicts), not plain validation. */
const PROTOCOL_HEADERS = ['if-match'];

type AnySchema = z.ZodType;

function parameterIssues(error: z.ZodError, where: 'path' | 'query' | 'header'): FieldIssue[] {
  return error.issues.map((issue) => {
    const name = issue.path.length > 0 ? String(issue.path[0]) : issue.code === 'unrecognized_keys' ? (issue as { keys: string[] }).keys.join(', ') : where;
    return { pointer: '', parameter: name, message: `${where} parameter ${name}: ${issue.message}` };
  });
}

function parse(schema: AnySchema | null, value: unknown, where: 'path' | 'query' | 'header' | 'body', issues: FieldIssue[]): unknown {
  if (!schema) return value;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  issues.push(...(where === 'body' ? issuesOf(result.error) : parameterIssues(result.error, where)));
  return undefined;
}

const v0ById = new Map(v0Operations.map((op) => [op.operationId, op]));

type V1Operation = NonNullable<ReturnType<typeof findV1Operation>>;
const headerSchemas = new Map<string, { names: readonly string[]; check: AnySchema | null }>();

/** The header schema of a v1 operation (its declared headers but the protocol ones), built once per operation, not per request. */
function headerSchemaOf(op: V1Operation): { names: readonly string[]; check: AnySchema | null } {
  let schema = headerSchemas.get(op.operationId);
  if (!schema) {
    const shape = Object.entries(op.request.headers?.shape ?? {}).filter(([name]) => !PROTOCOL_HEADERS.includes(name));
    schema = { names: shape.map(([name]) => name), check: shape.length > 0 ? z.object(Object.fromEntries(shape)) : null };
    headerSchemas.set(op.operationId, schema);
  }
  return schema;
}

/**
 * Characters no text of the API may hold, in any body string (or key), query value or path value: NUL (PostgreSQL
 * text cannot store it, so it used to end as a 500) and every other C0 control character except tab, line feed
 * and carriage return (which multi-line text keeps). None of them means anything in a name, a note or an id, and
 * they break logs, exports and the calendar feed. Lone UTF-16 surrogates (`"\ud800"` in JSON) are refused too:
 * they cannot be encoded as UTF-8 and would be stored as U+FFFD.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const FORBIDDEN_CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function textProblem(value: string): string | null {
  if (FORBIDDEN_CONTROL.test(value)) return 'must not contain NUL or other control characters (only tab, line feed and carriage return are allowed)';
  if (LONE_SURROGATE.test(value)) return 'must be valid Unicode (a lone surrogate is not)';
  return null;
}

const escapePointer = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** Every string and key of a parsed JSON body, with its JSON pointer (iterative: the depth is attacker-chosen). */
function bodyTextIssues(body: unknown, issues: FieldIssue[]): void {
  const stack: Array<[unknown, string]> = [[body, '']];
  while (stack.length > 0 && issues.length < 20) {
    const [value, pointer] = stack.pop()!;
    if (typeof value === 'string') {
      const problem = textProblem(value);
      if (problem) issues.push({ pointer, message: `${pointer || 'the body'} ${problem}` });
    } else if (Array.isArray(value)) {
      value.forEach((item, index) => stack.push([item, `${pointer}/${index}`]));
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        const at = `${pointer}/${escapePointer(key)}`;
        const problem = textProblem(key);
        if (problem) issues.push({ pointer: at, message: `the key at ${at} ${problem}` });
        stack.push([item, at]);
      }
    }
  }
}

function parameterTextIssues(values: unknown, where: 'path' | 'query', issues: FieldIssue[]): void {
  if (values === null || typeof values !== 'object') return;
  for (const [name, value] of Object.entries(values)) {
    for (const text of [name, ...[value].flat()]) {
      const problem = typeof text === 'string' ? textProblem(text) : null;
      if (problem) {
        const badName = textProblem(name) !== null;
        issues.push({ pointer: '', parameter: badName ? where : name, message: badName ? `a ${where} parameter name ${problem}` : `${where} parameter ${name} ${problem}` });
        break;
      }
    }
  }
}

function decodes(component: string): boolean {
  try {
    decodeURIComponent(component);
    return true;
  } catch {
    return false;
  }
}

/**
 * The raw URL's percent-encoding must decode to UTF-8 (`%FF`, `%C3%28` or a stray `%` would otherwise reach the
 * handler as U+FFFD or as the undecoded text).
 */
function urlEncodingIssues(url: string, issues: FieldIssue[]): void {
  const at = url.indexOf('?');
  const path = at < 0 ? url : url.slice(0, at);
  if (!decodes(path)) issues.push({ pointer: '', parameter: 'path', message: 'the path is not valid percent-encoded UTF-8' });
  if (at < 0) return;
  for (const pair of url.slice(at + 1).split('&')) {
    const [name = '', value = ''] = pair.replace(/\+/g, ' ').split(/=(.*)/s);
    if (!decodes(name) || !decodes(value)) {
      const shown = decodes(name) ? decodeURIComponent(name) : 'query';
      issues.push({ pointer: '', parameter: shown, message: `query parameter ${shown}: not valid percent-encoded UTF-8` });
    }
  }
}

/** How deeply a JSON body may nest objects and arrays; no operation's payload comes near it. */
export const MAX_JSON_DEPTH = 32;

/**
 * For a body `JSON.parse` accepted: why its structure is refused, or null. A key repeated in one object (JSON
 * parsers disagree about which value wins; RFC 7493 forbids it) and nesting deeper than MAX_JSON_DEPTH are 400s,
 * so a payload means one thing and costs what its size says. One pass over the text.
 */
export function jsonStructureProblem(text: string): string | null {
  const objects: Array<Set<string> | null> = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      let j = i + 1;
      while (j < text.length && text.charCodeAt(j) !== 0x22) j += text.charCodeAt(j) === 0x5c ? 2 : 1;
      const keys = objects[objects.length - 1];
      if (expectKey && keys) {
        const key = JSON.parse(text.slice(i, j + 1)) as string;
        if (keys.has(key)) return `the key ${JSON.stringify(key.slice(0, 64))} appears more than once in one object`;
        keys.add(key);
      }
      expectKey = false;
      i = j;
    } else if (c === 0x7b || c === 0x5b) {
      objects.push(c === 0x7b ? new Set() : null);
      if (objects.length > MAX_JSON_DEPTH) return `the body nests objects and arrays deeper than ${MAX_JSON_DEPTH} levels`;
      expectKey = c === 0x7b;
    } else if (c === 0x7d || c === 0x5d) {
      objects.pop();
      expectKey = false;
    } else if (c === 0x2c) {
      expectKey = objects[objects.length - 1] instanceof Set;
    }
  }
  return null;
}

/**
 * What no operation accepts, whatever its schema says: undecodable URLs, and text PostgreSQL cannot store or that
 * only an attacker sends. Checked over the raw request (every query parameter, not only the declared ones: some
 * v0 handlers read the raw query) before the registry schemas, so no handler ever sees it.
 */
export function hostileInputIssues(request: Pick<FastifyRequest, 'url' | 'params' | 'query' | 'body'>): FieldIssue[] {
  const issues: FieldIssue[] = [];
  urlEncodingIssues(request.url, issues);
  parameterTextIssues(request.params, 'path', issues);
  parameterTextIssues(request.query, 'query', issues);
  bodyTextIssues(request.body, issues);
  return issues;
}

/**
 * Validates an API request against its operation's registry schemas (the same zod objects the OpenAPI documents are
 * generated from) before the handler runs: path, query, headers and body, all problems at once, each with a JSON
 * pointer (body) or the parameter's name. The compiled request path (operation-routes.ts) calls it after
 * authentication, so an unauthenticated caller learns nothing about an operation's inputs.
 */
export function validateOperationInput(generation: ApiGeneration, operationId: string, request: FastifyRequest): OperationInput {
  const hostile = hostileInputIssues(request);
  if (hostile.length > 0) throw new DomainError('validation_failed', `the request holds text no operation accepts`, hostile);
  const issues: FieldIssue[] = [];
  let input: OperationInput;
  if (generation === 'v1') {
    const op = findV1Operation(operationId);
    if (!op) throw new Error(`unknown v1 operation ${operationId}`);
    const query = request.query as Record<string, unknown>;
    if (!op.request.query && Object.keys(query).length > 0) {
      issues.push(...Object.keys(query).map((name) => ({ pointer: '', parameter: name, message: `query parameter ${name} is not accepted by ${operationId}` })));
    }
    const { names: headerNames, check: headerCheck } = headerSchemaOf(op);
    const headerValues = Object.fromEntries(headerNames.map((name) => [name, request.headers[name]]));
    input = {
      path: parse(op.request.path, request.params, 'path', issues) as Record<string, string>,
      query: parse(op.request.query, query, 'query', issues) as Record<string, unknown>,
      headers: parse(headerCheck, headerValues, 'header', issues) as Record<string, string>,
      body: parse(op.request.body, request.body ?? undefined, 'body', issues),
    };
  } else {
    const op = v0ById.get(operationId);
    if (!op) throw new Error(`unknown v0 operation ${operationId}`);
    input = {
      path: parse(op.request.path, request.params, 'path', issues) as Record<string, string>,
      query: parse(op.request.query, request.query, 'query', issues) as Record<string, unknown>,
      headers: {},
      body: parse(op.request.body, request.body ?? undefined, 'body', issues),
    };
  }
  if (issues.length > 0) throw new DomainError('validation_failed', `the request does not match ${operationId}`, issues);
  return input;
}

/** The request's parts as parsed by the operation's registry schemas (validateOperationInput). */
export const Input = (): ParameterDecorator => operationParameter('input');
