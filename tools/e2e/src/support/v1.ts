import assert from 'node:assert/strict';
import { getV1Operation } from '@workcell/registry';
import type { components } from '@workcell/sdk';
import type { RunningApp } from '@workcell/testing';

/** Request and assertion helpers shared by the v1 end-to-end tests. */

/** A schema of the v1 contract as the SDK declares it (generated from the registry), e.g. `Schema<'Task'>`. */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];
export type ErrorItem = { code: string; detail: string; status: string; source?: { pointer?: string; parameter?: string } };
export type ListBody<T> = { data: T[]; meta: { limit: number; nextCursor: string | null }; links: { next: string | null } };
export interface Reply<T = unknown> {
  readonly status: number;
  readonly body: T;
  readonly headers: Headers;
}

/** Sends a JSON request with a bearer token and returns status, parsed body and headers. */
export async function callApi<T = unknown>(app: RunningApp, method: string, path: string, token: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply<T>> {
  const res = await fetch(`${app.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T, headers: res.headers };
}

export function errorOf(reply: Reply): ErrorItem {
  const item = (reply.body as { errors?: ErrorItem[] } | undefined)?.errors?.[0];
  assert.ok(item, `expected an error document, got ${reply.status} ${JSON.stringify(reply.body)}`);
  return item;
}

/** The reply is the v1 error document with this status and code (and, if given, a JSON pointer). */
export function assertProblem(reply: Reply, status: number, code: string, pointer?: string): void {
  assert.equal(reply.status, status, JSON.stringify(reply.body));
  const item = errorOf(reply);
  assert.equal(item.code, code, JSON.stringify(reply.body));
  if (pointer !== undefined) {
    const pointers = (reply.body as { errors: ErrorItem[] }).errors.map((e) => e.source?.pointer);
    assert.ok(pointers.includes(pointer), `expected pointer ${pointer} in ${JSON.stringify(reply.body)}`);
  }
}

/** The response body's data has exactly the fields of the registry's response schema and parses with it. */
export function assertShape(operationId: string, data: unknown): void {
  const response = getV1Operation(operationId).response;
  assert.ok(response.kind === 'single' || response.kind === 'list');
  const schema = response.schema as unknown as { shape: Record<string, unknown>; safeParse(v: unknown): { success: boolean; error?: unknown } };
  const parsed = schema.safeParse(data);
  assert.ok(parsed.success, `${operationId}: ${JSON.stringify(parsed.error)}`);
  // Every property the schema requires is present, and nothing it does not declare (an optional one may be absent).
  const shape = schema.shape as Record<string, { safeParse(v: unknown): { success: boolean } }>;
  const required = Object.keys(shape).filter((key) => !shape[key]!.safeParse(undefined).success);
  const keys = Object.keys(data as object);
  assert.deepEqual(
    keys.filter((key) => !(key in shape)),
    [],
    `${operationId}: undeclared properties`,
  );
  assert.deepEqual(
    required.filter((key) => !keys.includes(key)),
    [],
    `${operationId}: missing properties`,
  );
}

/** Every item of a list, following links.next page by page. */
export async function listAllPages<T>(app: RunningApp, path: string, token: string): Promise<T[]> {
  const items: T[] = [];
  let next: string | null = path;
  while (next !== null) {
    const reply: Reply<ListBody<T>> = await callApi<ListBody<T>>(app, 'GET', next, token);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    items.push(...reply.body.data);
    next = reply.body.links.next;
  }
  return items;
}
