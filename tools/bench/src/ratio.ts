/** Timing statistics for benchmarks: medians of interleaved samples, compared as a ratio to a baseline. */

export function median(samples: readonly number[]): number {
  if (samples.length === 0) throw new Error('no samples');
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export interface Comparison {
  readonly baselineMs: number;
  readonly candidateMs: number;
  /** candidate / baseline: 1 means "costs the same". */
  readonly ratio: number;
}

/**
 * Runs baseline and candidate alternately `rounds` times after `warmup` rounds (so drift in machine load hits
 * both alike) and compares their medians.
 */
export async function compare(baseline: () => Promise<unknown>, candidate: () => Promise<unknown>, rounds: number, warmup: number): Promise<Comparison> {
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < warmup + rounds; i++) {
    for (const [run, into] of i % 2 === 0
      ? ([
          [baseline, a],
          [candidate, b],
        ] as const)
      : ([
          [candidate, b],
          [baseline, a],
        ] as const)) {
      const start = process.hrtime.bigint();
      await run();
      const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
      if (i >= warmup) into.push(elapsed);
    }
  }
  const baselineMs = median(a);
  const candidateMs = median(b);
  return { baselineMs, candidateMs, ratio: candidateMs / baselineMs };
}

/** The p-th percentile (0 < p ≤ 100) by nearest rank. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) throw new Error('no samples');
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
