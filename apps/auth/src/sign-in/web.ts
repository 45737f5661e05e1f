import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '@workcell/config';
import type { SessionRecord } from '@workcell/db';
import { formTokenValid, type ProcedureContext, randomSecret, resolveSession, SESSION_ABSOLUTE_MS } from '@workcell/domain';
import { ProtocolError } from '@workcell/http';
import type { Redis } from '@workcell/redis';
import { seeOther } from './respond.js';

/**
 * The web plumbing of the sign-in and account pages: cookies, form bodies, form tokens (CSRF) and the sign-in
 * request limits. Routes here are the auth service's own, outside the v1 registry.
 */

export const SESSION_COOKIE = 'wc_session';
/** Where completing a sign-in leads (the device login page the person came from, with its code), for 15 minutes. */
export const RETURN_COOKIE = 'wc_return';
/** Before a session: the browser's anti-forgery value the sign-in forms' tokens are bound to (signed double submit). */
export const FORM_COOKIE = 'wc_form';

/** Paths whose forms the auth service reads (application/x-www-form-urlencoded); every other path keeps answering 415 to a form. */
const FORM_PATHS = /^\/(sign-in|sign-out|account|device)(\/|\?|$)/;

/** Adds the form parser, for the page routes only. Repeated names (checkboxes) become arrays. */
export function installFormParser(fastify: FastifyInstance): void {
  fastify.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 64 * 1024 }, (request, body, done) => {
    if (!FORM_PATHS.test(request.url)) {
      done(new ProtocolError(415, 'unsupported_media_type', 'request bodies must be application/json'), undefined);
      return;
    }
    const fields: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
    for (const [name, value] of new URLSearchParams(String(body))) {
      const held = fields[name];
      fields[name] = held === undefined ? value : Array.isArray(held) ? [...held, value] : [held, value];
    }
    done(null, fields);
  });
}

export function cookiesOf(request: FastifyRequest): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const part of String(request.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at <= 0) continue;
    const name = part.slice(0, at).trim();
    if (!(name in cookies)) cookies[name] = part.slice(at + 1).trim();
  }
  return cookies;
}

/** HttpOnly, SameSite=Strict, Path=/, Secure in production. */
export function setCookie(reply: FastifyReply, config: AppConfig, name: string, value: string, maxAgeSeconds: number): void {
  const attributes = [`${name}=${value}`, 'Path=/', 'HttpOnly', 'SameSite=Strict', `Max-Age=${maxAgeSeconds}`];
  if (config.env === 'production') attributes.push('Secure');
  const previous = reply.getHeader('set-cookie');
  const list = previous === undefined ? [] : Array.isArray(previous) ? previous.map(String) : [String(previous)];
  void reply.header('set-cookie', [...list, attributes.join('; ')]);
}

export const setSessionCookie = (reply: FastifyReply, config: AppConfig, secret: string) => setCookie(reply, config, SESSION_COOKIE, secret, SESSION_ABSOLUTE_MS / 1000);
export const clearSessionCookie = (reply: FastifyReply, config: AppConfig) => setCookie(reply, config, SESSION_COOKIE, '', 0);

/** The browser's anti-forgery value: the cookie's, or a new one set on this reply. */
export function formBinding(request: FastifyRequest, reply: FastifyReply, config: AppConfig): string {
  const held = cookiesOf(request)[FORM_COOKIE];
  if (held !== undefined && /^[A-Za-z0-9_-]{43}$/.test(held)) return held;
  const fresh = randomSecret();
  setCookie(reply, config, FORM_COOKIE, fresh, 24 * 3600);
  return fresh;
}

/** The request's form field `name` as one string (the first, when repeated). */
export function field(body: unknown, name: string): string | undefined {
  const value = (body as Record<string, unknown> | null | undefined)?.[name];
  if (Array.isArray(value)) return typeof value[0] === 'string' ? value[0] : undefined;
  return typeof value === 'string' ? value : undefined;
}

/** A form post whose token is not the one bound to `binding` is refused (403): a cross-site request cannot know it. */
export function requireFormToken(config: AppConfig, binding: string | undefined, body: unknown): void {
  if (!formTokenValid(config, binding, field(body, 'csrf'))) throw new ProtocolError(403, 'forbidden', 'the form has expired or was not sent by this site: reload the page and try again');
}

export const isJson = (request: FastifyRequest): boolean => /^application\/json\b/i.test(String(request.headers['content-type'] ?? ''));

/** The window of the sign-in request limits. */
export const SIGN_IN_WINDOW_MS = 15 * 60_000;

const COUNT = `local n = redis.call('INCR', KEYS[1]) if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end return {n, redis.call('PTTL', KEYS[1])}`;

/**
 * Counts one sign-in request against the client address's and the e-mail address's budgets (fixed windows of 15
 * minutes in Redis; the address is hashed in the key). Returns the seconds to wait when either is spent, else null.
 */
export async function spendSignInBudget(redis: Redis, config: AppConfig, clientIp: string, email: string | null): Promise<number | null> {
  const keys: [string, number][] = [[`signin:client:${createHash('sha256').update(clientIp).digest('hex')}`, config.mail.signInLimitPerClient]];
  if (email !== null) keys.push([`signin:address:${createHash('sha256').update(email).digest('hex')}`, config.mail.signInLimitPerAddress]);
  let wait: number | null = null;
  for (const [key, limit] of keys) {
    const [count, ttl] = (await redis.eval(COUNT, 1, key, String(SIGN_IN_WINDOW_MS))) as [number, number];
    if (count > limit) wait = Math.max(wait ?? 0, Math.max(1, Math.ceil(ttl / 1000)));
  }
  return wait;
}

/**
 * Counts one event against `key`'s budget of `limit` per SIGN_IN_WINDOW_MS (a fixed window in Redis; hash what
 * identifies a person or client into the key). Returns the seconds to wait when the budget is spent, else null.
 */
export async function spendBudget(redis: Redis, key: string, limit: number): Promise<number | null> {
  const [count, ttl] = (await redis.eval(COUNT, 1, key, String(SIGN_IN_WINDOW_MS))) as [number, number];
  return count > limit ? Math.max(1, Math.ceil(ttl / 1000)) : null;
}

export const hashed = (value: string): string => createHash('sha256').update(value).digest('hex');

/** The signed-in person's session of this request (its cookie), or null. */
export function sessionOf(ctx: ProcedureContext, request: FastifyRequest): Promise<SessionRecord | null> {
  return resolveSession(ctx, cookiesOf(request)[SESSION_COOKIE]);
}

/**
 * The session a form post acts for: without one the person is sent to sign in (null); with one, the form must carry
 * the session's form token (403 otherwise), so no other site can post on the person's behalf.
 */
export async function postingSession(ctx: ProcedureContext, request: FastifyRequest, reply: FastifyReply): Promise<SessionRecord | null> {
  const session = await sessionOf(ctx, request);
  if (!session) {
    seeOther(reply, '/sign-in');
    return null;
  }
  requireFormToken(ctx.config, `session:${session.id}`, request.body);
  return session;
}
