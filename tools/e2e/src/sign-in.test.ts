import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
import { useTestEnvironment, waitFor } from '@workcell/testing';
import { AuthAgent, csrfOf, type Page } from './support/auth-agent.js';
import { invitationMail, linkOf, sentMail, tokenHashOf } from './support/mail.js';
import { addMember, useV1Cell } from './support/cell.js';

/**
 * Sign-in by e-mail link, sessions and the account page (issue 27, docs/authentication.md "Signing in"), against the
 * cell's services and the mail outbox: invite → accept → sign in by the e-mailed link → the account page → create a
 * personal access token → use it on the v1 API → revoke it on the page → 401. Plus single use and expiry of links, no
 * enumeration, form tokens (CSRF), the settings.api.personalCredentials permission, cookie flags, sign out (here and
 * everywhere), the request limits, the worker mailing the link through a failing mail driver, the session an
 * invitation's acceptance starts, and the pages in headless Chromium (screenshots under tools/e2e/artifacts/sign-in).
 */

const env = useTestEnvironment({ SIGN_IN_LIMIT_PER_CLIENT: '60' });

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
// eslint-disable-next-line no-restricted-properties -- how the machine was set up (.ci/run), not a service's configuration
const { CI: ci, WORKCELL_CHROMIUM_UNAVAILABLE: cannotInstall } = process.env;
const skipReason = hasChromium ? null : (cannotInstall ?? (ci ? null : `${CHROMIUM} is not installed (apt-get install chromium)`));
if (skipReason) console.warn(`sign-in pages: the headless Chromium check is SKIPPED: ${skipReason}`);
const inBrowser = skipReason ? it.skip : it;
const SHOTS = fileURLToPath(new URL('../artifacts/sign-in/', import.meta.url));

