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
