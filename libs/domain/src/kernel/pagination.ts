import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AppConfig } from '@workcell/config';
import { DomainError } from './errors.js';

/**
 * Cursor pagination over a stable order. Rows are ordered by id: ids are UUIDv7, so id order is creation
 * order and unique, and "id > last id" (a keyset seek on the (workspace_id, id) primary key) costs the
 * same on page 1 and page 10,000. Rows inserted or archived while a client pages never shift the pages
 * of rows that existed throughout. The cursor is opaque and tamper-evident: it carries the last id and
 * what it belongs to (workspace, list, filter), signed with a key derived from the server secret, so an
 * edited, truncated or foreign cursor is refused with 400 invalid_cursor.
 */

export interface CursorScope {
  readonly workspaceId: string;
  /** The list operation, e.g. listCredentials. */
  readonly list: string;
  /** Anything that changes which rows the list holds (filters); a cursor is valid only with the same. */
  readonly filter?: Readonly<Record<string, unknown>>;
}

export interface PageRequest {
  readonly cursor?: string | undefined;
  readonly limit: number;
}

export interface Page<T> {
  readonly items: readonly T[];
  readonly nextCursor: string | null;
}

/** Each configuration's cursor key, derived once: every page's cursor is signed, and deriving it was a third HMAC per page. */
const keys = new WeakMap<AppConfig, Buffer>();

function key(config: AppConfig): Buffer {
  let derived = keys.get(config);
  if (derived === undefined) {
    derived = createHmac('sha256', config.credentialSecret).update('workcell-cursor-v1').digest();
    keys.set(config, derived);
  }
  return derived;
}

function scopeDigest(scope: CursorScope): string {
  return createHmac('sha256', 'scope')
    .update(JSON.stringify([scope.workspaceId, scope.list, scope.filter ?? {}]))
    .digest('base64url')
    .slice(0, 16);
}

function sign(config: AppConfig, payload: string): string {
  return createHmac('sha256', key(config)).update(payload).digest('base64url').slice(0, 22);
}

export function encodeCursor(config: AppConfig, scope: CursorScope, lastId: string): string {
  const payload = Buffer.from(JSON.stringify({ v: 1, s: scopeDigest(scope), a: lastId })).toString('base64url');
  return `${payload}.${sign(config, payload)}`;
}

const invalid = () => new DomainError('validation_failed', 'the cursor is not valid for this list', [{ pointer: '', parameter: 'cursor', message: 'invalid_cursor' }], { reason: 'invalid_cursor' });

/** The id after which the page starts, or undefined for the first page. */
export function decodeCursor(config: AppConfig, scope: CursorScope, cursor: string | undefined): string | undefined {
  if (cursor === undefined) return undefined;
  const [payload, signature, extra] = cursor.split('.');
  if (!payload || !signature || extra !== undefined) throw invalid();
  const expected = Buffer.from(sign(config, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalid();
  let parsed: { v?: unknown; s?: unknown; a?: unknown };
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as typeof parsed;
  } catch {
    throw invalid();
  }
  if (parsed.v !== 1 || parsed.s !== scopeDigest(scope) || typeof parsed.a !== 'string') throw invalid();
  return parsed.a;
}

/**
 * Runs a keyset query for one page: `fetch(afterId, take)` must return rows of the scope with id > afterId
 * in ascending id order. One extra row is asked for to know whether a next page exists. A list ordered by another
 * unique key (the event log's sequence) names it with `keyOf`.
 */
export async function paginate<T extends { readonly id: string }>(
  config: AppConfig,
  scope: CursorScope,
  request: PageRequest,
  fetch: (afterId: string | undefined, take: number) => Promise<readonly T[]>,
  keyOf: (row: T) => string = (row) => row.id,
): Promise<Page<T>> {
  const afterId = decodeCursor(config, scope, request.cursor);
  const rows = await fetch(afterId, request.limit + 1);
  const items = rows.slice(0, request.limit);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > request.limit && last !== undefined ? encodeCursor(config, scope, keyOf(last)) : null };
}
