import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import type { AppConfig } from '@workcell/config';
import { PERMISSION_KEYS, V1_SCOPES } from '@workcell/credentials';
import { type Database, type DemoTokens, issueCredential, inTransaction } from '@workcell/db';
import { GRANT_DOMAINS } from '@workcell/domain';
import { createLogger } from '@workcell/http';
import { GRANT_RESOURCE_TYPES } from '@workcell/registry';
import { type RunningApp, useTestEnvironment } from '@workcell/testing';
import { startV1Cell, type V1Cell } from './support/cell.js';
import type { ErrorItem, Schema } from './support/v1.js';

/**
 * Credential administration through the running services (contract 5.2, 5.3): personal access tokens,
 * service accounts, their credentials and resource grants. Secrets are revealed once, minted only by
 * authorized members for scopes they hold, rotated and revoked at once on every instance, confined to their
 * workspace, audited, and never logged.
 */

const env = useTestEnvironment();

type Doc = {
  data?: unknown;
  errors?: ErrorItem[];
  meta?: { limit?: number; nextCursor?: string | null; requestId?: string };
  links?: { next: string | null };
};
type Reply = { status: number; text: string; body: Doc; headers: Headers; index: number };
/** A credential as the credential routes answer: a service account's names its account; a new or rotated one shows its secret, once. */
type Credential = Schema<'PersonalAccessToken'> & Partial<Pick<Schema<'ServiceAccountCredentialWithSecret'>, 'serviceAccountId' | 'secret'>>;
type ServiceAccount = Schema<'ServiceAccount'>;
/** A grant as a replacement may send it: the refused ones too (an unknown resource type). */
type Grant = { resourceType: string; resourceId: string | null; access: 'read' | 'write' };
type Grants = Schema<'ResourceGrants'>;

const PAT_FIELDS = ['cell', 'createdAt', 'expiresAt', 'id', 'lastUsedAt', 'name', 'prefix', 'region', 'revokedAt', 'scopes', 'status'];
const SA_CREDENTIAL_FIELDS = [...PAT_FIELDS, 'serviceAccountId'].sort();
const SA_FIELDS = ['createdAt', 'description', 'id', 'name', 'ownerMemberId', 'status', 'updatedAt'];

/** Everything every service logged, and every response body, to prove where secrets appear. */
let logs = '';
const sink = () => new Writable({ write: (chunk, _enc, done) => ((logs += chunk.toString()), done()) });
const responses: string[] = [];
/** Each minted secret and the index of the one response allowed to show it (-1: minted by the test itself). */
const revealed = new Map<string, number>();

