import type { OperationSpec } from './generated/operations.js';

/**
 * Contract 7.4, as the official client applies it:
 * - only safe reads, idempotent POSTs (always sent with an Idempotency-Key, kept across attempts) and fully
 *   guarded replacements (planned work) are retried automatically; other PUT, PATCH and DELETE never are;
 * - 429: wait at least Retry-After when given, else exponential backoff with full jitter;
 * - transient failures (502, 503, 504, or no response at all): exponential backoff with full jitter;
 * - 400, 401, 403, 404, 409, 412, 428: never retried unchanged.
 */
export interface RetryPolicy {
  /** Attempts in all, the first included. */
  readonly maxAttempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 4, baseDelayMs: 200, maxDelayMs: 10_000 };

const TRANSIENT = new Set([502, 503, 504]);

export function retryable(operation: OperationSpec): boolean {
  return operation.retry !== 'never';
}

/** Whether this outcome of an attempt may be retried (status null: no response was received). */
export function shouldRetry(operation: OperationSpec, status: number | null): boolean {
  if (!retryable(operation)) return false;
  return status === null || status === 429 || TRANSIENT.has(status);
}

/** The delay before attempt `attempt + 1` (attempt counts from 1): Retry-After wins, else full jitter. */
export function retryDelayMs(policy: RetryPolicy, attempt: number, retryAfterSeconds: number | null, random: () => number = Math.random): number {
  if (retryAfterSeconds !== null) return Math.min(retryAfterSeconds * 1000, policy.maxDelayMs * 6);
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.floor(random() * ceiling);
}

/** Retry-After as seconds (delta-seconds or an HTTP date); null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | null {
  if (value === null) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000));
}
