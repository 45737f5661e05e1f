import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { createApiV0App } from '@workcell/api-v0';
import { createApiV1App } from '@workcell/api-v1';
import { createAuthApp } from '@workcell/auth';
import { createWorkerApp } from '@workcell/worker';
import type { AppConfig } from '@workcell/config';
import { generateToken } from '@workcell/credentials';
import { createDatabase, type Database, type DemoTokens, issueCredential, issueTeamToken, seedDemoWorkspaceIfEmpty, inTransaction } from '@workcell/db';
import { createLogger } from '@workcell/http';
import { type RunningApp, startApp, testConfig, useTestEnvironment } from '@workcell/testing';

const env = useTestEnvironment();

type ErrorDocument = { errors: { code: string; detail: string; status: string; title: string }[]; meta: { requestId: string } };
type LegacyError = { error: { code: string; message: string } };

/** Everything every service logged during this file, to prove no secret ever reaches a log line. */
let logs = '';
const sink = () => new Writable({ write: (chunk, _enc, done) => ((logs += chunk.toString()), done()) });
const secrets: string[] = [];

describe('authentication and authorization (contract 5)', () => {
  let database: Database;
  let tokens: DemoTokens;
  let ownerMemberId: string;
  let serviceAccountId: string;
  let config: AppConfig;
  let auth: RunningApp;
  let worker: RunningApp;
  let v0: RunningApp;
  let v1: RunningApp;
  let v1b: RunningApp;

  const mint = async (input: Omit<Parameters<typeof issueCredential>[2], 'workspaceId'>) => {
    const { token } = await inTransaction(database, (tx) => issueCredential(tx, config, { workspaceId: tokens.workspaceId, ...input }));
    secrets.push(token);
    return token;
  };
  const get = (base: RunningApp, path: string, token?: string, headers: Record<string, string> = {}) =>
    fetch(`${base.url}${path}`, { headers: { ...(token === undefined ? {} : { authorization: `Bearer ${token}` }), ...headers } });

  beforeAll(async () => {
    database = createDatabase(env.config, { poolSize: 2 });
    const seeded = await seedDemoWorkspaceIfEmpty(database, env.config);
    assert.ok(seeded);
    tokens = seeded;
    secrets.push(tokens.v0TeamToken, tokens.personalAccessToken, tokens.serviceAccountCredential);
    ownerMemberId = (await database.prisma.workspaceMember.findFirstOrThrow({ where: { workspaceId: tokens.workspaceId } })).id;
    serviceAccountId = (await database.prisma.serviceAccount.findFirstOrThrow({ where: { workspaceId: tokens.workspaceId } })).id;
    const logged = (c: AppConfig, service: string) => createLogger({ ...c, logLevel: 'debug' }, service, sink());
    auth = await startApp((c) => createAuthApp(c, logged(c, 'auth')), env.config);
    worker = await startApp((c) => createWorkerApp(c, logged(c, 'worker')), env.config);
    config = testConfig({ DATABASE_URL: env.databaseUrl, REDIS_PREFIX: env.redisPrefix, AUTH_INTERNAL_URL: auth.url, WORKER_INTERNAL_URL: worker.url });
    v0 = await startApp((c) => createApiV0App(c, logged(c, 'api-v0')), config);
    v1 = await startApp((c) => createApiV1App(c, logged(c, 'api-v1')), config);
    v1b = await startApp((c) => createApiV1App(c, logged(c, 'api-v1')), config);
  });

  afterAll(async () => {
    for (const app of [v1b, v1, v0, worker, auth]) await app?.close();
    await database?.close();
  });

  describe('v0 team tokens (5.1)', () => {
    it('GET /teams confirms a token and shows its team', async () => {
      const res = await get(v0, '/teams', tokens.v0TeamToken);
      assert.equal(res.status, 200);
      const body = (await res.json()) as { _id: string; name: string; locked: boolean }[];
      assert.equal(body.length, 1);
      assert.equal(body[0]?._id, tokens.workspaceId);
      assert.equal(body[0]?.locked, false);
    });

    const rejected: [string, () => Record<string, string>][] = [
      ['a missing token', () => ({})],
      ['an unknown token of the right shape', () => ({ authorization: `Bearer ${generateToken('v0_team_token', 'eu1', 'c1')}` })],
      ['a token with a wrong checksum', () => ({ authorization: `Bearer ${tokens.v0TeamToken.slice(0, -1)}${tokens.v0TeamToken.endsWith('A') ? 'B' : 'A'}` })],
      ['a malformed header (Basic)', () => ({ authorization: `Basic ${Buffer.from('a:b').toString('base64')}` })],
      ['a malformed header (no token)', () => ({ authorization: 'Bearer' })],
      ['a malformed header (two tokens)', () => ({ authorization: `Bearer ${tokens.v0TeamToken} ${tokens.v0TeamToken}` })],
      ['a v1 credential', () => ({ authorization: `Bearer ${tokens.personalAccessToken}` })],
    ];
    for (const [what, headers] of rejected) {
      it(`answers 401 in the legacy error shape for ${what}, revealing no team data`, async () => {
        const res = await fetch(`${v0.url}/teams`, { headers: headers() });
        assert.equal(res.status, 401);
        const text = await res.text();
        assert.equal((JSON.parse(text) as LegacyError).error.code, 'unauthorized');
        assert.ok(!text.includes(tokens.workspaceId) && !text.includes('Demo Workspace'));
      });
    }

    it('answers 403 for a token of a locked team, and 200 again once unlocked', async () => {
      await database.changeAuthorization(tokens.workspaceId, () => database.prisma.workspace.update({ where: { id: tokens.workspaceId }, data: { lockedAt: new Date() } }));
      try {
        const res = await get(v0, '/teams', tokens.v0TeamToken);
        assert.equal(res.status, 403);
        const text = await res.text();
        assert.equal((JSON.parse(text) as LegacyError).error.code, 'team_locked');
        assert.ok(!text.includes(tokens.workspaceId));
      } finally {
        await database.changeAuthorization(tokens.workspaceId, () => database.prisma.workspace.update({ where: { id: tokens.workspaceId }, data: { lockedAt: null } }));
      }
      assert.equal((await get(v0, '/teams', tokens.v0TeamToken)).status, 200);
    });

    it('refuses a revoked team token', async () => {
      const token = await inTransaction(database, (tx) => issueTeamToken(tx, config, { workspaceId: tokens.workspaceId, name: 'short-lived' }));
      secrets.push(token);
      assert.equal((await get(v0, '/teams', token)).status, 200);
      await database.changeAuthorization(tokens.workspaceId, () =>
        database.prisma.teamToken.updateMany({ where: { workspaceId: tokens.workspaceId, name: 'short-lived' }, data: { revokedAt: new Date() } }),
      );
      assert.equal((await get(v0, '/teams', token)).status, 401);
    });
  });

  describe('v1 credentials (5.2, 5.3)', () => {
    it('GET /v1/auth/context returns exactly the credential’s safe metadata, privately', async () => {
      const res = await get(v1, '/v1/auth/context', tokens.serviceAccountCredential);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('cache-control'), 'private, no-store');
      const { data } = (await res.json()) as { data: Record<string, unknown> };
      assert.deepEqual(Object.keys(data).sort(), ['cell', 'credentialId', 'expiresAt', 'kind', 'region', 'scopes', 'status']);
      assert.equal(data['kind'], 'service-account');
      assert.equal(data['status'], 'active');
      assert.deepEqual(data['scopes'], ['workspace:read', 'projects:read', 'tasks:read', 'tasks:write', 'time-entries:read', 'time-entries:write']);
    });

    const unauthenticated: [string, () => string | undefined][] = [
      ['no credential', () => undefined],
      ['a v0 team token', () => tokens.v0TeamToken],
      ['an unknown credential', () => generateToken('personal_access_token', 'eu1', 'c1')],
      ['a wrong checksum', () => `${tokens.personalAccessToken.slice(0, -2)}zz`],
      ['a wrong prefix', () => `svc_xx_v2_${tokens.personalAccessToken.slice('svc_pat_v2_'.length)}`],
      ['a truncated credential', () => tokens.personalAccessToken.slice(0, 40)],
      ['an over-long credential', () => tokens.personalAccessToken + 'A'.repeat(3000)],
      ['a credential routed to another region', () => generateToken('personal_access_token', 'us1', 'c1')],
    ];
    for (const [what, token] of unauthenticated) {
      it(`answers 401 unauthenticated for ${what}`, async () => {
        const res = await get(v1, '/v1/workspace', token());
        assert.equal(res.status, 401);
        const body = (await res.json()) as ErrorDocument;
        assert.equal(body.errors[0]?.code, 'unauthenticated');
        assert.equal(body.meta.requestId, res.headers.get('x-request-id'));
      });
    }

    it('answers 401 for a credential stored for another cell, without redirecting', async () => {
      const token = await mint({ kind: 'service_account', name: 'other cell', scopes: ['workspace:read'], serviceAccountId, cell: 'c9' });
      const res = await fetch(`${v1.url}/v1/workspace`, { headers: { authorization: `Bearer ${token}` }, redirect: 'manual' });
      assert.equal(res.status, 401);
      assert.equal(res.headers.get('location'), null);
    });

    it('answers 401 credential_expired for an expired credential', async () => {
      const token = await mint({ kind: 'service_account', name: 'expired', scopes: ['workspace:read'], serviceAccountId, expiresAt: new Date(Date.now() - 1000) });
      const res = await get(v1, '/v1/workspace', token);
      assert.equal(res.status, 401);
      assert.equal(((await res.json()) as ErrorDocument).errors[0]?.code, 'credential_expired');
    });

    it('GET /v1/workspace separates authorization (403 insufficient_scope, naming the scope) from authentication', async () => {
      const token = await mint({ kind: 'service_account', name: 'no scopes', scopes: [], serviceAccountId });
      const denied = await get(v1, '/v1/workspace', token);
      assert.equal(denied.status, 403);
      const body = (await denied.json()) as ErrorDocument;
      assert.equal(body.errors[0]?.code, 'insufficient_scope');
      assert.match(body.errors[0]?.detail ?? '', /workspace:read/);
      assert.equal((await get(v1, '/v1/auth/context', token)).status, 200, 'auth context needs no scope');
      const ok = await get(v1, '/v1/workspace', tokens.serviceAccountCredential);
      assert.equal(ok.status, 200);
      assert.match(ok.headers.get('etag') ?? '', /^"\d+"$/);
      assert.equal(((await ok.json()) as { data: { id: string } }).data.id, tokens.workspaceId);
    });

    it('narrows a personal token to its member’s current permissions, on every instance at once', async () => {
      const token = await mint({ kind: 'personal_access_token', name: 'pat', scopes: ['workspace:read'], memberId: ownerMemberId });
      assert.equal((await get(v1, '/v1/workspace', token)).status, 200);
      const role = await database.prisma.role.findFirstOrThrow({ where: { workspaceId: tokens.workspaceId, name: 'Owner' } });
      await database.changeAuthorization(tokens.workspaceId, () =>
        database.prisma.role.update({ where: { workspaceId_id: { workspaceId: tokens.workspaceId, id: role.id } }, data: { permissions: role.permissions.filter((p) => p !== 'workspace:read') } }),
      );
      try {
        for (const instance of [v1b, v1]) assert.equal((await get(instance, '/v1/workspace', token)).status, 403);
      } finally {
        await database.changeAuthorization(tokens.workspaceId, () =>
          database.prisma.role.update({ where: { workspaceId_id: { workspaceId: tokens.workspaceId, id: role.id } }, data: { permissions: role.permissions } }),
        );
      }
      assert.equal((await get(v1b, '/v1/workspace', token)).status, 200);
    });

    it('refuses a personal token of a disabled member, and a service-account credential of a disabled account', async () => {
      const pat = await mint({ kind: 'personal_access_token', name: 'pat2', scopes: ['workspace:read'], memberId: ownerMemberId });
      await database.changeAuthorization(tokens.workspaceId, () =>
        database.prisma.workspaceMember.update({ where: { workspaceId_id: { workspaceId: tokens.workspaceId, id: ownerMemberId } }, data: { status: 'disabled' } }),
      );
      try {
        assert.equal((await get(v1b, '/v1/workspace', pat)).status, 401);
      } finally {
        await database.changeAuthorization(tokens.workspaceId, () =>
          database.prisma.workspaceMember.update({ where: { workspaceId_id: { workspaceId: tokens.workspaceId, id: ownerMemberId } }, data: { status: 'active' } }),
        );
      }
      await database.changeAuthorization(tokens.workspaceId, () =>
        database.prisma.serviceAccount.update({ where: { workspaceId_id: { workspaceId: tokens.workspaceId, id: serviceAccountId } }, data: { status: 'disabled' } }),
      );
      try {
        assert.equal((await get(v1, '/v1/workspace', tokens.serviceAccountCredential)).status, 401);
      } finally {
        await database.changeAuthorization(tokens.workspaceId, () =>
          database.prisma.serviceAccount.update({ where: { workspaceId_id: { workspaceId: tokens.workspaceId, id: serviceAccountId } }, data: { status: 'active' } }),
        );
      }
      assert.equal((await get(v1, '/v1/workspace', pat)).status, 200);
    });

    it('answers 403 workspace_locked while the workspace is locked', async () => {
      await database.changeAuthorization(tokens.workspaceId, () => database.prisma.workspace.update({ where: { id: tokens.workspaceId }, data: { lockedAt: new Date() } }));
      try {
        const res = await get(v1b, '/v1/workspace', tokens.serviceAccountCredential);
        assert.equal(res.status, 403);
        assert.equal(((await res.json()) as ErrorDocument).errors[0]?.code, 'workspace_locked');
      } finally {
        await database.changeAuthorization(tokens.workspaceId, () => database.prisma.workspace.update({ where: { id: tokens.workspaceId }, data: { lockedAt: null } }));
      }
    });

    it('DELETE /v1/auth/context revokes exactly that credential, seen at once by every instance', async () => {
      const doomed = await mint({ kind: 'service_account', name: 'doomed', scopes: ['workspace:read'], serviceAccountId });
      const sibling = await mint({ kind: 'service_account', name: 'sibling', scopes: ['workspace:read'], serviceAccountId });
      const res = await fetch(`${v1.url}/v1/auth/context`, { method: 'DELETE', headers: { authorization: `Bearer ${doomed}` } });
      assert.equal(res.status, 204);
      assert.equal(res.headers.get('cache-control'), 'private, no-store');
      assert.equal(await res.text(), '');
      const after = await get(v1b, '/v1/auth/context', doomed);
      assert.equal(after.status, 401);
      assert.equal(((await after.json()) as ErrorDocument).errors[0]?.code, 'credential_revoked');
      assert.equal((await get(v1b, '/v1/auth/context', sibling)).status, 200);
      assert.equal((await get(v1, '/v1/auth/context', tokens.serviceAccountCredential)).status, 200);
      const audit = await database.prisma.auditEvent.findMany({ where: { workspaceId: tokens.workspaceId, action: 'credential.revoked' } });
      assert.equal(audit.length, 1);
      assert.equal(audit[0]?.actorCredentialId, audit[0]?.targetId);
      assert.equal(audit[0]?.actorPrincipalType, 'service_account');
      assert.ok(!JSON.stringify(audit).includes(doomed));
    });

    it('validates requests against the registry after authenticating them', async () => {
      const unknownParam = await get(v1, '/v1/workspace?expand=everything', tokens.serviceAccountCredential);
      assert.equal(unknownParam.status, 400);
      const body = (await unknownParam.json()) as { errors: { code: string; source?: { parameter?: string } }[] };
      assert.equal(body.errors[0]?.code, 'validation_failed');
      assert.deepEqual(body.errors[0]?.source, { parameter: 'expand' });
      assert.equal((await get(v1, '/v1/workspace?expand=everything')).status, 401, 'authentication comes first');
      for (const query of ['page=0', 'limit=501', 'limit=abc', 'page=1.5']) {
        const res = await get(v0, `/teams?${query}`, tokens.v0TeamToken);
        assert.equal(res.status, 400, query);
        assert.equal(((await res.json()) as LegacyError).error.code, 'invalid_request');
      }
      assert.equal((await get(v0, '/teams?page=2&limit=500', tokens.v0TeamToken)).status, 200);
    });

    it('GET /v1/audit-events lists credential changes (audit:read), filtered and paged, without secrets', async () => {
      const denied = await get(v1, '/v1/audit-events', tokens.serviceAccountCredential);
      assert.equal(denied.status, 403);
      const res = await get(v1, '/v1/audit-events?action=credential.revoked&limit=1', tokens.personalAccessToken);
      assert.equal(res.status, 200);
      const page = (await res.json()) as { data: { action: string; actorType: string; credentialId: string; targetId: string }[]; meta: { nextCursor: string | null }; links: { next: string | null } };
      assert.equal(page.data.length, 1);
      assert.equal(page.data[0]?.action, 'credential.revoked');
      assert.equal(page.data[0]?.actorType, 'service-account');
      assert.equal(page.data[0]?.credentialId, page.data[0]?.targetId);
      const text = JSON.stringify(page);
      for (const secret of secrets) assert.ok(!text.includes(secret));
      const tampered = await get(v1, `/v1/audit-events?action=credential.revoked&cursor=${encodeURIComponent((page.meta.nextCursor ?? 'x.y') + 'x')}`, tokens.personalAccessToken);
      assert.equal(tampered.status, 400);
      const all = await get(v1, '/v1/audit-events?limit=200', tokens.personalAccessToken);
      assert.ok(((await all.json()) as { data: unknown[] }).data.length >= 1);
    });

    it('authenticates in-process while the auth service is unreachable; what needs it answers 503 service_unavailable, not 401', async () => {
      const orphan = await startApp(createApiV1App, testConfig({ DATABASE_URL: env.databaseUrl, REDIS_PREFIX: env.redisPrefix, AUTH_INTERNAL_URL: 'http://127.0.0.1:9' }));
      try {
        assert.equal((await get(orphan, '/v1/workspace', tokens.serviceAccountCredential)).status, 200);
        const res = await fetch(`${orphan.url}/v1/credentials`, {
          method: 'POST',
          headers: { authorization: `Bearer ${tokens.personalAccessToken}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'while the auth service is away', scopes: ['workspace:read'] }),
        });
        assert.equal(res.status, 503);
        assert.equal(res.headers.get('retry-after'), '1');
        assert.equal(((await res.json()) as ErrorDocument).errors[0]?.code, 'service_unavailable');
      } finally {
        await orphan.close();
      }
    });
  });

  it('never writes a secret to any service’s log', () => {
    assert.ok(logs.length > 0, 'the services logged nothing at all');
    for (const secret of secrets) assert.ok(!logs.includes(secret), 'a credential secret appeared in a log');
  });
});
