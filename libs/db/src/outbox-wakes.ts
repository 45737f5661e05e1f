import { AsyncResource } from 'node:async_hooks';

/** The channel the outbox's wake-ups go to (payload: the workspace id); the worker's relay and api-v1's long polls LISTEN on it. */
export const OUTBOX_CHANNEL = 'workcell_outbox';

/** Wakes the outbox's listeners for workspaces whose events have committed. */
export interface OutboxWaker {
  /** Asks for a wake-up of `workspaceId`'s listeners; sent soon, coalesced with the others asked for meanwhile. */
  wake(workspaceId: string): void;
  /** Resolves once every wake-up asked for so far has been sent (or has failed). */
  idle(): Promise<void>;
}

/**
 * Sends wake-ups after commit, outside the writing transaction: a NOTIFY queued in the writing transaction takes a
 * database-wide lock at its commit and holds it through the WAL flush, so every event-writing commit of the database
 * flushed one after another (docs/performance.md, the fourteenth session: pgbench across 20 workspaces, 3,000 commits a
 * second with it against 6,200 without).
 * A NOTIFY in a statement of its own writes no WAL, so its commit waits for no flush.
 *
 * One statement at a time, at most one per WAKE_INTERVAL_MS, naming every workspace asked for since the last one: a
 * burst of writes is one NOTIFY per workspace and interval, not one per write (a NOTIFY statement after every commit
 * cost the same pgbench 12–20% of its commits). `send` runs outside the caller's async context (a request's dependency budget
 * ends with its response; a wake-up is the platform's). A wake-up that fails is dropped: the listeners' polls are
 * the safety net (the relay's poll interval; a long poll reads again when its wait ends), so it only delays.
 */
export function outboxWaker(send: (channel: string, workspaceIds: string[]) => Promise<unknown>, intervalMs = WAKE_INTERVAL_MS): OutboxWaker {
  let pending = new Set<string>();
  let sending: Promise<void> | undefined;
  let nextAt = 0;
  const flush = AsyncResource.bind(async (): Promise<void> => {
    while (pending.size > 0) {
      const wait = nextAt - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      nextAt = Date.now() + intervalMs;
      const workspaceIds = [...pending];
      pending = new Set();
      await send(OUTBOX_CHANNEL, workspaceIds).catch(() => undefined);
    }
    sending = undefined;
  });
  return {
    wake(workspaceId) {
      pending.add(workspaceId);
      sending ??= new Promise<void>((resolve) => setImmediate(resolve)).then(flush);
    },
    idle: async () => {
      while (sending) await sending;
    },
  };
}

/** The shortest time between two wake-up statements of one process: what a wake-up may add to a listener's wait. */
export const WAKE_INTERVAL_MS = 5;

/** The statement of one wake-up: a NOTIFY per workspace, on a pooled connection (it commits by itself). */
export const WAKE_STATEMENT = 'SELECT pg_notify($1, workspace_id) FROM unnest($2::text[]) AS workspace_id';
