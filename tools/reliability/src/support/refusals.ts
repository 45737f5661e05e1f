import type { Database } from '@workcell/db';
import { type Digest, digestDifference, workspaceDigest } from './digest.js';
import { type Answer, type Probe } from './http.js';
import type { Ledger } from './ledger.js';

/**
 * "A refused request wrote nothing", proven with the workspace digest (support/digest.ts): a batch of requests
 * the service refused is sent again on its own between two digests, and a changed digest is narrowed to the
 * request that wrote by sending the batch once more one request at a time. Shared by the checks that send
 * refused requests (hostile input, generated input).
 */

/** A 4xx (a 501 is an unimplemented operation's answer, not a refusal of the request). */
export const refused = (answer: Answer): boolean => answer.status >= 400 && answer.status !== 501;

/** One request of a batch: how to make it (again: an If-Match or a version may have to be read first) and what it tried. */
export interface Replayable {
  readonly label: string;
  request(): Promise<Probe>;
}

/** The workspace's digest once two readings 300 ms apart agree (at most about 6 s): the worker's work is done. */
export async function settled(database: Database, workspaceId: string): Promise<Digest> {
  let last = await workspaceDigest(database, workspaceId);
  for (let i = 0; i < 20; i++) {
    await new Promise((resolve) => setTimeout(resolve, 300));
    const next = await workspaceDigest(database, workspaceId);
    if (digestDifference(last, next).length === 0) return next;
    last = next;
  }
  return last;
}

/**
 * Sends the refused requests of a batch again on their own, from a settled workspace when the operation leaves
 * work to the worker: the digest before them, or null when one is accepted now (counted as unverifiable).
 */
export async function resendRefused(
  ledger: Ledger,
  database: Database,
  workspaceId: string,
  batch: readonly Replayable[],
  sendAll: (batch: readonly Replayable[]) => Promise<Answer[]>,
  async: boolean,
): Promise<Digest | null> {
  const start = async ? await settled(database, workspaceId) : await workspaceDigest(database, workspaceId);
  const again = await sendAll(batch);
  if (!again.every(refused)) {
    ledger.bump('batches unverifiable');
    return null;
  }
  ledger.bump('batches re-verified');
  return start;
}

/**
 * The workspace must be as it was at `start`, before `batch` (every request refused) was sent; a change is
 * narrowed to the request that wrote (`written-by-refused-request`), or, when no single request reproduces it, the
 * batch is verified once more from a workspace the worker has settled.
 */
export async function verifyUnchanged(
  ledger: Ledger,
  database: Database,
  workspaceId: string,
  operation: string,
  batch: readonly Replayable[],
  send: (probe: Probe) => Promise<Answer>,
  start: Digest,
): Promise<void> {
  const changed = digestDifference(start, await workspaceDigest(database, workspaceId));
  if (changed.length === 0) {
    ledger.bump('batches verified unchanged');
    return;
  }
  // Name the request that wrote: send the batch again one request at a time.
  let culprit = false;
  for (const item of batch) {
    const probe = await item.request();
    const d0 = await workspaceDigest(database, workspaceId);
    const answer = await send(probe);
    const diff = digestDifference(d0, await workspaceDigest(database, workspaceId));
    if (diff.length > 0 && refused(answer)) {
      culprit = true;
      ledger.find('written-by-refused-request', operation, probe, answer, `refused (${answer.status}) yet changed ${diff.join(', ')}`, item.label);
    }
  }
  if (culprit) return;
  // Not reproduced one by one: the worker's work for requests accepted earlier (an automation run a task write
  // triggered) may have landed in the window. Once more, from a workspace the worker has settled.
  const quiet = await settled(database, workspaceId);
  for (const item of batch) await send(await item.request());
  const again = digestDifference(quiet, await workspaceDigest(database, workspaceId));
  if (again.length === 0) ledger.bump('batches verified unchanged once the worker settled');
  else
    ledger.find(
      'written-by-refused-request',
      operation,
      `${batch.length} refused requests`,
      undefined,
      `the batch changed ${changed.join(', ')}, and again from a settled workspace ${again.join(', ')} (not reproduced one by one)`,
    );
}
