import { z } from 'zod';
import { headAndFirstWindow, listOutboxWindow } from '@workcell/db';
import { AGGREGATES } from '../events/catalog.js';
import { mayReceive } from '../events/catalog.js';
import { receivableSpecs } from '../events/receivable.js';
import { viewerOf } from '../kernel/visibility.js';
import { DomainError } from '../kernel/errors.js';
import { decodeCursor, encodeCursor } from '../kernel/pagination.js';
import { defineProcedure } from '../kernel/procedure.js';
import { pageInput } from '../kernel/inputs.js';
import { type ChangeView, changeView } from './view.js';

export const listChangesInput = z.object({ ...pageInput, types: z.string().max(1024).optional(), include: z.enum(['payload']).optional() }).strict();

/** How many sequence positions one outbox query may cover, and how many such windows one request may read. */
const WINDOW = 2000n;
const MAX_WINDOWS = 5;

const RESOURCE_TYPES: ReadonlySet<string> = new Set(Object.values(AGGREGATES).map((a) => a.resourceType));

function typesFilter(types: string | undefined): string[] | null {
  if (types === undefined) return null;
  const names = [...new Set(types.split(','))].sort();
  const unknown = names.filter((name) => !RESOURCE_TYPES.has(name));
  if (names.some((name) => name === '') || unknown.length > 0) {
    const message = `unknown resource type ${unknown.map((n) => `'${n}'`).join(', ') || "''"}; known: ${[...RESOURCE_TYPES].sort().join(', ')}`;
    throw new DomainError('validation_failed', `types: ${message}`, [{ pointer: '', parameter: 'types', message }]);
  }
  return names;
}

const invalidCursor = () =>
  new DomainError('validation_failed', 'the cursor is not valid for this list', [{ pointer: '', parameter: 'cursor', message: 'invalid_cursor' }], { reason: 'invalid_cursor' });

export interface ChangesPage {
  readonly items: ChangeView[];
  readonly limit: number;
  /** Always a resumable position (the last event read, returned or filtered out); never null. */
  readonly nextCursor: string;
  /** Whether committed events beyond `nextCursor` exist now (links.next); false once the feed is caught up. */
  readonly more: boolean;
}

/**
 * `GET /v1/changes`: the durable change feed, read from the outbox in per-workspace sequence order (commit order,
 * db/changes.ts). Only event types of the `changes` channel the credential may receive (events/receivable.ts),
 * optionally of the `types` resource types. The signed cursor carries the last sequence read, bound to the
 * workspace and the `types` filter; it never passes the committed head, so resuming from it later yields
 * exactly the events after it. Reads are bounded windows of the (workspace_id, sequence) index: a page may hold
 * fewer than `limit` entries (even none) when events are filtered out, but its cursor always advances.
 * `include=payload` adds each event's payload as webhooks deliver it; it changes what an entry carries, never
 * which entries a page has, so the cursor is not bound to it.
 */
export const listChanges = defineProcedure('listChanges', listChangesInput, async (op, { cursor, limit, types, include }): Promise<ChangesPage> => {
  const { auth } = op;
  const workspaceId = auth.workspaceId;
  const wanted = typesFilter(types);
  const scope = { workspaceId, list: 'listChanges', filter: { types: wanted ?? [] } };
  const decoded = decodeCursor(op.config, scope, cursor);
  if (decoded !== undefined && !/^\d{1,19}$/.test(decoded)) throw invalidCursor();
  const after = decoded === undefined ? 0n : BigInt(decoded);

  const specs = new Map(
    receivableSpecs(auth, ['changes'])
      .filter((s) => wanted === null || wanted.includes(s.resourceType))
      .map((s) => [s.type, s]),
  );
  const eventTypes = [...specs.keys()];
  // The head with the first window, in one statement: every event up to the head is committed, so the cursor may
  // move up to it and no further.
  const viewer = viewerOf(auth);
  const first = await headAndFirstWindow(op.database, workspaceId, { after, span: WINDOW, eventTypes, take: limit, viewer });
  const head = first.head;
  let position = after;
  const items: ChangeView[] = [];
  if (eventTypes.length === 0 && position < head) position = head;
  for (let window = 0; window < MAX_WINDOWS && position < head && items.length < limit; window++) {
    const upTo = position + WINDOW < head ? position + WINDOW : head;
    const take = limit - items.length;
    const rows = window === 0 ? first.rows : await listOutboxWindow(op.database, workspaceId, { after: position, upTo, eventTypes, take, viewer });
    for (const row of rows) {
      const spec = specs.get(row.eventType)!;
      // The resource's rule was applied by the statement; the payload's (finance overlays) is the event's own.
      if (mayReceive(auth.effectiveScopes, spec, row.payload)) items.push(changeView(spec, row, include === 'payload'));
    }
    position = rows.length === take ? rows.at(-1)!.sequence : upTo;
  }
  return { items, limit, nextCursor: encodeCursor(op.config, scope, position.toString()), more: position < head };
});
