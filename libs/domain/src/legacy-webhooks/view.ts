import { z } from 'zod';
import type { LegacyWebhookRecord } from '@workcell/db';
import { DomainError } from '../kernel/errors.js';

/**
 * Legacy unsigned v0 webhook subscriptions (contract 4.3 rule 11, 6): their own resource and table, never a
 * signed v2 subscription. Storage and management only; the event engine delivers later.
 *
 * Target URL rules (400 with pointer /url otherwise):
 * - an absolute `https://` URL of at most 2048 characters, without user name, password or fragment (a
 *   credential in the URL would be stored and shown back in clear; a fragment is never sent);
 * - `http://` only to a loopback host (localhost, 127.0.0.0/8, ::1) and only outside production, so a receiver
 *   on a developer's machine works while production deliveries are never in clear text;
 * - in production no loopback host at all (the service would post to itself).
 * Event names: `<resource>.<action>` (lower case, digits and `_`), at most 50, duplicates folded; none (or an
 * empty list) means every event of the team.
 */

export const MAX_URL_LENGTH = 2048;
export const MAX_EVENTS = 50;
const EVENT_NAME = /^[a-z][a-z0-9_]{0,63}\.[a-z][a-z0-9_]{0,63}$/;

export const legacyWebhookAttributes = {
  url: z.string().min(1).max(MAX_URL_LENGTH),
  events: z.array(z.string().regex(EVENT_NAME, 'an event name is <resource>.<action>, e.g. task.created')).max(MAX_EVENTS).optional(),
};

/** A legacy webhook subscription (the v0 wire form renames id to _id). */
export interface LegacyWebhookView {
  readonly id: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly url: string;
  readonly events: readonly string[];
}

export function legacyWebhookView(row: LegacyWebhookRecord): LegacyWebhookView {
  return { id: row.id, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString(), url: row.url, events: row.events };
}

export const legacyWebhookNotFound = (): DomainError => new DomainError('not_found', 'webhook not found');

// One URL rule for signed and legacy webhooks (webhooks/target-url.ts).
export { validateTargetUrl } from '../webhooks/target-url.js';
