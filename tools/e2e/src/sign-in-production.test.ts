import assert from 'node:assert/strict';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createAuthApp } from '@workcell/auth';
import { createDatabase, type Database } from '@workcell/db';
import { type RunningApp, startApp, useTestEnvironment } from '@workcell/testing';

/**
 * The auth service configured as in production (docs/authentication.md "Signing in"): every cookie its pages set
 * carries `Secure`, and one client address may ask for SIGN_IN_LIMIT_PER_CLIENT links in 15 minutes, whatever the
 * addresses (here 3), then 429 with Retry-After in the error document it asked for.
 */

const LIMIT = 3;
const env = useTestEnvironment({ WORKCELL_ENV: 'production', CREDENTIAL_SECRET: randomBytes(32).toString('base64url'), SIGN_IN_LIMIT_PER_CLIENT: String(LIMIT) });

const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
const cookieValue = (setCookie: string[], name: string) =>
  setCookie
    .find((c) => c.startsWith(`${name}=`))
    ?.split(';')[0]
    ?.slice(name.length + 1);

describe('the auth service in production', () => {
  let auth: RunningApp<NestFastifyApplication>;
  let database: Database;

  beforeAll(async () => {
    database = createDatabase(env.config, { poolSize: 2 });
    auth = await startApp((c) => createAuthApp(c), env.config);
  });
  afterAll(async () => {
    await auth?.close();
    await database?.close();
  });

  it('every cookie the pages set is Secure (HttpOnly, SameSite=Strict): the form cookie, the session, its clearing', async () => {
    assert.equal(env.config.env, 'production');
    const user = await database.prisma.user.create({ data: { email: `prod-${randomUUID().slice(0, 8)}@example.com`, name: 'Prod' } });
    const token = randomBytes(32).toString('base64url');
    // A link as the worker leaves it once mailed (the e-mail itself is sign-in.test's subject).
    await database.prisma.signInLink.create({ data: { userId: user.id, tokenHash: new Uint8Array(createHash('sha256').update(token).digest()), expiresAt: new Date(Date.now() + 600_000) } });
    const set: string[] = [];
    const page = await fetch(`${auth.url}/sign-in?token=${token}`);
    set.push(...page.headers.getSetCookie());
    const form = cookieValue(set, 'wc_form');
    assert.ok(form, 'the page set the form cookie');
    const done = await fetch(`${auth.url}/sign-in/complete`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `wc_form=${form}` },
      body: new URLSearchParams({ csrf: csrfOf(await page.text()), token }).toString(),
      redirect: 'manual',
    });
    assert.equal(done.status, 303);
    set.push(...done.headers.getSetCookie());
    const session = cookieValue(done.headers.getSetCookie(), 'wc_session');
    assert.ok(session, 'the sign-in set the session cookie');
    const account = await fetch(`${auth.url}/account`, { headers: { cookie: `wc_session=${session}` } });
    assert.equal(account.status, 200);
    const out = await fetch(`${auth.url}/sign-out`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `wc_session=${session}` },
      body: new URLSearchParams({ csrf: csrfOf(await account.text()) }).toString(),
      redirect: 'manual',
    });
    assert.equal(out.status, 303);
    set.push(...out.headers.getSetCookie());
    assert.equal(set.length, 3, set.join('\n'));
    for (const cookie of set) assert.match(cookie, /; Path=\/; HttpOnly; SameSite=Strict; Max-Age=\d+; Secure$/, cookie);
  });

  it(`one client may ask for ${LIMIT} links in 15 minutes, whatever the addresses; then 429 with Retry-After in the error document`, async () => {
    const ask = (email: string) => fetch(`${auth.url}/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) });
    for (let i = 0; i < LIMIT; i++) assert.equal((await ask(`client-${i}-${randomUUID().slice(0, 8)}@example.com`)).status, 202);
    const refused = await ask(`client-more-${randomUUID().slice(0, 8)}@example.com`);
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.headers.get('retry-after')) > 0);
    const body = (await refused.json()) as { errors: { code: string }[]; meta: { requestId: string } };
    assert.equal(body.errors[0]?.code, 'rate_limit_exceeded');
    assert.equal(body.meta.requestId, refused.headers.get('x-request-id'));
    // The form gets the same refusal as a page, with the same status and Retry-After.
    const page = await fetch(`${auth.url}/sign-in`);
    const form = cookieValue(page.headers.getSetCookie(), 'wc_form');
    const posted = await fetch(`${auth.url}/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `wc_form=${form}`, accept: 'text/html' },
      body: new URLSearchParams({ csrf: csrfOf(await page.text()), email: `form-${randomUUID().slice(0, 8)}@example.com` }).toString(),
    });
    assert.equal(posted.status, 429);
    assert.ok(Number(posted.headers.get('retry-after')) > 0);
    assert.match(posted.headers.get('content-type') ?? '', /^text\/html/);
  });
});
