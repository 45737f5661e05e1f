import assert from 'node:assert/strict';
import { generateToken } from '@workcell/credentials';
import { type CliIo, runCli } from './cli.js';
import { memoryCredentialStore } from './store.js';

type Sent = { url: string; method: string; headers: Record<string, string>; body?: string };

/** An API that answers every request from `answer` and records it. */
function fakeApi(answer: (sent: Sent) => { status: number; body?: unknown }) {
  const sent: Sent[] = [];
  const fetchFn = (async (url: string, init: RequestInit) => {
    const request = { url, method: init.method ?? 'GET', headers: init.headers as Record<string, string>, ...(init.body ? { body: init.body as string } : {}) };
    sent.push(request);
    const { status, body } = answer(request);
    return new Response(body === undefined ? null : JSON.stringify(body), { status });
  }) as unknown as typeof fetch;
  return { sent, fetchFn };
}

const pat = generateToken('personal_access_token', 'eu1', 'c1');
const serviceAccount = generateToken('service_account', 'eu1', 'c1');
const context = { status: 200, body: { data: { credentialId: 'cred-1', scopes: ['tags:read'] } } };

function io(options: { env?: Record<string, string>; interactive?: boolean; typed?: string; answer?: (s: Sent) => { status: number; body?: unknown } } = {}) {
  const api = fakeApi(options.answer ?? (() => context));
  const out: string[] = [];
  const err: string[] = [];
  const store = memoryCredentialStore();
  const value: CliIo = {
    env: options.env ?? {},
    interactive: options.interactive ?? true,
    promptSecret: async () => options.typed ?? pat,
    out: (l) => void out.push(l),
    err: (l) => void err.push(l),
    store,
    fetch: api.fetchFn,
  };
  return { io: value, out, err, store, sent: api.sent };
}

