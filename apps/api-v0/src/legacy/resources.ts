import { setTimeout as sleep } from 'node:timers/promises';
import { type LegacyPagedList, legacyRowAt } from '@workcell/db';
import type { z } from 'zod';
import { type CursorScope, DomainError, encodeCursor, invoke, isDomainError, type Operation, type Procedure, type ProcedureContext, type Versioned } from '@workcell/domain';
import { ProtocolError } from '@workcell/http';

/**
 * What every v0 resource operation shares (issue 5):
 * - A v0 resource is the v1 resource with `_id` instead of `id` (toLegacy, the one mapper).
 * - Collections are JSON arrays paged by `page` (≥ 1, default 1) and `limit` (1–500, default 100) over the v1
 *   list in id (creation) order: one indexed statement finds the row before the page (legacyRowAt), and the v1
 *   procedure's pages from there make the page (issue 11: the cost no longer grows with the page number).
 * - Bodies: only the resource's declared mutable attributes are taken (pick); every other field, including
 *   any team/workspace id (`team`, `teamId`, `workspaceId`, `_team`, …), is ignored: the token's team applies.
 */

export const V0_DEFAULT_LIMIT = 100;
const V1_PAGE = 200;

/** `{ id, …rest }` → `{ _id, …rest }`, keeping the key order otherwise. */
export function toLegacy<T extends { readonly id: string }>(resource: T): { _id: string } & Omit<T, 'id'> {
  const { id, ...rest } = resource;
  return { _id: id, ...rest };
}

type ListPage<T> = { readonly items: readonly T[]; readonly nextCursor: string | null };

/**
 * Where a v0 page starts: `rowAt(k)` is the id of the row at 0-based position k of the v1 list (null past its
 * end), `scope` the v1 list's cursor scope, so that the v1 procedure continues after that row.
 */
export interface LegacySeek {
  readonly rowAt: (position: number) => Promise<string | null>;
  readonly scope: CursorScope;
}

/** Page `page` of size `limit` of a cursor-paged v1 list; `seek` jumps to the page (without it, a walk from the start). */
export async function legacyPage<T>(
  ctx: ProcedureContext,
  query: { page?: number; limit?: number },
  fetch: (cursor: string | undefined, limit: number) => Promise<ListPage<T>>,
  seek?: LegacySeek,
): Promise<T[]> {
  const page = query.page ?? 1;
  const limit = query.limit ?? V0_DEFAULT_LIMIT;
  let skip = (page - 1) * limit;
  let cursor: string | undefined;
  if (seek !== undefined && skip > 0) {
    const before = await seek.rowAt(skip - 1);
    if (before === null) {
      // Past the end: empty, but the procedure still runs once, so that its input checks answer as before.
      await fetch(undefined, 1);
      return [];
    }
    cursor = encodeCursor(ctx.config, seek.scope, before);
    skip = 0;
  }
  const out: T[] = [];
  for (;;) {
    const result = await fetch(cursor, skip > 0 ? V1_PAGE : Math.min(V1_PAGE, limit - out.length));
    const items = result.items.slice(Math.min(skip, result.items.length));
    skip -= result.items.length - items.length;
    out.push(...items.slice(0, limit - out.length));
    if (out.length >= limit || result.nextCursor === null) return out;
    cursor = result.nextCursor;
  }
}

/**
 * The seek of a v0 list the adapter calls without filters: `list` names its rows in legacy-pages, `v1List` and
 * `filter` repeat the procedure's cursor scope for that call (a mismatch answers 400 invalid_cursor on page 2;
 * tools/e2e/src/v0-pages.test.ts pages through every collection).
 */
export function seekOf(ctx: ProcedureContext, workspaceId: string, list: LegacyPagedList, v1List: string, filter: Readonly<Record<string, unknown>> = {}): LegacySeek {
  return { rowAt: (position) => legacyRowAt(ctx.database, list, workspaceId, position), scope: { workspaceId, list: v1List, filter } };
}

/** The body's fields named in `allowed` (present ones only); everything else is ignored. */
export function pick(body: unknown, allowed: readonly string[]): Record<string, unknown> {
  const source = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  return Object.fromEntries(allowed.filter((key) => Object.hasOwn(source, key)).map((key) => [key, source[key]]));
}

/** The resource id of a deprecated-alias operation, from the body field `_id` (400 when missing). */
export function bodyAliasId(body: unknown): string {
  const id = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>)['_id'] : undefined;
  if (typeof id !== 'string' || id.length === 0 || id.length > 64) {
    throw new DomainError('validation_failed', 'the resource id is required in the body field _id', [{ pointer: '/_id', message: 'a resource id (string) is required' }]);
  }
  return id;
}

/** How long one v0 write may keep retrying against other writers before it gives up with a retryable 503. */
export const LAST_WRITER_WINS_DEADLINE_MS = 15_000;

/** The v0 writes of this instance in progress per resource: each waits for the one before it. */
const writersByResource = new Map<string, Promise<unknown>>();

/**
 * v0 writes are last-writer-wins (the frozen contract has no precondition), over the v1 procedures, which
 * compare-and-set on the revision in the UPDATE itself. Two layers make every v0 write succeed:
 * - the v0 writes of one resource on this instance run one at a time (a per-resource queue), so they never
 *   race each other: each reads the revision and writes without anybody in between;
 * - a write that still loses (a writer on another instance, or a v1 writer) reads and applies again, with a
 *   short randomised backoff, until it succeeds or LAST_WRITER_WINS_DEADLINE_MS passes; only then does it
 *   answer 503 with Retry-After (never 400: the contract tells clients not to retry a 400).
 * The last write to run wins; every write is applied and bumps the revision once.
 */
export function lastWriterWins<T>(resourceId: string, write: () => Promise<T>): Promise<T> {
  const previous = writersByResource.get(resourceId) ?? Promise.resolve();
  const run = previous.then(() => untilApplied(write));
  const tail = run.catch(() => undefined);
  writersByResource.set(resourceId, tail);
  void tail.then(() => {
    if (writersByResource.get(resourceId) === tail) writersByResource.delete(resourceId);
  });
  return run;
}

async function untilApplied<T>(write: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + LAST_WRITER_WINS_DEADLINE_MS;
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (!isDomainError(error) || (error.code !== 'precondition_failed' && error.code !== 'version_conflict')) throw error;
      if (Date.now() >= deadline) {
        throw new ProtocolError(503, 'service_unavailable', 'the resource is being changed by many writers at once; retry shortly', [], { 'retry-after': '1' });
      }
      await sleep(Math.random() * Math.min(200, 5 * 2 ** Math.min(attempt, 6)));
    }
  }
}

type Archivable = { readonly archivedAt: string | null };

/** Archived resources are gone for v0 (v0 DELETE archives): reads and writes answer 404. */
export function assertNotArchived(resource: Archivable, what: string): void {
  if (resource.archivedAt !== null) throw new DomainError('not_found', `${what} not found`);
}

/**
 * The resource a v0 read or write is about, by its v1 get procedure (`{ id }` as the operation's caller; of a Versioned answer, the
 * resource): 404 `${what} not found` when it is archived (assertNotArchived).
 */
export async function currentResource<I extends z.ZodType, T extends Archivable>(op: Operation, get: Procedure<I, T | Versioned<T>>, id: string, what: string): Promise<T> {
  const answer = await invoke(get, op, { id });
  const resource = isVersioned(answer) ? answer.resource : answer;
  assertNotArchived(resource, what);
  return resource;
}

function isVersioned<T>(answer: T | Versioned<T>): answer is Versioned<T> {
  return typeof answer === 'object' && answer !== null && 'resource' in answer;
}