describe('credential administration (contract 5.2, 5.3)', () => {
  let cell: V1Cell;
  let database: Database;
  let tokens: DemoTokens;
  let config: AppConfig;
  let ws: string;
  let ownerMemberId: string;
  let ownerRoleId: string;
  let demoServiceAccountId: string;
  let owner: string;
  let v1: RunningApp;
  let v1b: RunningApp;
  let projectId: string;
  let taskId: string;
  /** Another workspace, inserted directly: its member's token, service account, credential and project. */
  const other = { workspaceId: '', memberId: '', token: '', credentialId: '', serviceAccountId: '', projectId: '' };

  const call = async (method: string, path: string, token: string | undefined, body?: unknown, base: RunningApp = v1): Promise<Reply> => {
    const headers: Record<string, string> = token === undefined ? {} : { authorization: `Bearer ${token}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${base.url}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const text = await res.text();
    responses.push(text);
    return { status: res.status, text, body: text ? (JSON.parse(text) as Doc) : {}, headers: res.headers, index: responses.length - 1 };
  };
  const data = <T>(reply: Reply): T => reply.body.data as T;
  const error = (reply: Reply): ErrorItem => reply.body.errors?.[0] ?? assert.fail(`no error document: ${reply.text}`);
  /** A response that reveals a secret: remembered as the one place it may appear. */
  const reveal = (reply: Reply): Credential => {
    const credential = data<Credential>(reply);
    assert.ok(credential.secret, `no secret in ${reply.text}`);
    revealed.set(credential.secret, reply.index);
    return credential;
  };
  const mint = async (input: Omit<Parameters<typeof issueCredential>[2], 'workspaceId'> & { workspaceId?: string }) => {
    const { id, token } = await inTransaction(database, (tx) => issueCredential(tx, config, { workspaceId: ws, ...input }));
    revealed.set(token, -1);
    return { id, token };
  };
  const setRolePermissions = (roleId: string, permissions: readonly string[], workspaceId = ws) =>
    database.changeAuthorization(workspaceId, () => database.prisma.role.update({ where: { workspaceId_id: { workspaceId, id: roleId } }, data: { permissions: [...permissions] } }));
  /** A member of `workspaceId` with one role holding `permissions`. */
  const addMember = async (workspaceId: string, email: string, permissions: readonly string[]) => {
    const user = await database.prisma.user.create({ data: { email, name: `Person ${email}` } });
    const member = await database.prisma.workspaceMember.create({ data: { workspaceId, userId: user.id } });
    const role = await database.prisma.role.create({ data: { workspaceId, name: `Role of ${email}`, permissions: [...permissions] } });
    await database.prisma.memberRole.create({ data: { workspaceId, memberId: member.id, roleId: role.id } });
    return { memberId: member.id, roleId: role.id };
  };
  const audits = (action: string, targetId?: string) => database.prisma.auditEvent.findMany({ where: { workspaceId: ws, action, ...(targetId ? { targetId } : {}) }, orderBy: { id: 'asc' } });
  const createPat = async (token: string, body: Record<string, unknown>) => {
    const reply = await call('POST', '/v1/credentials', token, body);
    assert.equal(reply.status, 201, reply.text);
    return reveal(reply);
  };

  beforeAll(async () => {
    const logged = (c: AppConfig, service: string) => createLogger({ ...c, logLevel: 'debug' }, service, sink());
    cell = await startV1Cell(env, { logger: logged });
    ({ database, demo: tokens, ownerMemberId, config, v1, v1b } = cell);
    ws = tokens.workspaceId;
    owner = tokens.personalAccessToken;
    for (const t of [tokens.v0TeamToken, tokens.personalAccessToken, tokens.serviceAccountCredential]) revealed.set(t, -1);
    ownerRoleId = (await database.prisma.role.findFirstOrThrow({ where: { workspaceId: ws, name: 'Owner' } })).id;
    demoServiceAccountId = (await database.prisma.serviceAccount.findFirstOrThrow({ where: { workspaceId: ws } })).id;
    projectId = (await database.prisma.project.findFirstOrThrow({ where: { workspaceId: ws } })).id;
    taskId = (await database.prisma.task.findFirstOrThrow({ where: { workspaceId: ws } })).id;

    const workspace = await database.prisma.workspace.create({ data: { name: 'Other Workspace', region: config.region, cell: config.cell } });
    other.workspaceId = workspace.id;
    other.memberId = (await addMember(workspace.id, 'owner@other.workcell.test', PERMISSION_KEYS)).memberId;
    const pat = await mint({ workspaceId: workspace.id, kind: 'personal_access_token', name: 'other pat', scopes: V1_SCOPES, memberId: other.memberId });
    other.token = pat.token;
    other.credentialId = pat.id;
    other.serviceAccountId = (await database.prisma.serviceAccount.create({ data: { workspaceId: workspace.id, name: 'Other integration', ownerMemberId: other.memberId } })).id;
    other.projectId = (await database.prisma.project.create({ data: { workspaceId: workspace.id, name: 'Other project' } })).id;
  });

  afterAll(() => cell?.close());

  describe('personal access tokens', () => {
    it('creates a token of the acting member and reveals its secret exactly once', async () => {
      const reply = await call('POST', '/v1/credentials', owner, { name: '  laptop script ', scopes: ['workspace:read', 'projects:read'] });
      assert.equal(reply.status, 201, reply.text);
      assert.equal(reply.headers.get('cache-control'), 'private, no-store');
      const created = reveal(reply);
      // No Location: a token has no GET of its own (a Location must name a route that answers GET).
      assert.equal(reply.headers.get('location'), null);
      assert.deepEqual(Object.keys(created).sort(), [...PAT_FIELDS, 'secret'].sort());
      assert.equal(created.name, 'laptop script');
      assert.equal(created.prefix, 'svc_pat_v2_');
      assert.ok(created.secret?.startsWith(`svc_pat_v2_${config.region}_${config.cell}_`));
      assert.equal(created.status, 'active');
      assert.deepEqual(created.scopes, ['workspace:read', 'projects:read']);
      assert.deepEqual([created.region, created.cell, created.expiresAt, created.revokedAt], [config.region, config.cell, null, null]);

      const context = await call('GET', '/v1/auth/context', created.secret, undefined, v1b);
      assert.equal(context.status, 200);
      assert.equal(data<{ credentialId: string; kind: string }>(context).credentialId, created.id);
      assert.equal(data<{ kind: string }>(context).kind, 'personal-access-token');

      const listed = await call('GET', '/v1/credentials', owner);
      assert.equal(listed.status, 200);
      const item = data<Credential[]>(listed).find((c) => c.id === created.id);
      assert.ok(item);
      assert.deepEqual(Object.keys(item).sort(), PAT_FIELDS);
      for (const entry of data<Credential[]>(listed)) assert.deepEqual(Object.keys(entry).sort(), PAT_FIELDS);
      assert.ok(!listed.text.includes(created.secret!.slice(-49)), 'a later read shows the secret');
      const row = await database.prisma.credential.findFirstOrThrow({ where: { workspaceId: ws, id: created.id } });
      assert.equal(row.memberId, ownerMemberId);
    });

    it('stores a future expiry and refuses a past one', async () => {
      const expiresAt = new Date(Date.now() + 3600_000).toISOString();
      const created = await createPat(owner, { name: 'expiring', scopes: ['workspace:read'], expiresAt });
      assert.equal(created.expiresAt, expiresAt);
      const past = await call('POST', '/v1/credentials', owner, { name: 'expired', scopes: ['workspace:read'], expiresAt: new Date(Date.now() - 1000).toISOString() });
      assert.equal(past.status, 400);
      assert.equal(error(past).source?.pointer, '/expiresAt');
    });

    it('needs the member permission settings.api.personalCredentials to create or rotate, never to revoke', async () => {
      const victim = await createPat(owner, { name: 'to revoke without permission', scopes: ['workspace:read'] });
      await setRolePermissions(
        ownerRoleId,
        PERMISSION_KEYS.filter((p) => p !== 'settings.api.personalCredentials'),
      );
      try {
        const denied = await call('POST', '/v1/credentials', owner, { name: 'nope', scopes: ['workspace:read'] }, v1b);
        assert.equal(denied.status, 403);
        assert.equal(error(denied).code, 'forbidden');
        assert.match(error(denied).detail, /settings\.api\.personalCredentials/);
        const rotate = await call('POST', `/v1/credentials/${victim.id}/rotate`, owner);
        assert.equal(rotate.status, 403);
        assert.equal(error(rotate).code, 'forbidden');
        assert.equal((await call('DELETE', `/v1/credentials/${victim.id}`, owner)).status, 204);
      } finally {
        await setRolePermissions(ownerRoleId, PERMISSION_KEYS);
      }
      await createPat(owner, { name: 'allowed again', scopes: ['workspace:read'] });
      assert.equal(await database.prisma.credential.count({ where: { workspaceId: ws, name: 'nope' } }), 0);
      assert.equal((await audits('credential.revoked', victim.id)).length, 1);
    });

    it('refuses service-account principals: they have no personal tokens', async () => {
      const sa = await mint({
        kind: 'service_account',
        name: 'sa with credential scopes',
        scopes: ['credentials:read', 'credentials:write', 'workspace:read'],
        serviceAccountId: demoServiceAccountId,
      });
      for (const [method, path, body] of [
        ['POST', '/v1/credentials', { name: 'x', scopes: ['workspace:read'] }],
        ['GET', '/v1/credentials', undefined],
        ['DELETE', `/v1/credentials/${sa.id}`, undefined],
      ] as const) {
        const reply = await call(method, path, sa.token, body);
        assert.equal(reply.status, 403, `${method} ${path}`);
        assert.equal(error(reply).code, 'forbidden');
      }
      assert.equal((await call('GET', '/v1/auth/context', sa.token)).status, 200, 'the service-account credential was not revoked');
    });

    it('refuses to mint scopes the calling credential does not hold (403 insufficient_scope naming them)', async () => {
      const narrow = await mint({ kind: 'personal_access_token', name: 'narrow', scopes: ['credentials:write', 'workspace:read'], memberId: ownerMemberId });
      const escalate = await call('POST', '/v1/credentials', narrow.token, { name: 'wider', scopes: ['workspace:read', 'projects:write', 'members:write'] });
      assert.equal(escalate.status, 403);
      assert.equal(error(escalate).code, 'insufficient_scope');
      assert.match(error(escalate).detail, /projects:write, members:write/);
      assert.doesNotMatch(error(escalate).detail, /workspace:read/);
      await createPat(narrow.token, { name: 'same or narrower', scopes: ['workspace:read'] });

      // What the credential effectively holds counts: its member lost projects:write, so it cannot hand it out.
      await setRolePermissions(
        ownerRoleId,
        PERMISSION_KEYS.filter((p) => p !== 'projects:write'),
      );
      try {
        const lost = await call('POST', '/v1/credentials', owner, { name: 'lost scope', scopes: ['projects:write'] });
        assert.equal(lost.status, 403);
        assert.equal(error(lost).code, 'insufficient_scope');
      } finally {
        await setRolePermissions(ownerRoleId, PERMISSION_KEYS);
      }

      // Rotation hands out a secret for the rotated token's scopes: the same rule applies.
      const broad = await createPat(owner, { name: 'broad', scopes: ['workspace:read', 'projects:read', 'tasks:read'] });
      const rotate = await call('POST', `/v1/credentials/${broad.id}/rotate`, narrow.token);
      assert.equal(rotate.status, 403);
      assert.equal(error(rotate).code, 'insufficient_scope');
      assert.match(error(rotate).detail, /projects:read, tasks:read/);
      assert.equal((await call('GET', '/v1/auth/context', broad.secret)).status, 200, 'a refused rotation revokes nothing');
    });

    it('rotation revokes the previous secret at once on every instance and the successor works', async () => {
      const first = await createPat(owner, { name: 'rotating', scopes: ['workspace:read'] });
      assert.equal((await call('GET', '/v1/workspace', first.secret, undefined, v1b)).status, 200);
      const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
      const reply = await call('POST', `/v1/credentials/${first.id}/rotate`, owner, { expiresAt });
      assert.equal(reply.status, 200, reply.text);
      assert.equal(reply.headers.get('cache-control'), 'private, no-store');
      const next = reveal(reply);
      assert.notEqual(next.id, first.id);
      assert.notEqual(next.secret, first.secret);
      assert.deepEqual([next.name, next.scopes, next.status, next.expiresAt], ['rotating', ['workspace:read'], 'active', expiresAt]);

      const old = await call('GET', '/v1/workspace', first.secret, undefined, v1b);
      assert.equal(old.status, 401);
      assert.equal(error(old).code, 'credential_revoked');
      assert.equal((await call('GET', '/v1/workspace', next.secret, undefined, v1b)).status, 200);

      const rows = await database.prisma.credential.findMany({ where: { workspaceId: ws, id: { in: [first.id, next.id] } } });
      assert.equal(rows.find((r) => r.id === next.id)?.rotatedFromId, first.id);
      assert.equal(rows.find((r) => r.id === first.id)?.status, 'revoked');
      const again = await call('POST', `/v1/credentials/${first.id}/rotate`, owner);
      assert.equal(again.status, 409);
      assert.equal(error(again).code, 'conflict');

      const [event] = await audits('credential.rotated', first.id);
      assert.ok(event);
      assert.equal((event.metadata as { successorId?: string }).successorId, next.id);
      assert.equal(event.requestId, reply.headers.get('x-request-id'));
    });

    it('keeps the expiry on rotation unless told, and exactly one of two concurrent rotations wins', async () => {
      const expiresAt = new Date(Date.now() + 7200_000).toISOString();
      const created = await createPat(owner, { name: 'racing', scopes: ['workspace:read'], expiresAt });
      const replies = await Promise.all([v1, v1b].map((base) => call('POST', `/v1/credentials/${created.id}/rotate`, owner, undefined, base)));
      assert.deepEqual(replies.map((r) => r.status).sort(), [200, 409]);
      const winner = reveal(replies.find((r) => r.status === 200)!);
      assert.equal(winner.expiresAt, expiresAt);
      assert.equal(await database.prisma.credential.count({ where: { workspaceId: ws, rotatedFromId: created.id } }), 1);
    });

    it('revocation affects only the revoked credential, and is permanent and idempotent', async () => {
      const a = await createPat(owner, { name: 'a', scopes: ['workspace:read'] });
      const b = await createPat(owner, { name: 'b', scopes: ['workspace:read'] });
      const reply = await call('DELETE', `/v1/credentials/${a.id}`, owner);
      assert.equal(reply.status, 204);
      assert.equal(reply.text, '');
      const gone = await call('GET', '/v1/workspace', a.secret, undefined, v1b);
      assert.equal(gone.status, 401);
      assert.equal(error(gone).code, 'credential_revoked');
      assert.equal((await call('GET', '/v1/workspace', b.secret, undefined, v1b)).status, 200);
      assert.equal((await call('GET', '/v1/workspace', owner, undefined, v1b)).status, 200);
      assert.equal((await call('GET', '/v1/workspace', tokens.serviceAccountCredential, undefined, v1b)).status, 200);
      assert.equal((await call('DELETE', `/v1/credentials/${a.id}`, owner)).status, 204);
      const events = await audits('credential.revoked', a.id);
      assert.equal(events.length, 1, 'a repeated revocation changes nothing');
      assert.equal(events[0]?.actorPrincipalType, 'member');
      assert.equal(events[0]?.actorPrincipalId, ownerMemberId);
      const revokedList = await call('GET', '/v1/credentials?status=revoked&limit=200', owner);
      const listedA = data<Credential[]>(revokedList).find((c) => c.id === a.id);
      assert.equal(listedA?.status, 'revoked');
      assert.ok(listedA?.revokedAt);
    });

    it('acts only on the acting member’s own personal tokens (404 for another member’s or a service account’s)', async () => {
      const colleague = await addMember(ws, 'colleague@demo.workcell.test', PERMISSION_KEYS);
      const theirs = await mint({ kind: 'personal_access_token', name: 'colleague pat', scopes: ['workspace:read'], memberId: colleague.memberId });
      const saCredential = await mint({ kind: 'service_account', name: 'not a pat', scopes: ['workspace:read'], serviceAccountId: demoServiceAccountId });
      for (const id of [theirs.id, saCredential.id, '00000000-0000-7000-8000-000000000000', 'not-a-uuid']) {
        const revoke = await call('DELETE', `/v1/credentials/${id}`, owner);
        assert.equal(revoke.status, 404, id);
        assert.equal(error(revoke).code, 'not_found');
        assert.equal((await call('POST', `/v1/credentials/${id}/rotate`, owner)).status, 404, id);
      }
      const listed = data<Credential[]>(await call('GET', '/v1/credentials?limit=200', owner)).map((c) => c.id);
      assert.ok(!listed.includes(theirs.id) && !listed.includes(saCredential.id));
      for (const token of [theirs.token, saCredential.token]) assert.equal((await call('GET', '/v1/workspace', token)).status, 200);
    });
  });

  describe('service accounts', () => {
    let accountId: string;
    let credential: Credential;

    it('creates, reads, lists and updates service accounts, owned by the acting member', async () => {
      const reply = await call('POST', '/v1/service-accounts', owner, { name: 'CI deploys', description: 'Deploys from CI' });
      assert.equal(reply.status, 201, reply.text);
      const created = data<ServiceAccount>(reply);
      accountId = created.id;
      assert.equal(reply.headers.get('location'), `/v1/service-accounts/${created.id}`);
      assert.deepEqual(Object.keys(created).sort(), SA_FIELDS);
      assert.deepEqual([created.name, created.description, created.status, created.ownerMemberId], ['CI deploys', 'Deploys from CI', 'active', ownerMemberId]);
      assert.deepEqual(data<ServiceAccount>(await call('GET', `/v1/service-accounts/${created.id}`, owner, undefined, v1b)), created);
      assert.ok(data<ServiceAccount[]>(await call('GET', '/v1/service-accounts', owner)).some((sa) => sa.id === created.id));
      const patched = await call('PATCH', `/v1/service-accounts/${created.id}`, owner, { name: 'CI deploys (prod)', description: null });
      assert.equal(patched.status, 200, patched.text);
      assert.deepEqual([data<ServiceAccount>(patched).name, data<ServiceAccount>(patched).description], ['CI deploys (prod)', null]);
      assert.equal((await call('PATCH', `/v1/service-accounts/${created.id}`, owner, {})).status, 400);
      assert.equal((await audits('service_account.created', created.id)).length, 1);
      assert.equal((await audits('service_account.updated', created.id)).length, 1);
    });

    it('mints, lists, rotates and revokes its credentials; each secret shown once', async () => {
      const reply = await call('POST', `/v1/service-accounts/${accountId}/credentials`, owner, { name: 'deploy key', scopes: ['workspace:read', 'projects:read'] });
      assert.equal(reply.status, 201, reply.text);
      assert.equal(reply.headers.get('cache-control'), 'private, no-store');
      credential = reveal(reply);
      assert.deepEqual(Object.keys(credential).sort(), [...SA_CREDENTIAL_FIELDS, 'secret'].sort());
      assert.equal(credential.prefix, 'svc_sa_v2_');
      assert.equal(credential.serviceAccountId, accountId);
      assert.ok(credential.secret?.startsWith('svc_sa_v2_'));
      const context = await call('GET', '/v1/auth/context', credential.secret, undefined, v1b);
      assert.equal(data<{ kind: string }>(context).kind, 'service-account');

      const second = reveal(await call('POST', `/v1/service-accounts/${accountId}/credentials`, owner, { name: 'second key', scopes: ['workspace:read'] }));
      const listed = await call('GET', `/v1/service-accounts/${accountId}/credentials`, owner);
      assert.equal(listed.status, 200);
      assert.deepEqual(
        data<Credential[]>(listed).map((c) => c.id),
        [credential.id, second.id],
      );
      for (const item of data<Credential[]>(listed)) assert.deepEqual(Object.keys(item).sort(), SA_CREDENTIAL_FIELDS);

      const rotated = await call('POST', `/v1/service-accounts/${accountId}/credentials/${credential.id}/rotate`, owner);
      assert.equal(rotated.status, 200, rotated.text);
      const successor = reveal(rotated);
      assert.equal(error(await call('GET', '/v1/workspace', credential.secret, undefined, v1b)).code, 'credential_revoked');
      assert.equal((await call('GET', '/v1/workspace', successor.secret, undefined, v1b)).status, 200);
      credential = successor;

      assert.equal((await call('DELETE', `/v1/service-accounts/${accountId}/credentials/${second.id}`, owner)).status, 204);
      assert.equal(error(await call('GET', '/v1/workspace', second.secret, undefined, v1b)).code, 'credential_revoked');
      assert.equal((await call('GET', '/v1/workspace', successor.secret, undefined, v1b)).status, 200, 'revocation affects only that credential');
      // A credential of another account is not addressable through this one.
      const demoKey = await database.prisma.credential.findFirstOrThrow({ where: { workspaceId: ws, serviceAccountId: demoServiceAccountId } });
      assert.equal((await call('DELETE', `/v1/service-accounts/${accountId}/credentials/${demoKey.id}`, owner)).status, 404);
      assert.equal((await call('POST', `/v1/service-accounts/${accountId}/credentials/${demoKey.id}/rotate`, owner)).status, 404);
      assert.equal((await call('GET', '/v1/workspace', tokens.serviceAccountCredential)).status, 200);
    });

    it('escalation: a service-account credential carries only scopes the caller holds', async () => {
      const manager = await mint({ kind: 'personal_access_token', name: 'sa manager', scopes: ['service-accounts:write', 'workspace:read'], memberId: ownerMemberId });
      const reply = await call('POST', `/v1/service-accounts/${accountId}/credentials`, manager.token, { name: 'too wide', scopes: ['workspace:read', 'tasks:write'] });
      assert.equal(reply.status, 403);
      assert.equal(error(reply).code, 'insufficient_scope');
      assert.match(error(reply).detail, /tasks:write/);
      const rotate = await call('POST', `/v1/service-accounts/${accountId}/credentials/${credential.id}/rotate`, manager.token);
      assert.equal(rotate.status, 403, 'rotating would reveal a secret for projects:read');
      assert.equal((await call('GET', '/v1/workspace', credential.secret)).status, 200);
    });

    it('managing needs settings.api.serviceAccounts.manage; reading needs only the scopes', async () => {
      await setRolePermissions(
        ownerRoleId,
        PERMISSION_KEYS.filter((p) => p !== 'settings.api.serviceAccounts.manage'),
      );
      try {
        for (const [method, path, body] of [
          ['POST', '/v1/service-accounts', { name: 'nope' }],
          ['PATCH', `/v1/service-accounts/${accountId}`, { name: 'nope' }],
          ['DELETE', `/v1/service-accounts/${accountId}`, undefined],
          ['POST', `/v1/service-accounts/${accountId}/credentials`, { name: 'nope', scopes: ['workspace:read'] }],
          ['POST', `/v1/service-accounts/${accountId}/credentials/${credential.id}/rotate`, undefined],
          ['DELETE', `/v1/service-accounts/${accountId}/credentials/${credential.id}`, undefined],
          ['PUT', `/v1/service-accounts/${accountId}/resource-grants`, { expectedVersion: '1', grants: [] }],
        ] as const) {
          const reply = await call(method, path, owner, body, v1b);
          assert.equal(reply.status, 403, `${method} ${path}: ${reply.text}`);
          assert.equal(error(reply).code, 'forbidden');
          assert.match(error(reply).detail, /settings\.api\.serviceAccounts\.manage/);
        }
        for (const path of [`/v1/service-accounts/${accountId}`, '/v1/service-accounts', `/v1/service-accounts/${accountId}/credentials`, `/v1/service-accounts/${accountId}/resource-grants`]) {
          assert.equal((await call('GET', path, owner)).status, 200, path);
        }
      } finally {
        await setRolePermissions(ownerRoleId, PERMISSION_KEYS);
      }
      assert.equal((await call('GET', '/v1/workspace', credential.secret)).status, 200);
      assert.equal(data<ServiceAccount>(await call('GET', `/v1/service-accounts/${accountId}`, owner)).name, 'CI deploys (prod)');

      const integration = await mint({
        kind: 'service_account',
        name: 'integration admin',
        scopes: ['service-accounts:read', 'service-accounts:write', 'workspace:read'],
        serviceAccountId: demoServiceAccountId,
      });
      const byIntegration = await call('POST', '/v1/service-accounts', integration.token, { name: 'made by an integration' });
      assert.equal(byIntegration.status, 403);
      assert.equal(error(byIntegration).code, 'forbidden');
      assert.equal((await call('GET', `/v1/service-accounts/${accountId}`, integration.token)).status, 200);
    });

    it('disabling stops its credentials at once on every instance; enabling resumes them', async () => {
      const disabled = await call('PATCH', `/v1/service-accounts/${accountId}`, owner, { status: 'disabled' });
      assert.equal(data<ServiceAccount>(disabled).status, 'disabled');
      assert.equal((await call('GET', '/v1/workspace', credential.secret, undefined, v1b)).status, 401);
      await call('PATCH', `/v1/service-accounts/${accountId}`, owner, { status: 'active' });
      assert.equal((await call('GET', '/v1/workspace', credential.secret, undefined, v1b)).status, 200);
      const updates = await audits('service_account.updated', accountId);
      assert.deepEqual(
        updates.slice(-2).map((e) => [(e.metadata as { statusFrom: string }).statusFrom, (e.metadata as { statusTo: string }).statusTo]),
        [
          ['active', 'disabled'],
          ['disabled', 'active'],
        ],
      );
    });

    it('delete disables and archives the account and revokes all its credentials; nothing is physically deleted', async () => {
      const extra = reveal(await call('POST', `/v1/service-accounts/${accountId}/credentials`, owner, { name: 'third key', scopes: ['workspace:read'] }));
      const reply = await call('DELETE', `/v1/service-accounts/${accountId}`, owner);
      assert.equal(reply.status, 204, reply.text);
      for (const secret of [credential.secret, extra.secret]) {
        const res = await call('GET', '/v1/workspace', secret, undefined, v1b);
        assert.equal(res.status, 401);
        assert.equal(error(res).code, 'credential_revoked');
      }
      for (const [method, path] of [
        ['GET', `/v1/service-accounts/${accountId}`],
        ['PATCH', `/v1/service-accounts/${accountId}`],
        ['DELETE', `/v1/service-accounts/${accountId}`],
        ['GET', `/v1/service-accounts/${accountId}/credentials`],
        ['GET', `/v1/service-accounts/${accountId}/resource-grants`],
      ] as const) {
        const res = await call(method, path, owner, method === 'PATCH' ? { name: 'x' } : undefined);
        assert.equal(res.status, 404, `${method} ${path}`);
      }
      assert.ok(!data<ServiceAccount[]>(await call('GET', '/v1/service-accounts?limit=200', owner)).some((sa) => sa.id === accountId));
      const row = await database.prisma.serviceAccount.findUniqueOrThrow({ where: { workspaceId_id: { workspaceId: ws, id: accountId } } });
      assert.ok(row.archivedAt && row.disabledAt);
      assert.equal(row.status, 'disabled');
      assert.equal(await database.prisma.credential.count({ where: { workspaceId: ws, serviceAccountId: accountId } }), 4, 'credential rows are kept');
      const [deleted] = await audits('service_account.deleted', accountId);
      assert.deepEqual((deleted?.metadata as { revokedCredentialIds: string[] }).revokedCredentialIds.sort(), [credential.id, extra.id].sort());
      assert.equal((await audits('credential.revoked', extra.id)).length, 1);
      assert.equal((await call('GET', '/v1/workspace', tokens.serviceAccountCredential)).status, 200, 'other accounts are untouched');
    });
  });

  describe('resource grants', () => {
    let accountId: string;
    const grantsPath = () => `/v1/service-accounts/${accountId}/resource-grants`;
    const read = async () => data<Grants>(await call('GET', grantsPath(), owner));

    beforeAll(async () => {
      accountId = data<ServiceAccount>(await call('POST', '/v1/service-accounts', owner, { name: 'grants holder' })).id;
    });

    it('knows every resource type the registry lets a grant name', () => {
      assert.deepEqual(Object.keys(GRANT_DOMAINS).sort(), [...GRANT_RESOURCE_TYPES].sort());
    });

    it('starts empty and replaces the whole set atomically with compare-and-set', async () => {
      const initial = await read();
      assert.deepEqual(initial, { serviceAccountId: accountId, grants: [], version: initial.version });
      const grants: Grant[] = [
        { resourceType: 'tasks', resourceId: taskId, access: 'write' },
        { resourceType: 'projects', resourceId: projectId, access: 'read' },
        { resourceType: 'contacts', resourceId: null, access: 'read' },
      ];
      const reply = await call('PUT', grantsPath(), owner, { expectedVersion: initial.version, grants });
      assert.equal(reply.status, 200, reply.text);
      const replaced = data<Grants>(reply);
      assert.notEqual(replaced.version, initial.version);
      const byKey = (g: Grant) => `${g.resourceType}:${g.resourceId}`;
      assert.deepEqual(replaced.grants.map(byKey).sort(), grants.map(byKey).sort());
      assert.deepEqual(await read(), replaced);

      const stale = await call('PUT', grantsPath(), owner, { expectedVersion: initial.version, grants: [] });
      assert.equal(stale.status, 409);
      assert.equal(error(stale).code, 'version_conflict');
      assert.equal((await call('PUT', grantsPath(), owner, { expectedVersion: 'not-a-version', grants: [] })).status, 409);
      assert.deepEqual(await read(), replaced, 'a stale replacement changes nothing');

      const [event] = await audits('service_account.resource_grants_replaced', accountId);
      assert.ok(event);
      assert.equal(event.requestId, reply.headers.get('x-request-id'));
      assert.equal((event.metadata as { grants: unknown[] }).grants.length, 3);
      const emptied = await call('PUT', grantsPath(), owner, { expectedVersion: replaced.version, grants: [] });
      assert.deepEqual(data<Grants>(emptied).grants, []);
    });

    it('validates every grant first: a failing replacement changes nothing', async () => {
      const before = await read();
      const seeded = await call('PUT', grantsPath(), owner, { expectedVersion: before.version, grants: [{ resourceType: 'projects', resourceId: projectId, access: 'read' }] });
      const current = data<Grants>(seeded);
      const auditCount = (await audits('service_account.resource_grants_replaced', accountId)).length;
      const invalid: [string, Grant[], string][] = [
        [
          'an unknown id',
          [
            { resourceType: 'tasks', resourceId: taskId, access: 'read' },
            { resourceType: 'projects', resourceId: '00000000-0000-7000-8000-000000000001', access: 'read' },
          ],
          '/grants/1/resourceId',
        ],
        [
          'an id of another type',
          [
            { resourceType: 'projects', resourceId: projectId, access: 'write' },
            { resourceType: 'tags', resourceId: taskId, access: 'read' },
          ],
          '/grants/1/resourceId',
        ],
        ['another workspace’s id', [{ resourceType: 'projects', resourceId: other.projectId, access: 'read' }], '/grants/0/resourceId'],
        [
          'a non-UUID id',
          [
            { resourceType: 'tasks', resourceId: taskId, access: 'read' },
            { resourceType: 'tasks', resourceId: 'abc', access: 'read' },
          ],
          '/grants/1/resourceId',
        ],
        [
          'a duplicate',
          [
            { resourceType: 'tasks', resourceId: taskId, access: 'read' },
            { resourceType: 'tasks', resourceId: taskId.toUpperCase(), access: 'write' },
          ],
          '/grants/1',
        ],
        ['users', [{ resourceType: 'users', resourceId: null, access: 'read' }], '/grants/0/resourceType'],
      ];
      for (const [what, grants, pointer] of invalid) {
        const reply = await call('PUT', grantsPath(), owner, { expectedVersion: current.version, grants });
        assert.equal(reply.status, 400, `${what}: ${reply.text}`);
        assert.equal(error(reply).code, 'validation_failed');
        assert.equal(error(reply).source?.pointer, pointer, what);
        assert.deepEqual(await read(), current, `${what} changed something`);
      }
      assert.equal((await audits('service_account.resource_grants_replaced', accountId)).length, auditCount);
      const tooMany = await call('PUT', grantsPath(), owner, {
        expectedVersion: current.version,
        grants: Array.from({ length: 1001 }, () => ({ resourceType: 'tasks', resourceId: null, access: 'read' })),
      });
      assert.equal(tooMany.status, 400);
    });

    it('of concurrent replacements based on one version, exactly one wins', async () => {
      const base = await read();
      const grantSets = Array.from({ length: 8 }, (_, i): Grant[] => [{ resourceType: i % 2 ? 'projects' : 'tasks', resourceId: i % 2 ? projectId : taskId, access: i % 4 < 2 ? 'read' : 'write' }]);
      const replies = await Promise.all(grantSets.map((grants, i) => call('PUT', grantsPath(), owner, { expectedVersion: base.version, grants }, i % 2 ? v1 : v1b)));
      const statuses = replies.map((r) => r.status);
      assert.equal(statuses.filter((s) => s === 200).length, 1, statuses.join(','));
      assert.equal(statuses.filter((s) => s === 409).length, 7, statuses.join(','));
      const winner = replies.findIndex((r) => r.status === 200);
      const final = await read();
      assert.deepEqual(final, data<Grants>(replies[winner]!));
      assert.deepEqual(final.grants, grantSets[winner]);
    });

    it('answers 404 for another workspace’s service account, exactly like a missing one', async () => {
      for (const id of [other.serviceAccountId, '00000000-0000-7000-8000-000000000002']) {
        const get = await call('GET', `/v1/service-accounts/${id}/resource-grants`, owner);
        assert.equal(get.status, 404);
        const put = await call('PUT', `/v1/service-accounts/${id}/resource-grants`, owner, { expectedVersion: '1', grants: [] });
        assert.equal(put.status, 404);
        assert.deepEqual(
          put.body.errors?.map((e) => [e.code, e.detail]),
          get.body.errors?.map((e) => [e.code, e.detail]),
        );
      }
      assert.equal(await database.prisma.serviceAccount.count({ where: { workspaceId: other.workspaceId, revision: 1 } }), 1);
    });
  });

  describe('tenancy', () => {
    it('ids of another workspace answer 404 exactly like non-existent ones, and change nothing there', async () => {
      const missing = '00000000-0000-7000-8000-0000000000ff';
      const otherSaCredential = await mint({ workspaceId: other.workspaceId, kind: 'service_account', name: 'other sa key', scopes: ['workspace:read'], serviceAccountId: other.serviceAccountId });
      const cases: [string, (id: string) => string, unknown][] = [
        ['GET', (id) => `/v1/service-accounts/${id}`, undefined],
        ['PATCH', (id) => `/v1/service-accounts/${id}`, { status: 'disabled' }],
        ['DELETE', (id) => `/v1/service-accounts/${id}`, undefined],
        ['GET', (id) => `/v1/service-accounts/${id}/credentials`, undefined],
        ['POST', (id) => `/v1/service-accounts/${id}/credentials`, { name: 'x', scopes: ['workspace:read'] }],
      ];
      for (const [method, path, body] of cases) {
        const foreign = await call(method, path(other.serviceAccountId), owner, body);
        const absent = await call(method, path(missing), owner, body);
        assert.equal(foreign.status, 404, `${method} ${path('{id}')}`);
        assert.deepEqual(
          foreign.body.errors?.map((e) => [e.code, e.detail]),
          absent.body.errors?.map((e) => [e.code, e.detail]),
        );
      }
      for (const [method, path] of [
        ['POST', (id: string) => `/v1/credentials/${id}/rotate`],
        ['DELETE', (id: string) => `/v1/credentials/${id}`],
      ] as const) {
        const foreign = await call(method, path(other.credentialId), owner);
        const absent = await call(method, path(missing), owner);
        assert.equal(foreign.status, 404);
        assert.deepEqual(
          foreign.body.errors?.map((e) => [e.code, e.detail]),
          absent.body.errors?.map((e) => [e.code, e.detail]),
        );
      }
      for (const [method, suffix] of [
        ['POST', '/rotate'],
        ['DELETE', ''],
      ] as const) {
        assert.equal((await call(method, `/v1/service-accounts/${other.serviceAccountId}/credentials/${otherSaCredential.id}${suffix}`, owner)).status, 404);
      }
      assert.ok(!data<ServiceAccount[]>(await call('GET', '/v1/service-accounts?limit=200', owner)).some((sa) => sa.id === other.serviceAccountId));
      assert.ok(!data<Credential[]>(await call('GET', '/v1/credentials?limit=200', owner)).some((c) => c.id === other.credentialId));

      for (const token of [other.token, otherSaCredential.token]) assert.equal((await call('GET', '/v1/workspace', token)).status, 200, 'the other workspace is untouched');
      const account = await database.prisma.serviceAccount.findUniqueOrThrow({ where: { workspaceId_id: { workspaceId: other.workspaceId, id: other.serviceAccountId } } });
      assert.deepEqual([account.status, account.archivedAt, account.revision], ['active', null, 1]);
      assert.equal(await database.prisma.auditEvent.count({ where: { workspaceId: other.workspaceId } }), 0);
      // And the other workspace sees only its own.
      const theirList = data<ServiceAccount[]>(await call('GET', '/v1/service-accounts', other.token));
      assert.deepEqual(
        theirList.map((sa) => sa.id),
        [other.serviceAccountId],
      );
    });
  });

  describe('pagination', () => {
    let member: { memberId: string; roleId: string };
    let token: string;
    const created: string[] = [];

    beforeAll(async () => {
      member = await addMember(ws, 'pager@demo.workcell.test', PERMISSION_KEYS);
      const own = await mint({ kind: 'personal_access_token', name: 'pager', scopes: V1_SCOPES, memberId: member.memberId });
      token = own.token;
      created.push(own.id);
      for (let i = 0; i < 5; i++) created.push((await createPat(token, { name: `page ${i}`, scopes: ['workspace:read'] })).id);
    });

    it('pages with limit, nextCursor and links.next, without gaps or duplicates', async () => {
      const seen: string[] = [];
      let path: string | null = '/v1/credentials?limit=2';
      let pages = 0;
      while (path) {
        const reply: Reply = await call('GET', path, token, undefined, pages % 2 ? v1 : v1b);
        assert.equal(reply.status, 200, reply.text);
        const items = data<Credential[]>(reply);
        assert.ok(items.length <= 2);
        assert.equal(reply.body.meta?.limit, 2);
        seen.push(...items.map((c) => c.id));
        const next = reply.body.links?.next ?? null;
        assert.equal(next === null, reply.body.meta?.nextCursor === null);
        if (next) assert.equal(new URL(next, 'http://x').searchParams.get('cursor'), reply.body.meta?.nextCursor);
        path = next;
        pages++;
      }
      assert.equal(pages, 3);
      assert.deepEqual(seen, created, 'every token of the member once, oldest first');
      const all = await call('GET', '/v1/credentials', token);
      assert.equal(all.body.meta?.limit, 50);
      assert.equal(all.body.meta?.nextCursor, null);
      assert.equal(all.body.links?.next, null);
    });

    it('filters by status, and binds a cursor to its list, filter and member', async () => {
      await call('DELETE', `/v1/credentials/${created[2]}`, token);
      const revoked = data<Credential[]>(await call('GET', '/v1/credentials?status=revoked', token));
      assert.deepEqual(
        revoked.map((c) => c.id),
        [created[2]],
      );
      const active = data<Credential[]>(await call('GET', '/v1/credentials?status=active&limit=200', token));
      assert.deepEqual(
        active.map((c) => c.id),
        created.filter((id) => id !== created[2]),
      );
      await database.changeAuthorization(ws, () =>
        database.prisma.credential.update({ where: { workspaceId_id: { workspaceId: ws, id: created[3]! } }, data: { expiresAt: new Date(Date.now() - 1000) } }),
      );
      const expired = data<Credential[]>(await call('GET', '/v1/credentials?status=expired', token));
      assert.deepEqual(
        expired.map((c) => [c.id, c.status]),
        [[created[3], 'expired']],
      );

      const first = await call('GET', '/v1/credentials?limit=1', token);
      const cursor = first.body.meta?.nextCursor;
      assert.ok(cursor);
      const saCursor = (await call('GET', '/v1/service-accounts?limit=1', token)).body.meta?.nextCursor;
      assert.ok(saCursor, 'the workspace has at least two service accounts');
      for (const [what, path, who] of [
        ['a garbage cursor', '/v1/credentials?cursor=garbage', token],
        ['a tampered cursor', `/v1/credentials?cursor=${cursor.slice(0, -2)}xx`, token],
        ['another list’s cursor', `/v1/credentials?cursor=${saCursor}`, token],
        ['another filter’s cursor', `/v1/credentials?status=active&cursor=${cursor}`, token],
        ['another member’s cursor', `/v1/credentials?cursor=${cursor}`, owner],
        ['limit 0', '/v1/credentials?limit=0', token],
        ['limit 201', '/v1/credentials?limit=201', token],
        ['an unknown status', '/v1/credentials?status=paused', token],
      ] as const) {
        const reply = await call('GET', path, who);
        assert.equal(reply.status, 400, `${what}: ${reply.text}`);
        assert.equal(error(reply).code, 'validation_failed');
      }
      const bad = await call('GET', '/v1/credentials?cursor=garbage', token);
      assert.deepEqual(error(bad).source, { parameter: 'cursor' });
    });

    it('pages service accounts and a service account’s credentials the same way', async () => {
      const accounts: string[] = [];
      let path: string | null = '/v1/service-accounts?limit=1';
      while (path) {
        const reply: Reply = await call('GET', path, owner);
        accounts.push(...data<ServiceAccount[]>(reply).map((sa) => sa.id));
        path = reply.body.links?.next ?? null;
      }
      const expected = await database.prisma.serviceAccount.findMany({ where: { workspaceId: ws, archivedAt: null }, orderBy: { id: 'asc' }, select: { id: true } });
      assert.deepEqual(
        accounts,
        expected.map((sa) => sa.id),
      );

      const keys: string[] = [];
      for (let i = 0; i < 3; i++) keys.push(reveal(await call('POST', `/v1/service-accounts/${demoServiceAccountId}/credentials`, owner, { name: `k${i}`, scopes: ['workspace:read'] })).id);
      const ids: string[] = [];
      path = `/v1/service-accounts/${demoServiceAccountId}/credentials?limit=2`;
      while (path) {
        const reply: Reply = await call('GET', path, owner);
        ids.push(...data<Credential[]>(reply).map((c) => c.id));
        path = reply.body.links?.next ?? null;
      }
      const stored = await database.prisma.credential.findMany({ where: { workspaceId: ws, serviceAccountId: demoServiceAccountId }, orderBy: { id: 'asc' }, select: { id: true } });
      assert.deepEqual(
        ids,
        stored.map((c) => c.id),
      );
      assert.ok(keys.every((k) => ids.includes(k)));
      const crossed = await call('GET', `/v1/service-accounts/${demoServiceAccountId}/credentials?cursor=${(await call('GET', '/v1/service-accounts?limit=1', owner)).body.meta?.nextCursor}`, owner);
      assert.equal(crossed.status, 400);
    });
  });

  describe('audit trail and secrecy', () => {
    it('records who changed what, when and with which credential, in the same workspace', async () => {
      const reply = await call('POST', '/v1/credentials', owner, { name: 'audited', scopes: ['workspace:read'] });
      const created = reveal(reply);
      const [event] = await audits('credential.created', created.id);
      assert.ok(event);
      const ownerCredential = await database.prisma.credential.findFirstOrThrow({ where: { workspaceId: ws, name: 'Demo personal access token' } });
      assert.equal(event.actorCredentialId, ownerCredential.id);
      assert.equal(event.actorPrincipalType, 'member');
      assert.equal(event.actorPrincipalId, ownerMemberId);
      assert.equal(event.requestId, reply.headers.get('x-request-id'));
      assert.equal(event.targetType, 'credential');
      assert.ok(Math.abs(event.occurredAt.getTime() - Date.parse(created.createdAt)) < 5000);
      assert.deepEqual((event.metadata as { scopes: string[] }).scopes, ['workspace:read']);

      const actions = new Set((await database.prisma.auditEvent.findMany({ where: { workspaceId: ws }, select: { action: true } })).map((e) => e.action));
      for (const action of [
        'credential.created',
        'credential.rotated',
        'credential.revoked',
        'service_account.created',
        'service_account.updated',
        'service_account.deleted',
        'service_account.resource_grants_replaced',
      ]) {
        assert.ok(actions.has(action), `no ${action} event`);
      }
    });

    it('never stores a secret in the audit trail', async () => {
      const trail = JSON.stringify(await database.prisma.auditEvent.findMany({}));
      assert.ok(revealed.size > 10);
      for (const secret of revealed.keys()) assert.ok(!trail.includes(secret.slice(-49)), 'a secret reached the audit trail');
    });

    it('shows each secret in exactly the one response that minted it', () => {
      for (const [secret, index] of revealed) {
        const fragment = secret.slice(-30, -18);
        responses.forEach((text, i) => {
          if (i !== index) assert.ok(!text.includes(fragment), `a secret (or a fragment of it) appeared in response ${i}, revealed in ${index}`);
        });
        if (index >= 0) assert.ok(responses[index]!.includes(secret));
      }
    });

    it('never writes a secret to any service’s log', () => {
      assert.ok(logs.length > 0, 'the services logged nothing at all');
      for (const secret of revealed.keys()) assert.ok(!logs.includes(secret.slice(-30, -18)), 'a credential secret appeared in a log');
    });
  });
});
