import type { WorkcellClient } from '@workcell/sdk';
import { operationAt } from './operations.js';

/** An accepted asynchronous operation as the API shows it (AsyncOperation in the v1 document). */
export interface AsyncOperationView {
  readonly id: string;
  readonly kind: string;
  readonly status: string;
  readonly error?: { readonly code?: string; readonly detail?: string } | null;
  readonly progress?: { readonly done?: number; readonly total?: number } | null;
}

const FINAL = new Set(['succeeded', 'failed', 'canceled', 'expired']);

export interface WaitOptions {
  /** Give up (and say how to keep following) after this long. */
  readonly timeoutMs: number;
  readonly intervalMs: number;
  /** Progress lines go here (stderr); `live` rewrites one line at a terminal instead of printing one per change. */
  readonly report: (line: string, live: boolean) => void;
  readonly live: boolean;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly now?: () => number;
}

export class WaitTimeout extends Error {}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function describe(operation: AsyncOperationView, seconds: number): string {
  const counted = operation.progress && typeof operation.progress.total === 'number' && operation.progress.total > 0 ? ` ${operation.progress.done ?? 0}/${operation.progress.total}` : '';
  return `${operation.kind} ${operation.status}${counted} (${seconds} s)`;
}

/**
 * Follows a 202's `Location` (the operation's own GET in the registry) until the operation ends, reporting each
 * status change (or, at a terminal, one line rewritten every poll), and answers its last state. A location no
 * GET operation answers is an error, not a guess.
 */
export async function waitForOperation(client: WorkcellClient, location: string, options: WaitOptions): Promise<AsyncOperationView> {
  const target = operationAt(location);
  if (!target) throw new Error(`cannot follow ${location}: no operation answers it`);
  const sleep = options.sleep ?? pause;
  const now = options.now ?? Date.now;
  const started = now();
  let said = '';
  for (;;) {
    const reply = await client.request(target.operation.operationId, { path: target.path });
    const operation = reply.data as AsyncOperationView;
    const seconds = Math.round((now() - started) / 1000);
    const line = describe(operation, seconds);
    if (options.live || operation.status !== said) options.report(line, options.live);
    said = operation.status;
    if (FINAL.has(operation.status)) return operation;
    if (now() - started >= options.timeoutMs)
      throw new WaitTimeout(
        `still ${operation.status} after ${seconds} s; follow it with: workcell call ${target.operation.operationId} ${Object.entries(target.path)
          .map(([k, v]) => `--path ${k}=${v}`)
          .join(' ')}`,
      );
    await sleep(options.intervalMs);
  }
}
