import { DependencyTimeoutError } from '@workcell/config';
import { type Redis, runScript, whenReady } from './commands.js';

/**
 * The authorization epoch of a workspace: a counter in Redis that every change to who may do what in the
 * workspace (credentials, team tokens, members, roles, grants, service accounts, the lock) moves forward, so an
 * API instance may keep verified credentials in memory and still see every change on the very next request: the
 * request reads the epoch in the same Redis script as its rate-limit check, and a cached credential verified
 * under another epoch is verified again.
 *
 * A change moves the epoch twice: before its transaction (and marks the workspace as changing) and after the
 * commit (and clears the mark). While a workspace is marked, instances verify from the database and cache
 * nothing, so a verification that read the state just before the commit is never kept. If the second move fails
 * (Redis lost after the commit), the mark expires after PENDING_TTL_MS — longer than any transaction may live —
 * and the first move has already made every earlier cache entry stale.
 */

/** Longer than the longest transaction (libs/db: 15 s) with room to spare. */
export const PENDING_TTL_MS = 60_000;

export function authorizationEpochKeys(workspaceId: string): { readonly epoch: string; readonly pending: string } {
  // One hash tag per workspace: both keys, and any script over them, stay on one Redis Cluster slot.
  return { epoch: `authz:{${workspaceId}}:epoch`, pending: `authz:{${workspaceId}}:pending` };
}

const BEGIN = `
redis.call('INCR', KEYS[2])
redis.call('PEXPIRE', KEYS[2], ARGV[1])
return redis.call('INCR', KEYS[1])
`;

const END = `
local pending = tonumber(redis.call('GET', KEYS[2]) or '0')
if pending > 1 then redis.call('DECR', KEYS[2]) elseif pending == 1 then redis.call('DEL', KEYS[2]) end
return redis.call('INCR', KEYS[1])
`;

async function run(redis: Redis, timeoutMs: number, script: string, workspaceId: string, ...args: (string | number)[]): Promise<void> {
  const keys = authorizationEpochKeys(workspaceId);
  try {
    await whenReady(redis, timeoutMs, () => runScript(redis, script, [keys.epoch, keys.pending], args));
  } catch (error) {
    if (error instanceof DependencyTimeoutError) throw error;
    throw new DependencyTimeoutError('Redis', timeoutMs);
  }
}

/**
 * Runs `change` (one transaction that changes the workspace's authorization state) between the two epoch moves.
 * A Redis that cannot be reached before the change stops it (nothing is written: 503); after the commit the
 * change stands and the failure is swallowed, the pending mark's expiry covering it (see above).
 */
export async function changingAuthorization<T>(redis: Redis, timeoutMs: number, workspaceId: string, change: () => Promise<T>): Promise<T> {
  await run(redis, timeoutMs, BEGIN, workspaceId, PENDING_TTL_MS);
  let result: T;
  try {
    result = await change();
  } finally {
    // Also after a failed change: the mark is cleared and the extra epoch move costs one re-verification.
    await run(redis, timeoutMs, END, workspaceId).catch(() => undefined);
  }
  return result;
}
