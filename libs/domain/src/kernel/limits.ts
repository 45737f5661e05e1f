/**
 * The protocol limits, one place each: the code that enforces a limit and the entitlements document that
 * reports it read the same constant.
 */

/** Largest v1 page (`limit` of every v1 list). */
export const V1_MAX_PAGE_SIZE = 200;
/** v0 (contract 8): requests per minute per API token and URL path. */
export const V0_REQUESTS_PER_MINUTE = 100;
/** v0 (contract 8): largest `limit` of a v0 list or the calendar feed. */
export const V0_MAX_PAGE_SIZE = 500;
/** How long an Idempotency-Key is remembered (at least 24 hours, issue 6). */
export const IDEMPOTENCY_RETENTION_HOURS = 24;

/**
 * The latest instant the platform stores: the registry bounds every date and timestamp to years 0001-9999, and
 * date arithmetic (a time entry's `startedAt + durationSeconds`) checks its result against the same bound, so it
 * is refused with a pointer instead of failing in the database.
 */
export const LATEST_INSTANT_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
