import type { z } from 'zod';

/**
 * The webhook retry schedule (docs/webhooks.md "Delivery"): the delays between a delivery's attempts, the first
 * attempt being immediate. About three days in all, as Stripe's; each delay is later scaled by a random factor
 * (jitterDelayMs) so that retries of one outage do not arrive together.
 */
export const DEFAULT_RETRY_SCHEDULE = '5s,5m,30m,2h,5h,10h,10h,10h,10h,10h,10h';

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };
/** A delay is at most a week; a schedule has at most 30 delays. */
const MAX_DELAY_MS = 7 * 86_400_000;
const MAX_DELAYS = 30;

/** `5s,5m,30m,2h` → delays in ms; each entry a whole number with a unit (ms, s, m, h, d). */
export function parseRetrySchedule(value: string, issue?: z.RefinementCtx): number[] {
  const fail = (message: string): never => {
    if (issue) {
      issue.addIssue({ code: 'custom', message });
      return [] as never;
    }
    throw new Error(message);
  };
  const entries = value.split(',').map((e) => e.trim());
  if (entries.length > MAX_DELAYS) return fail(`at most ${MAX_DELAYS} delays`);
  const delays: number[] = [];
  for (const entry of entries) {
    const match = /^(\d{1,9})(ms|s|m|h|d)$/.exec(entry);
    if (!match) return fail(`"${entry}" is not a delay: a whole number with a unit (ms, s, m, h, d), e.g. 5s,5m,30m,2h`);
    const ms = Number(match[1]) * UNIT_MS[match[2]!]!;
    if (ms < 1 || ms > MAX_DELAY_MS) return fail(`"${entry}" is not between 1 ms and 7 d`);
    delays.push(ms);
  }
  return delays;
}

/** The nominal span of a schedule: from the first attempt to the last. */
export function retrySpanMs(scheduleMs: readonly number[]): number {
  return scheduleMs.reduce((sum, ms) => sum + ms, 0);
}

/** A delay scaled by a random factor between 0.8 and 1.2 (`random` is Math.random's range). */
export function jitterDelayMs(delayMs: number, random: number = Math.random()): number {
  return Math.round(delayMs * (0.8 + 0.4 * random));
}
