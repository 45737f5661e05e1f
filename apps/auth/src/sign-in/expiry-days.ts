import { ACCOUNT_TOKEN_MAX_LIFETIME_MS } from '@workcell/domain';

/** A UTC calendar day, as an `<input type="date">` takes and gives it. */
export const day = (at: Date): string => at.toISOString().slice(0, 10);

/**
 * The days the expiry field of a new account token allows (the account page's and the device approval's): from today
 * to the last day a token still works, one day short of ACCOUNT_TOKEN_MAX_LIFETIME_MS since it works to that day's end.
 */
export function expiryDays(now: Date): { today: string; maxDay: string } {
  return { today: day(now), maxDay: day(new Date(now.getTime() + ACCOUNT_TOKEN_MAX_LIFETIME_MS - 24 * 3600_000)) };
}
