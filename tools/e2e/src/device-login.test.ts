import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { useTestEnvironment } from '@workcell/testing';
import { AuthAgent, csrfOf } from './support/auth-agent.js';
import { useV1Cell } from './support/cell.js';

/**
 * Device login for the CLI (issue 27, RFC 8628, docs/authentication.md "Device login"), against the cell's auth
 * service and API: the device starts a login, the person signs in (coming back to /device with the code), approves
 * with a workspace, scopes and expiry, and the device's next poll receives a personal access token exactly once.
 * Plus the poll's answers (pending, slow_down, denied, expired, used), single-use codes, guessing limits, CSRF, the
 * permission settings.api.personalCredentials at approval and again at redemption, and discovery through GET /v1.
 */

const env = useTestEnvironment();

const sha256 = (value: string) => new Uint8Array(createHash('sha256').update(value, 'utf8').digest());
const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
const GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
const TOKENER = ['settings.api.personalCredentials', 'workspace:read', 'projects:read'];

interface Started {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
}

describe('device login for the CLI (RFC 8628)', () => {
  const cell = useV1Cell(env);

  const post = async (path: string, form: Record<string, string>, json = false) => {
    const response = await fetch(`${cell.auth.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': json ? 'application/json' : 'application/x-www-form-urlencoded' },
      body: json ? JSON.stringify(form) : new URLSearchParams(form).toString(),
    });
    return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> };
  };
  const start = async (scope?: string): Promise<Started> => {
    const started = await post('/device/code', { client_id: 'workcell-cli', ...(scope ? { scope } : {}) });
    assert.equal(started.status, 200, JSON.stringify(started.body));
    assert.equal(started.headers.get('cache-control'), 'no-store');
    return started.body as unknown as Started;
  };
  const poll = (deviceCode: string) => post('/device/token', { grant_type: GRANT, device_code: deviceCode, client_id: 'workcell-cli' });
  /** The poll interval has passed (the test moves the last poll back rather than waiting for it). */
  const intervalPassed = (deviceCode: string) =>
    cell.database.prisma.deviceAuthorization.update({ where: { deviceCodeHash: sha256(deviceCode) }, data: { lastPolledAt: new Date(Date.now() - 3_600_000) } });
  const refusal = (reply: { status: number; body: Record<string, unknown> }, error: string) => {
    assert.equal(reply.status, 400, JSON.stringify(reply.body));
    assert.equal(reply.body['error'], error, JSON.stringify(reply.body));
    assert.equal(typeof reply.body['error_description'], 'string');
    // Beside OAuth's fields, the v1 error document.
    assert.ok(Array.isArray(reply.body['errors']) && (reply.body['meta'] as { requestId?: string }).requestId);
  };

  /** A signed-in browser of a member with these permissions (a session row made here: sign-in itself is sign-in.test's). */
  async function signedIn(permissions: readonly string[] = TOKENER) {
    const member = await cell.member(permissions);
    const user = await cell.database.prisma.user.findUniqueOrThrow({ where: { email: member.email } });
    const secret = randomBytes(32).toString('base64url');
    await cell.database.prisma.session.create({ data: { userId: user.id, idHash: sha256(secret), expiresAt: new Date(Date.now() + 3_600_000) } });
    const agent = new AuthAgent(() => cell.auth.url);
    agent.cookies.set('wc_session', secret);
    return { agent, member };
  }

  /** Enters the code on /device and answers the approval page. */
  async function approvalPage(agent: AuthAgent, userCode: string) {
    const entry = await agent.get('/device');
    assert.equal(entry.status, 200, entry.text);
    return agent.post('/device', { csrf: csrfOf(entry.text), user_code: userCode });
  }

  it('GET /v1 names the sign-in page and the device endpoints; start → sign in → back to /device → approve → one token', async () => {
    const discovery = (await (await fetch(`${cell.v1.url}/v1`)).json()) as { data: { authentication: Record<string, string> } };
    const links = discovery.data.authentication;
    assert.equal(links['deviceAuthorizationUrl'], `${cell.auth.url}/device/code`);
    assert.equal(links['tokenUrl'], `${cell.auth.url}/device/token`);

    const started = await start('workspace:read projects:read');
    assert.match(started.user_code, /^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    // Where the person enters it: the auth service's /device (its public address, SIGN_IN_URL's sibling).
    assert.equal(new URL(started.verification_uri).pathname, '/device');
    assert.equal(started.verification_uri_complete, `${started.verification_uri}?user_code=${started.user_code}`);
    assert.equal(started.expires_in, 900);
    assert.equal(started.interval, 5);
    refusal(await poll(started.device_code), 'authorization_pending');
    // Only the codes' hashes are stored.
    const row = await cell.database.prisma.deviceAuthorization.findUniqueOrThrow({ where: { deviceCodeHash: sha256(started.device_code) } });
    assert.ok(!JSON.stringify(row).includes(started.user_code.replace('-', '')));

    // The person opens the complete link without a session: sign in first, then back here with the code.
    const member = await cell.member(TOKENER);
    const user = await cell.database.prisma.user.findUniqueOrThrow({ where: { email: member.email } });
    const agent = new AuthAgent(() => cell.auth.url);
    const away = await agent.get(`/device?user_code=${started.user_code.toLowerCase()}`);
    assert.equal(away.status, 303);
    assert.equal(away.headers.get('location'), '/sign-in');
    const token = randomBytes(32).toString('base64url');
    await cell.database.prisma.signInLink.create({ data: { userId: user.id, tokenHash: sha256(token), expiresAt: new Date(Date.now() + 600_000) } });
    const signedIn = await agent.complete(new URL(`${cell.auth.url}/sign-in?token=${token}`));
    assert.equal(signedIn.status, 303, signedIn.text);
    const code = started.user_code.replace('-', '');
    assert.equal(signedIn.headers.get('location'), `/device?user_code=${code}`);
    assert.ok(!agent.cookies.has('wc_return'), 'the way back is used once');

    const approval = await agent.get(`/device?user_code=${code}`);
    assert.equal(approval.status, 200, approval.text);
    assert.match(approval.text, /the Workcell CLI \(workcell\) asks for a personal access token of yours/);
    assert.ok(approval.text.includes(started.user_code));
    // The requested scopes are offered checked, the others the roles allow unchecked.
    assert.match(approval.text, /value="workspace:read" id="scope-0-\d+" checked/);
    const approved = await agent.post('/device/approve', {
      csrf: csrfOf(approval.text),
      user_code: started.user_code,
      workspaceId: cell.workspaceId,
      name: 'my laptop',
      scopes: ['workspace:read', 'projects:read'],
      expiresOn: day(30),
    });
    assert.equal(approved.status, 200, approved.text);
    assert.match(approved.text, /Device approved/);

    await intervalPassed(started.device_code);
    const redeemed = await poll(started.device_code);
    assert.equal(redeemed.status, 200, JSON.stringify(redeemed.body));
    assert.equal(redeemed.headers.get('cache-control'), 'no-store');
    const body = redeemed.body as { access_token: string; token_type: string; scope: string; workspace_id: string; expires_in: number; credential_id: string };
    assert.ok(body.access_token.startsWith('svc_pat_v2_'));
    assert.equal(body.token_type, 'Bearer');
    assert.deepEqual(body.scope.split(' ').sort(), ['projects:read', 'workspace:read']);
    assert.equal(body.workspace_id, cell.workspaceId);
    assert.ok(body.expires_in > 29 * 86_400 && body.expires_in <= 31 * 86_400);
    assert.equal((await cell.call('GET', '/v1/workspace', body.access_token)).status, 200);
    const credential = await cell.database.prisma.credential.findFirstOrThrow({ where: { workspaceId: cell.workspaceId, id: body.credential_id } });
    assert.equal(credential.memberId, member.memberId);
    assert.equal(credential.name, 'my laptop');
    const actions = (await cell.database.prisma.auditEvent.findMany({ where: { workspaceId: cell.workspaceId, actorPrincipalId: member.memberId } })).map((e) => e.action);
    for (const action of ['session.started', 'device_login.approved', 'credential.created']) assert.ok(actions.includes(action), `${action} in ${actions.join(', ')}`);

    // Exactly once: the next poll, and the code on the page, find nothing.
    await intervalPassed(started.device_code);
    refusal(await poll(started.device_code), 'invalid_grant');
    const again = await approvalPage(agent, started.user_code);
    assert.equal(again.status, 404);
  });

  it('a poll sooner than the interval is slow_down and raises it by 5 seconds', async () => {
    const started = await start();
    refusal(await poll(started.device_code), 'authorization_pending');
    refusal(await poll(started.device_code), 'slow_down');
    const row = await cell.database.prisma.deviceAuthorization.findUniqueOrThrow({ where: { deviceCodeHash: sha256(started.device_code) } });
    assert.equal(row.pollIntervalSeconds, 10);
  });

  it('denied is access_denied; past 15 minutes expired_token; an unknown code invalid_grant', async () => {
    const { agent } = await signedIn();
    const denied = await start();
    const page = await approvalPage(agent, denied.user_code);
    assert.equal(page.status, 200, page.text);
    const refused = await agent.post('/device/deny', { csrf: csrfOf(page.text), user_code: denied.user_code });
    assert.equal(refused.status, 200, refused.text);
    refusal(await poll(denied.device_code), 'access_denied');

    const late = await start();
    await cell.database.prisma.deviceAuthorization.update({
      where: { deviceCodeHash: sha256(late.device_code) },
      data: { createdAt: new Date(Date.now() - 1_000_000), expiresAt: new Date(Date.now() - 1000) },
    });
    refusal(await poll(late.device_code), 'expired_token');
    assert.equal((await approvalPage(agent, late.user_code)).status, 404, 'an expired code is not offered for approval');
    refusal(await poll('not-a-device-code'), 'invalid_grant');
  });

  it('the endpoints refuse malformed requests with OAuth errors, take JSON too, and require a known client', async () => {
    refusal(await post('/device/code', { client_id: 'someone-else' }), 'invalid_client');
    refusal(await post('/device/code', {}), 'invalid_request');
    refusal(await post('/device/code', { client_id: 'workcell-cli', scope: 'nope:nothing' }), 'invalid_request');
    const started = (await post('/device/code', { client_id: 'workcell-cli' }, true)).body as unknown as Started;
    assert.ok(started.device_code);
    refusal(await post('/device/token', { grant_type: 'authorization_code', device_code: started.device_code, client_id: 'workcell-cli' }), 'unsupported_grant_type');
    refusal(await post('/device/token', { grant_type: GRANT, client_id: 'workcell-cli' }), 'invalid_request');
    refusal(await post('/device/token', { grant_type: GRANT, device_code: started.device_code, client_id: 'other' }), 'invalid_client');
    refusal(await post('/device/token', { grant_type: GRANT, device_code: started.device_code, client_id: 'workcell-cli' }, true), 'authorization_pending');
  });

  it('forms need their token (CSRF); wrong codes are 404 and, after 10, 429 with Retry-After', async () => {
    const { agent } = await signedIn();
    const started = await start();
    const page = await approvalPage(agent, started.user_code);
    const forged = await agent.post('/device/approve', { csrf: 'forged', user_code: started.user_code, workspaceId: cell.workspaceId, name: 'x', scopes: 'workspace:read', expiresOn: day(3) });
    assert.equal(forged.status, 403);
    assert.equal((await agent.post('/device/deny', { user_code: started.user_code })).status, 403);
    assert.equal((await agent.post('/device', { user_code: started.user_code })).status, 403);
    refusal(await poll(started.device_code), 'authorization_pending');

    const csrf = csrfOf(page.text);
    for (let i = 0; i < 10; i++) assert.equal((await agent.post('/device', { csrf, user_code: 'BBBB-BBBB' })).status, 404);
    const limited = await agent.post('/device', { csrf, user_code: 'BBBB-BBBB' });
    assert.equal(limited.status, 429);
    assert.ok(Number(limited.headers.get('retry-after')) > 0);
  });

  it('approval needs settings.api.personalCredentials and scopes the roles give; authority is checked again when the device redeems', async () => {
    const without = await signedIn(['workspace:read']);
    const started = await start();
    const page = await approvalPage(without.agent, started.user_code);
    assert.equal(page.status, 200);
    assert.match(page.text, /None of your workspaces lets you create personal access tokens/);
    const refused = await without.agent.post('/device/approve', {
      csrf: csrfOf(page.text),
      user_code: started.user_code,
      workspaceId: cell.workspaceId,
      name: 'x',
      scopes: 'workspace:read',
      expiresOn: day(3),
    });
    assert.equal(refused.status, 403);

    const { agent, member } = await signedIn();
    const mine = await approvalPage(agent, started.user_code);
    const beyond = await agent.post('/device/approve', { csrf: csrfOf(mine.text), user_code: started.user_code, workspaceId: cell.workspaceId, name: 'x', scopes: 'tasks:write', expiresOn: day(3) });
    assert.equal(beyond.status, 403, 'a scope the roles do not give');
    const tooLong = await agent.post('/device/approve', {
      csrf: csrfOf(mine.text),
      user_code: started.user_code,
      workspaceId: cell.workspaceId,
      name: 'x',
      scopes: 'workspace:read',
      expiresOn: day(400),
    });
    assert.equal(tooLong.status, 400, 'an expiry beyond a year is shown on the approval page again');
    assert.match(tooLong.text, /Approve a device login/);
    const approved = await agent.post('/device/approve', {
      csrf: csrfOf(mine.text),
      user_code: started.user_code,
      workspaceId: cell.workspaceId,
      name: 'x',
      scopes: 'workspace:read',
      expiresOn: day(3),
    });
    assert.equal(approved.status, 200, approved.text);

    // The member loses the permission before the device polls: no token.
    await cell.database.prisma.role.updateMany({ where: { workspaceId: cell.workspaceId, memberRoles: { some: { memberId: member.memberId } } }, data: { permissions: ['workspace:read'] } });
    await intervalPassed(started.device_code);
    refusal(await poll(started.device_code), 'access_denied');
    assert.equal(await cell.database.prisma.credential.count({ where: { workspaceId: cell.workspaceId, memberId: member.memberId } }), 0);
  });

  it('signing in leads back only to the device page, never elsewhere', async () => {
    const member = await cell.member(TOKENER);
    const user = await cell.database.prisma.user.findUniqueOrThrow({ where: { email: member.email } });
    const agent = new AuthAgent(() => cell.auth.url);
    agent.cookies.set('wc_return', 'https://elsewhere.example/device');
    const token = randomBytes(32).toString('base64url');
    await cell.database.prisma.signInLink.create({ data: { userId: user.id, tokenHash: sha256(token), expiresAt: new Date(Date.now() + 600_000) } });
    const done = await agent.complete(new URL(`${cell.auth.url}/sign-in?token=${token}`));
    assert.equal(done.status, 303);
    assert.equal(done.headers.get('location'), '/account');
  });
});
