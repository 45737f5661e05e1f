import { DependencyBudget, withDependencyBudget } from '@workcell/config';
import type { OutboxWaiter } from '@workcell/db';
import type { V1AuthContext } from '../kernel/auth-context.js';
import { invoke, type Operation, operationOf } from '../kernel/procedure.js';
import { type ChangesPage, listChanges } from './list-changes.js';

/**
 * The long poll of `GET /v1/changes?wait=`: listChanges, held while the caller is caught up. Read; a page with
 * entries, or with more to read, is the answer. Otherwise wait for the waiter to wake (a commit in the workspace,
 * or the LISTEN session (re)connecting) and read again from the page's cursor, until the waiter ends: at its
 * deadline, when the client left (aborted) or at shutdown (closed) the answer is the page read last, which is
 * current up to the last wake (a commit nobody was woken for is read by the caller's next request). Events the
 * credential or `types` filters out wake the loop but never reach the answer (listChanges leaves them out and only
 * advances the cursor), and the cursor never passes the committed head, as without `wait`.
 *
 * The waiter is taken by the caller before the first read (so a commit during that read is not missed) and
 * released here whatever happens. The first read runs in the request's dependency budget; each read after a wait
 * runs in a budget of its own (DEPENDENCY_TIMEOUT_MS): the idle wait is not a dependency call, and a long wait's
 * many healthy reads must not add up to a 503, while a dead database still fails each read within the bound.
 */
export async function awaitChanges(read: (cursor?: string) => Promise<ChangesPage>, waiter: OutboxWaiter | null, dependencyTimeoutMs: number): Promise<ChangesPage> {
  try {
    let page = await read();
    if (waiter === null) return page;
    while (page.items.length === 0 && !page.more) {
      if ((await waiter.next()) !== 'event') break;
      const cursor = page.nextCursor;
      page = await withDependencyBudget(new DependencyBudget(dependencyTimeoutMs), () => read(cursor));
    }
    return page;
  } finally {
    waiter?.release();
  }
}

/**
 * awaitChanges over listChanges: `input` is listChanges' raw input (validated by the first read). Each read after a
 * wait first asks `recheck` for the caller's authorization as it is now (the credential verified again: revoked,
 * expired or narrowed during the wait is refused or applied on that read), since a wait can outlast a revocation.
 */
export function listChangesWaiting(op: Operation, input: Readonly<Record<string, unknown>>, waiter: OutboxWaiter | null, recheck: () => Promise<V1AuthContext>): Promise<ChangesPage> {
  return awaitChanges(
    async (cursor) => (cursor === undefined ? invoke(listChanges, op, input) : invoke(listChanges, operationOf(op, await recheck(), op.requestId), { ...input, cursor })),
    waiter,
    op.config.dependencyTimeoutMs,
  );
}