describe('workcell CLI', () => {
  it('login verifies a pasted personal token and stores it in the credential store; whoami then uses it', async () => {
    const t = io();
    assert.equal(await runCli(['login', '--base-url', 'https://{region}.api.test'], t.io), 0);
    assert.deepEqual(t.store.entries.get('default'), { credential: pat, baseUrl: 'https://{region}.api.test' });
    assert.equal(t.sent[0]!.url, 'https://eu1.api.test/v1/auth/context');
    assert.ok(!t.out.join('\n').includes(pat), 'the token is never printed');
    assert.equal(await runCli(['whoami'], t.io), 0);
    assert.match(t.out.at(-1)!, /cred-1/);
  });

  it('login refuses without a terminal, under CI, and for anything but a personal token', async () => {
    for (const options of [{ interactive: false }, { env: { CI: 'true' } }]) {
      const t = io(options);
      assert.equal(await runCli(['login', '--base-url', 'https://api.test'], t.io), 1);
      assert.match(t.err.join('\n'), /service-account credential in WORKCELL_TOKEN/);
      assert.equal(t.sent.length, 0);
    }
    const t = io({ typed: serviceAccount });
    assert.equal(await runCli(['login', '--base-url', 'https://api.test'], t.io), 1);
    assert.equal(t.store.entries.size, 0);
  });

  it('does not store a token the API refuses', async () => {
    const t = io({ answer: () => ({ status: 401, body: { errors: [{ code: 'credential_revoked', detail: 'revoked', status: '401', title: 'Unauthorized' }] } }) });
    assert.equal(await runCli(['login', '--base-url', 'https://api.test'], t.io), 1);
    assert.match(t.err.join('\n'), /credential_revoked/);
    assert.equal(t.store.entries.size, 0);
  });

  it('unattended use requires a service-account credential from the environment', async () => {
    const stored = io({ interactive: false });
    stored.store.set('default', { credential: pat, baseUrl: 'https://api.test' });
    assert.equal(await runCli(['whoami'], stored.io), 1);
    assert.match(stored.err.join('\n'), /unattended use needs a service-account credential/);
    const withPat = io({ env: { CI: '1', WORKCELL_TOKEN: pat, WORKCELL_BASE_URL: 'https://api.test' } });
    assert.equal(await runCli(['whoami'], withPat.io), 1);
    assert.match(withPat.err.join('\n'), /personal access token/);
    assert.equal(withPat.sent.length, 0);
    const ok = io({ env: { CI: '1', WORKCELL_TOKEN: serviceAccount, WORKCELL_BASE_URL: 'https://api.test' } });
    assert.equal(await runCli(['whoami'], ok.io), 0);
    assert.equal(ok.sent[0]!.headers['authorization'], `Bearer ${serviceAccount}`);
  });

  it('refuses revoke-on-logout while WORKCELL_TOKEN is set; otherwise revokes exactly the stored token and forgets it', async () => {
    const refused = io({ env: { WORKCELL_TOKEN: serviceAccount, WORKCELL_BASE_URL: 'https://api.test' } });
    refused.store.set('default', { credential: pat, baseUrl: 'https://api.test' });
    assert.equal(await runCli(['logout', '--revoke'], refused.io), 2);
    assert.match(refused.err.join('\n'), /refusing to revoke on logout while WORKCELL_TOKEN is set/);
    assert.equal(refused.sent.length, 0);
    assert.ok(refused.store.entries.has('default'), 'nothing forgotten either');

    const t = io({ answer: () => ({ status: 204 }) });
    t.store.set('default', { credential: pat, baseUrl: 'https://api.test' });
    assert.equal(await runCli(['logout', '--revoke'], t.io), 0);
    assert.deepEqual(t.sent.map((s) => [s.method, s.url, s.headers['authorization']]), [['DELETE', 'https://api.test/v1/auth/context', `Bearer ${pat}`]]);
    assert.equal(t.store.entries.size, 0);

    const plain = io();
    plain.store.set('work', { credential: pat, baseUrl: 'https://api.test' });
    assert.equal(await runCli(['logout', '--profile', 'work'], plain.io), 0);
    assert.equal(plain.sent.length, 0, 'a plain logout only forgets');
    assert.equal(plain.store.entries.size, 0);
  });

  it('calls any registry operation by name with path, query, body and If-Match, and lists every page', async () => {
    const env = { WORKCELL_TOKEN: pat, WORKCELL_BASE_URL: 'https://api.test' };
    const t = io({ env, answer: (s) => (s.url.includes('cursor=') ? { status: 200, body: { data: [{ id: 3 }], meta: { nextCursor: null } } } : { status: 200, body: { data: [{ id: 1 }, { id: 2 }], meta: { nextCursor: 'c' } } }) });
    assert.equal(await runCli(['list', 'listTags', '--query', 'limit=2'], t.io), 0);
    assert.deepEqual(t.out, ['{"id":1}', '{"id":2}', '{"id":3}']);
    const u = io({ env, answer: () => ({ status: 200, body: { data: { id: 't' } } }) });
    assert.equal(await runCli(['call', 'updateTask', '--path', 'id=t1', '--body', '{"title":"x"}', '--if-match', '"4"'], u.io), 0);
    assert.deepEqual([u.sent[0]!.method, u.sent[0]!.url, u.sent[0]!.headers['if-match'], u.sent[0]!.body], ['PATCH', 'https://api.test/v1/tasks/t1', '"4"', '{"title":"x"}']);
  });

  it('answers usage errors with 2 and API errors with 1, naming the code', async () => {
    const env = { WORKCELL_TOKEN: pat, WORKCELL_BASE_URL: 'https://api.test' };
    assert.equal(await runCli(['call', 'noSuchOperation'], io({ env }).io), 2);
    assert.equal(await runCli(['call', 'updateTask', '--path', 'id=t', '--body', '{}'], io({ env }).io), 2, 'If-Match operations need --if-match');
    assert.equal(await runCli(['call', 'createTag', '--body', '{nope'], io({ env }).io), 2);
    assert.equal(await runCli(['frobnicate'], io({ env }).io), 2);
    const t = io({ env, answer: () => ({ status: 403, body: { errors: [{ code: 'insufficient_scope', detail: 'needs tags:write', status: '403', title: 'Forbidden' }] } }) });
    assert.equal(await runCli(['call', 'createTag', '--body', '{"name":"x"}'], t.io), 1);
    assert.match(t.err.join('\n'), /insufficient_scope/);
  });
});
