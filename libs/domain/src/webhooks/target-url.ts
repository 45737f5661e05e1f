import { isIP } from 'node:net';
import type { AppConfig } from '@workcell/config';
import { DomainError } from '../kernel/errors.js';

/**
 * The one rule for a webhook receiver URL, signed v2 subscriptions and legacy v0 webhooks alike (400 with
 * pointer /url naming the broken rule otherwise):
 * - an absolute `https://` URL of at most 2048 printable ASCII characters (the parser silently drops tabs and
 *   newlines, which would then reach the request), without user name or password (it would be stored and
 *   shown in clear) or fragment (never sent);
 * - `http://` only to a loopback host (localhost, 127.0.0.0/8, ::1) and only outside production, so a receiver
 *   on a developer's machine needs no certificate while production deliveries are never in clear text;
 * - in production no loopback host at all (the service would post to itself).
 * The URL is returned exactly as given (clients compare it).
 */

const REQUIRED = 'must be an absolute https:// URL (http:// only to a loopback host such as localhost or 127.0.0.1, and only outside production)';

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

export function validateTargetUrl(raw: string, config: AppConfig): string {
  const refuse = (message: string) => new DomainError('validation_failed', 'the webhook url is not valid', [{ pointer: '/url', message }]);
  if (!/^[\x21-\x7e]+$/.test(raw)) throw refuse('must be printable ASCII without white space (punycode for international host names)');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse(REQUIRED);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw refuse(REQUIRED);
  if (url.username !== '' || url.password !== '') throw refuse('must not carry a user name or password');
  if (url.hash !== '' || raw.includes('#')) throw refuse('must not have a fragment');
  const loopback = isLoopback(url.hostname);
  if (config.env === 'production' && loopback) throw refuse('must not point at a loopback host');
  if (url.protocol === 'http:' && config.env === 'production') throw refuse('must use https:// (http:// is accepted only outside production, to a loopback host)');
  if (url.protocol === 'http:' && !loopback) throw refuse('must use https:// (http:// only to a loopback host such as localhost or 127.0.0.1, outside production)');
  return raw;
}