describe('sign-in by e-mail link, sessions and the account page', () => {
  const cell = useV1Cell(env);
  let signerRoleId: string;
  const outboxDir = () => env.config.mail.outboxDir;

  /** The auth pages' client, with the whole sign-in: ask for a link, open the e-mailed one, land on /account. */
  class Agent extends AuthAgent {
    constructor() {
      super(() => cell.auth.url);
    }

    async signIn(email: string): Promise<Page> {
      const seen = await mailsTo(email);
      assert.equal((await this.requestLink(email)).status, 202);
      const done = await this.complete(await nextLink(email, seen.length));
      assert.equal(done.status, 303, done.text);
      assert.equal(done.headers.get('location'), '/account');
      return this.get('/account');
    }
  }

  /** The files of the sign-in e-mails to an address, oldest first (the outbox driver writes `sign-in-<link id>.eml`; link ids are UUIDv7). */
  async function mailsTo(email: string): Promise<string[]> {
    const files = (await readdir(outboxDir()).catch(() => [] as string[])).filter((f) => f.startsWith('sign-in-') && f.endsWith('.eml')).sort();
    const mails: string[] = [];
    for (const file of files) {
      const eml = await readFile(join(outboxDir(), file), 'utf8');
      if (new RegExp(`^To: ${email.replace(/[.+]/g, '\\$&')}$`, 'mi').test(eml)) mails.push(file);
    }
    return mails;
  }

  /** The link of the address's next sign-in e-mail after `seen` of them, once it works (its token's hash committed). */
  async function nextLink(email: string, seen: number): Promise<URL> {
    const file = await waitFor(`sign-in e-mail ${seen + 1} to ${email}`, async () => (await mailsTo(email))[seen]);
    const linkId = file.slice('sign-in-'.length, -'.eml'.length);
    const stored = async (eml: string) => (await cell.database.prisma.signInLink.count({ where: { id: linkId, tokenHash: tokenHashOf(linkOf(eml, '/sign-in')) } })) === 1;
    return linkOf(await sentMail(`the link of ${file}`, () => readFile(join(outboxDir(), file), 'utf8'), stored), '/sign-in');
  }

  const workspaceCall = (token: string) => cell.call<unknown>('GET', '/v1/workspace', token);
  const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
  const secretIn = (html: string) => /id="new-token-value" class="secret" readonly value="([^"]+)"/.exec(html)?.[1];

  /** The acceptance token of a new invitation of the address to the cell's workspace with the signer role (from its e-mail). */
  async function invitationToken(email: string): Promise<string> {
    const invited = await cell.call<{ data: { id: string } }>('POST', '/v1/invitations', cell.admin, { email, roleIds: [signerRoleId] });
    assert.equal(invited.status, 201, JSON.stringify(invited.body));
    const [event] = await cell.outbox(invited.body.data.id, 'invitation.created');
    assert.ok(event);
    return linkOf(await invitationMail(cell.database, cell.workspaceId, outboxDir(), event.id), '/invitations/accept').searchParams.get('token') ?? '';
  }

  /** A member with the signer role (settings.api.personalCredentials, workspace:read, projects:read), by invitation. */
  async function invitedMember(): Promise<string> {
    const email = `signer-${randomUUID().slice(0, 8)}@example.com`;
    const token = await invitationToken(email);
    const accepted = await fetch(`${cell.auth.url}/invitations/accept`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token, displayName: 'Grace Hopper' }),
    });
    assert.equal(accepted.status, 201);
    return email;
  }

  beforeAll(async () => {
    signerRoleId = (
      await cell.database.prisma.role.create({ data: { workspaceId: cell.workspaceId, name: 'Signer', permissions: ['settings.api.personalCredentials', 'workspace:read', 'projects:read'] } })
    ).id;
  });

  it('invite → accept → sign in by link → /account → create a token → use it → revoke it on the page → 401; every step audited', async () => {
    const email = await invitedMember();
    const agent = new Agent();
    const account = await agent.signIn(email);
    assert.equal(account.status, 200, account.text);
    assert.match(account.text, /Demo/);
    assert.ok(account.text.includes(cell.workspaceId));
    const created = await agent.post('/account/tokens', { csrf: csrfOf(account.text), workspaceId: cell.workspaceId, name: 'laptop', scopes: ['workspace:read', 'projects:read'], expiresOn: day(30) });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.headers.get('cache-control'), 'no-store');
    const secret = secretIn(created.text) ?? '';
    assert.ok(secret.startsWith('svc_pat_v2_'), created.text);
    assert.equal((await workspaceCall(secret)).status, 200);
    // Listed with its scopes, expiry and last use, never its secret.
    const listed = await agent.get('/account');
    assert.match(listed.text, /laptop/);
    assert.ok(!listed.text.includes(secret), 'the secret is shown once');
    const id = new RegExp(`name="id" value="([^"]+)"><button type="submit" aria-label="Revoke laptop"`).exec(listed.text)?.[1];
    assert.ok(id);
    const revoked = await agent.post('/account/tokens/revoke', { csrf: csrfOf(listed.text), workspaceId: cell.workspaceId, id });
    assert.equal(revoked.status, 303);
    assert.equal((await workspaceCall(secret)).status, 401);
    const member = await cell.database.prisma.workspaceMember.findFirstOrThrow({ where: { workspaceId: cell.workspaceId, user: { email } } });
    const actions = (await cell.database.prisma.auditEvent.findMany({ where: { workspaceId: cell.workspaceId, actorPrincipalId: member.id }, orderBy: { occurredAt: 'asc' } })).map((e) => e.action);
    for (const action of ['session.started', 'credential.created', 'credential.revoked']) assert.ok(actions.includes(action), `${action} in ${actions.join(', ')}`);
    const token = await cell.database.prisma.credential.findFirstOrThrow({ where: { workspaceId: cell.workspaceId, id } });
    assert.equal(token.memberId, member.id);
    assert.ok(token.expiresAt && token.expiresAt.getTime() > Date.now() + 29 * 86_400_000);
  });

  it('the session cookie is HttpOnly, SameSite=Strict, Path=/ (not Secure outside production); only its hash is stored', async () => {
    const email = await invitedMember();
    const agent = new Agent();
    const seen = await mailsTo(email);
    await agent.requestLink(email);
    await agent.complete(await nextLink(email, seen.length));
    const cookie = agent.lastSetCookie.find((c) => c.startsWith('wc_session='));
    assert.ok(cookie);
    assert.match(cookie, /; HttpOnly/);
    assert.match(cookie, /; SameSite=Strict/);
    assert.match(cookie, /; Path=\//);
    assert.doesNotMatch(cookie, /Secure/);
    const value = agent.cookies.get('wc_session')!;
    assert.equal(await cell.database.prisma.session.count({ where: { idHash: new Uint8Array(Buffer.from(value)) } }), 0);
    assert.equal(await cell.database.prisma.session.count({ where: { idHash: new Uint8Array(createHash('sha256').update(value).digest()) } }), 1);
  });

  it('a link works once, not after its expiry, and opening it (GET) does not use it', async () => {
    const email = await invitedMember();
    const agent = new Agent();
    let seen = (await mailsTo(email)).length;
    await agent.requestLink(email);
    const link = await nextLink(email, seen);
    await agent.get(`${link.pathname}${link.search}`);
    await agent.get(`${link.pathname}${link.search}`);
    assert.equal((await agent.complete(link)).status, 303, 'two GETs left it usable');
    const again = await new Agent().complete(link);
    assert.equal(again.status, 409);
    assert.match(again.text, /used already/);
    seen = (await mailsTo(email)).length;
    await agent.requestLink(email);
    const late = await nextLink(email, seen);
    await cell.database.prisma.signInLink.updateMany({ where: { usedAt: null, user: { email } }, data: { expiresAt: new Date(Date.now() - 1000), createdAt: new Date(Date.now() - 16 * 60_000) } });
    const expired = await new Agent().complete(late);
    assert.equal(expired.status, 409);
    assert.match(expired.text, /expired/);
    const unknown = await new Agent().complete(new URL(`${cell.auth.url}/sign-in?token=nothing-${randomUUID()}`));
    assert.equal(unknown.status, 404);
  });

  it('no enumeration: an unknown address gets the same 202 and no e-mail', async () => {
    const known = await invitedMember();
    const unknown = `nobody-${randomUUID().slice(0, 8)}@example.com`;
    const a = await new Agent().requestLink(unknown);
    const seen = (await mailsTo(known)).length;
    const b = await new Agent().requestLink(known);
    assert.equal(a.status, 202);
    assert.equal(b.status, 202);
    assert.equal(a.text, b.text);
    const json = await new Agent().request('POST', '/sign-in', undefined, { email: unknown });
    assert.equal(json.status, 202);
    await nextLink(known, seen);
    assert.equal((await mailsTo(unknown)).length, 0);
  });

  it('forms without their token, or with a wrong one, are refused (403)', async () => {
    const agent = new Agent();
    await agent.get('/sign-in');
    assert.equal((await agent.post('/sign-in', { email: 'someone@example.com' })).status, 403);
    assert.equal((await agent.post('/sign-in', { email: 'someone@example.com', csrf: 'forged' })).status, 403);
    const email = await invitedMember();
    const account = await agent.signIn(email);
    const other = await new Agent().signIn(email);
    const body = { workspaceId: cell.workspaceId, name: 'x', scopes: 'workspace:read', expiresOn: day(3) };
    assert.equal((await agent.post('/account/tokens', body)).status, 403);
    assert.equal((await agent.post('/account/tokens', { ...body, csrf: csrfOf(other.text) })).status, 403, "another session's token");
    assert.equal((await agent.post('/sign-out', { csrf: 'forged' })).status, 403);
    assert.equal((await agent.post('/account/tokens', { ...body, csrf: csrfOf(account.text) })).status, 201);
    // JSON to the account routes is refused before anything (only sign-in takes JSON).
    assert.equal((await agent.request('POST', '/account/tokens', undefined, body)).status, 403);
  });

  it('a member without settings.api.personalCredentials sees no create form and is refused (403)', async () => {
    const member = await addMember(cell.database, cell.config, cell.workspaceId, ['workspace:read', 'projects:read']);
    const agent = new Agent();
    const account = await agent.signIn(member.email);
    assert.equal(account.status, 200);
    assert.ok(!account.text.includes('action="/account/tokens"'));
    assert.match(account.text, /do not allow creating personal access tokens/);
    const refused = await agent.post('/account/tokens', { csrf: csrfOf(account.text), workspaceId: cell.workspaceId, name: 'x', scopes: 'workspace:read', expiresOn: day(3) });
    assert.equal(refused.status, 403);
    assert.equal(await cell.database.prisma.credential.count({ where: { workspaceId: cell.workspaceId, memberId: member.memberId, name: 'x' } }), 0);
  });

  it('scopes beyond the member’s roles and expiries beyond a year are refused', async () => {
    const email = await invitedMember();
    const agent = new Agent();
    const account = await agent.signIn(email);
    const base = { csrf: csrfOf(account.text), workspaceId: cell.workspaceId, name: 'wide' };
    assert.equal((await agent.post('/account/tokens', { ...base, scopes: 'tasks:write', expiresOn: day(3) })).status, 403);
    assert.equal((await agent.post('/account/tokens', { ...base, scopes: 'workspace:read', expiresOn: day(400) })).status, 400);
    assert.equal((await agent.post('/account/tokens', { ...base, scopes: 'workspace:read', expiresOn: '' })).status, 400);
  });

  it('without a session /account redirects to /sign-in; sign out ends this session, sign out everywhere every one', async () => {
    assert.equal((await new Agent().get('/account')).headers.get('location'), '/sign-in');
    const email = await invitedMember();
    const one = new Agent();
    const two = new Agent();
    const three = new Agent();
    const page = await one.signIn(email);
    await two.signIn(email);
    const third = await three.signIn(email);
    const cookie = one.cookies.get('wc_session')!;
    const out = await one.post('/sign-out', { csrf: csrfOf(page.text) });
    assert.equal(out.status, 303);
    assert.equal((await one.get('/account')).status, 303);
    one.cookies.set('wc_session', cookie);
    assert.equal((await one.get('/account')).status, 303, 'the ended session stays ended with its old cookie');
    assert.equal((await two.get('/account')).status, 200);
    assert.equal((await three.post('/sign-out/everywhere', { csrf: csrfOf(third.text) })).status, 303);
    assert.equal((await two.get('/account')).status, 303);
    assert.equal((await three.get('/account')).status, 303);
  });

  it('a session ends after 2 idle hours or 12 hours in all', async () => {
    const email = await invitedMember();
    const agent = new Agent();
    await agent.signIn(email);
    const user = await cell.database.prisma.user.findUniqueOrThrow({ where: { email } });
    await cell.database.prisma.session.updateMany({ where: { userId: user.id }, data: { lastSeenAt: new Date(Date.now() - 2 * 3600_000 - 1000) } });
    assert.equal((await agent.get('/account')).status, 303);
    const again = new Agent();
    await again.signIn(email);
    await cell.database.prisma.session.updateMany({ where: { userId: user.id, revokedAt: null }, data: { expiresAt: new Date(Date.now() - 1000), createdAt: new Date(Date.now() - 13 * 3600_000) } });
    assert.equal((await again.get('/account')).status, 303);
  });

  it('accepting an invitation from its page signs the new person in (audited like a sign-in); an API client, another site or a person with other workspaces gets no session', async () => {
    const email = `joiner-${randomUUID().slice(0, 8)}@example.com`;
    const token = await invitationToken(email);
    const agent = new Agent();
    const page = await agent.get(`/invitations/accept?token=${encodeURIComponent(token)}`);
    assert.match(page.text, /<a href="\/account">/);
    const accepted = await agent.request('POST', '/invitations/accept', undefined, { token, displayName: 'Ada Lovelace' }, { 'sec-fetch-site': 'same-origin' });
    assert.equal(accepted.status, 201, accepted.text);
    const cookie = agent.lastSetCookie.find((c) => c.startsWith('wc_session='));
    assert.ok(cookie, 'the acceptance set the session cookie');
    assert.match(cookie, /; HttpOnly; SameSite=Strict/);
    const account = await agent.get('/account');
    assert.equal(account.status, 200, 'the cookie works on /account without a sign-in link');
    assert.ok(account.text.includes(email));
    const member = await cell.database.prisma.workspaceMember.findFirstOrThrow({ where: { workspaceId: cell.workspaceId, user: { email } } });
    const started = await cell.database.prisma.auditEvent.findFirst({ where: { workspaceId: cell.workspaceId, actorPrincipalId: member.id, action: 'session.started' } });
    assert.deepEqual(started?.metadata, { method: 'invitation' });

    for (const headers of [{}, { 'sec-fetch-site': 'cross-site' }] as Record<string, string>[]) {
      const api = new Agent();
      const other = await invitationToken(`api-${randomUUID().slice(0, 8)}@example.com`);
      assert.equal((await api.request('POST', '/invitations/accept', undefined, { token: other }, headers)).status, 201);
      assert.deepEqual(api.lastSetCookie, [], JSON.stringify(headers));
    }

    // Someone already in another workspace: the invitation's token (days old, maybe) must not open their other workspaces.
    const existing = `existing-${randomUUID().slice(0, 8)}@example.com`;
    const elsewhere = await cell.otherWorkspace();
    const user = await cell.database.prisma.user.create({ data: { email: existing, name: 'Existing' } });
    await cell.database.prisma.workspaceMember.create({ data: { workspaceId: elsewhere, userId: user.id } });
    const known = new Agent();
    assert.equal((await known.request('POST', '/invitations/accept', undefined, { token: await invitationToken(existing) }, { 'sec-fetch-site': 'same-origin' })).status, 201);
    assert.deepEqual(known.lastSetCookie, []);
    assert.equal((await known.get('/account')).status, 303);
  });

  it('the worker mails the link: while the mail driver fails the request still answers 202, and the e-mail arrives once it recovers', async () => {
    const email = await invitedMember();
    const seen = (await mailsTo(email)).length;
    const dir = outboxDir();
    // A file where the outbox directory should be: every send of the outbox driver fails until it is put back.
    await rename(dir, `${dir}.aside`);
    await writeFile(dir, 'not a directory');
    try {
      assert.equal((await new Agent().requestLink(email)).status, 202);
      const failed = await waitFor('a failed attempt to mail the link', () => cell.database.prisma.signInLink.findFirst({ where: { user: { email }, mailAttempts: { gt: 0 } } }));
      assert.equal(failed.tokenHash, null, 'no token is stored for a link that was not mailed');
      assert.ok(failed.mailDueAt, 'the link is due again');
    } finally {
      await rm(dir);
      await rename(`${dir}.aside`, dir);
    }
    const link = await nextLink(email, seen);
    assert.equal((await new Agent().complete(link)).status, 303);
    const mailed = await cell.database.prisma.signInLink.findFirstOrThrow({ where: { user: { email }, usedAt: { not: null } }, orderBy: { createdAt: 'desc' } });
    assert.ok(mailed.mailAttempts >= 2, `attempts: ${mailed.mailAttempts}`);
    assert.deepEqual(Buffer.from(mailed.tokenHash ?? []), Buffer.from(tokenHashOf(link)), 'only the token’s SHA-256 is stored');
  });

  it('an address may ask for 5 links in 15 minutes, then 429 with Retry-After and the error document', async () => {
    const email = `limited-${randomUUID().slice(0, 8)}@example.com`;
    const agent = new Agent();
    for (let i = 0; i < 5; i++) assert.equal((await agent.request('POST', '/sign-in', undefined, { email })).status, 202);
    const refused = await agent.request('POST', '/sign-in', undefined, { email: email.toUpperCase() });
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.headers.get('retry-after')) > 0);
    assert.equal((JSON.parse(refused.text) as { errors: { code: string }[] }).errors[0]?.code, 'rate_limit_exceeded');
  });

  describe('in headless Chromium', () => {
    let browser: Browser;
    beforeAll(async () => {
      if (!hasChromium) return;
      mkdirSync(SHOTS, { recursive: true });
      browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
    });
    afterAll(async () => {
      await browser?.close();
    });

    inBrowser('signs in, creates a token, copies it, revokes it; loads nothing from elsewhere', async () => {
      const email = await invitedMember();
      const context = await browser.newContext({ viewport: { width: 1100, height: 1000 } });
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: cell.auth.url });
      const page = await context.newPage();
      const elsewhere: string[] = [];
      const violations: string[] = [];
      page.on('console', (m) => {
        if (/Content Security Policy|Refused/i.test(m.text())) violations.push(m.text());
      });
      await page.route('**/*', (route) => {
        if (route.request().url().startsWith(`${cell.auth.url}/`)) return route.continue();
        elsewhere.push(route.request().url());
        return route.abort();
      });
      await page.goto(`${cell.auth.url}/sign-in`);
      await page.getByLabel('E-mail address').fill(email);
      const seen = (await mailsTo(email)).length;
      await page.getByRole('button', { name: 'Send me a sign-in link' }).click();
      await page.getByRole('heading', { name: 'Check your mail' }).waitFor();
      await page.screenshot({ path: join(SHOTS, '1-check-your-mail.png') });
      const link = await nextLink(email, seen);
      await page.goto(`${cell.auth.url}${link.pathname}${link.search}`);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Your account' }).waitFor();
      await page.screenshot({ path: join(SHOTS, '2-account.png'), fullPage: true });
      await page.getByLabel('Name').fill('browser');
      await page.getByLabel('workspace:read').check();
      await page.getByLabel(/Last day it works/).fill(day(10));
      await page.getByRole('button', { name: 'Create token' }).click();
      const field = page.locator('#new-token-value');
      await field.waitFor();
      const secret = await field.inputValue();
      assert.ok(secret.startsWith('svc_pat_v2_'));
      await page.getByRole('button', { name: 'Copy' }).click();
      await page.getByText('Copied.').waitFor();
      assert.equal(await page.evaluate<string>('navigator.clipboard.readText()'), secret);
      await page.screenshot({ path: join(SHOTS, '3-token-created.png'), fullPage: true });
      assert.equal((await workspaceCall(secret)).status, 200);
      await page.goto(`${cell.auth.url}/account`);
      await page.getByRole('button', { name: 'Revoke browser' }).click();
      await page.getByRole('heading', { name: 'Your account' }).waitFor();
      assert.equal(await page.getByRole('button', { name: 'Revoke browser' }).count(), 0);
      await page.screenshot({ path: join(SHOTS, '4-revoked.png'), fullPage: true });
      assert.equal((await workspaceCall(secret)).status, 401);
      await page.getByRole('button', { name: 'Sign out', exact: true }).click();
      await page.getByRole('heading', { name: 'Sign in to Workcell' }).waitFor();
      assert.deepEqual(elsewhere, []);
      assert.deepEqual(violations, []);
      await context.close();
    });
  });
});
