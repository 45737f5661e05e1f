import type { WorkcellClient } from '@workcell/sdk';
import { operationAt } from './operations.js';

/**
 * What a 202's `Location` answers, by the fields each kind of asynchronous resource has: every one a `status`; an
 * asynchronous operation (AsyncOperation, e.g. project.archive) its `kind` and `error`; an export (Export) its
 * `rowsDone`/`rowsTotal` and `failureReason`.
 */
export interface AsyncResourceView {
  readonly id: string;
  readonly status: string;
  readonly kind?: string;
  readonly error?: { readonly code?: string; readonly detail?: string } | null;
  readonly rowsDone?: number;
  readonly rowsTotal?: number | null;
  readonly failureReason?: string | null;
}

/** The resource followed to its end, and what the progress lines called it. */
export interface Followed {
  readonly resource: AsyncResourceView;
  readonly label: string;
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

function describe({ resource, label }: Followed, seconds: number): string {
  const counted = typeof resource.rowsDone === 'number' ? ` ${resource.rowsDone}/${resource.rowsTotal ?? '?'}` : '';
  return `${label} ${resource.status}${counted} (${seconds} s)`;
}

/** Why a followed resource did not succeed, in one line: `project.archive failed: enqueue_failed …`, `export failed: too_many_rows`. */
export function failureOf({ resource, label }: Followed): string {
  const why = resource.error ? `${resource.error.code ?? ''} ${resource.error.detail ?? ''}`.trim() : (resource.failureReason ?? '');
  return `${label} ${resource.status}${why ? `: ${why}` : ''}`;
}

/**
 * Follows a 202's `Location` (the operation's own GET in the registry) until the operation ends, reporting each
 * status change (or, at a terminal, one line rewritten every poll), and answers its last state. A location no
 * GET operation answers is an error, not a guess.
 */
export async function waitForOperation(client: WorkcellClient, location: string, options: WaitOptions): Promise<Followed> {
  const target = operationAt(location);
  if (!target) throw new Error(`cannot follow ${location}: no operation answers it`);
  const sleep = options.sleep ?? pause;
  const now = options.now ?? Date.now;
  const started = now();
  let said = '';
  for (;;) {
    const reply = await client.request(target.operation.operationId, { path: target.path });
    const resource = reply.data as AsyncResourceView;
    // An operation names its kind; another resource is called after its family (`exports` → export).
    const followed = { resource, label: resource.kind ?? target.operation.family.replace(/s$/, '') };
    const seconds = Math.round((now() - started) / 1000);
    const line = describe(followed, seconds);
    if (options.live || resource.status !== said) options.report(line, options.live);
    said = resource.status;
    if (FINAL.has(resource.status)) return followed;
    if (now() - started >= options.timeoutMs)
      throw new WaitTimeout(
        `still ${resource.status} after ${seconds} s; follow it with: workcell call ${target.operation.operationId} ${Object.entries(target.path)
          .map(([k, v]) => `--path ${k}=${v}`)
          .join(' ')}`,
      );
    await sleep(options.intervalMs);
  }
}
