import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { generateToken } from '@workcell/credentials';
import { DEFAULT_USER_AGENT } from '@workcell/sdk';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CliIo, runCli } from './cli.js';
import { fileCredentialStore, memoryCredentialStore, memoryJsonFile } from './store.js';

type Sent = { url: string; method: string; headers: Record<string, string>; body?: string };
/** `text`: a body sent as it is (a file), not as JSON. */
type Answer = { status: number; body?: unknown; text?: string; headers?: Record<string, string> };

/** An API that answers every request from `answer` and records it. */
function fakeApi(answer: (sent: Sent) => Answer) {
  const sent: Sent[] = [];
  const fetchFn = (async (url: string, init: RequestInit) => {
    const request = { url, method: init.method ?? 'GET', headers: init.headers as Record<string, string>, ...(init.body ? { body: init.body as string } : {}) };
    sent.push(request);
    const { status, body, text, headers } = answer(request);
    return new Response(text ?? (body === undefined ? null : JSON.stringify(body)), { status, ...(headers ? { headers } : {}) });
  }) as unknown as typeof fetch;
  return { sent, fetchFn };
}

const pat = generateToken('personal_access_token', 'eu1', 'c1');
const serviceAccount = generateToken('service_account', 'eu1', 'c1');
const context = { status: 200, body: { data: { credentialId: 'cred-1', scopes: ['tags:read'] } } };

interface IoOptions {
  env?: Record<string, string>;
  interactive?: boolean;
  tty?: boolean;
  typed?: string;
  answer?: (s: Sent) => Answer;
  /** The OS store fails like a machine without a Secret Service. */
  noKeyring?: boolean;
  stdin?: string;
  /** The answers to visible prompts (the login menu), in order. */
  choices?: string[];
  /** Where the pauses between polls go. */
  slept?: number[];
}

function io(options: IoOptions = {}) {
  const api = fakeApi(options.answer ?? (() => context));
  const out: string[] = [];
  const err: string[] = [];
  const saved: { file: string | null; text: string }[] = [];
  const store = memoryCredentialStore(options.noKeyring ? { unavailable: "Couldn't access platform storage: AccessDenied" } : {});
  const insecureStore = memoryCredentialStore();
  const value: CliIo = {
    env: options.env ?? {},
    interactive: options.interactive ?? true,
    tty: options.tty ?? false,
    promptSecret: async () => options.typed ?? pat,
    prompt: async () => options.choices?.shift() ?? '',
    out: (l) => void out.push(l),
    err: (l) => void err.push(l),
    save: async (body, file) => void saved.push({ file, text: await new Response(body).text() }),
    readInput: async (source) => (source === '-' ? (options.stdin ?? '') : readFile(source.file, 'utf8')),
    store,
    insecureStore,
    version: '9.9.9',
    fetch: api.fetchFn,
    sleep: async (ms) => void options.slept?.push(ms),
    listenState: memoryJsonFile(),
  };
  return { io: value, out, err, saved, store, insecureStore, sent: api.sent };
}

describe('workcell CLI', () => {
  it('login verifies a pasted personal token and stores it in the credential store; whoami then uses it', async () => {
    const t = io();
    assert.equal(await runCli(['login', '--base-url', 'https://{region}.api.test'], t.io), 0);
    assert.deepEqual(t.store.entries.get('default'), { credential: pat, baseUrl: 'https://{region}.api.test' });
    assert.equal(t.sent[0]!.url, 'https://eu1.api.test/v1/auth/context');
    assert.ok(![...t.out, ...t.err].join('\n').includes(pat), 'the token is never printed');
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

  describe('the device login (RFC 8628)', () => {
    const links = {
      signInUrl: 'https://auth.test/sign-in',
      accountUrl: 'https://auth.test/account',
      deviceVerificationUrl: 'https://auth.test/device',
      deviceAuthorizationUrl: 'https://auth.test/device/code',
      tokenUrl: 'https://auth.test/device/token',
    };
    const started = {
      device_code: 'dc-secret',
      user_code: 'BCDF-GHJK',
      verification_uri: 'https://auth.test/device',
      verification_uri_complete: 'https://auth.test/device?user_code=BCDF-GHJK',
      expires_in: 900,
      interval: 5,
    };
    /** The API and the auth service: discovery, the device endpoints (the polls answered from `polls`, in order), the auth context. */
    const service =
      (polls: Answer[]) =>
      (s: Sent): Answer => {
        if (s.url === 'https://api.test/v1') return { status: 200, body: { data: { apiVersion: 'v1', authentication: links } } };
        if (s.url === links.deviceAuthorizationUrl) return { status: 200, body: started };
        if (s.url === links.tokenUrl) return polls.shift() ?? { status: 400, body: { error: 'invalid_grant' } };
        return context;
      };
    const oauth = (error: string): Answer => ({ status: 400, body: { error, error_description: error } });

    it('offers the device login first; prints the code and the page, polls at the interval (+5 s on slow_down) and stores the token it receives', async () => {
      const slept: number[] = [];
      const t = io({
        choices: ['1'],
        slept,
        answer: service([oauth('authorization_pending'), oauth('slow_down'), oauth('authorization_pending'), { status: 200, body: { access_token: pat, token_type: 'Bearer' } }]),
      });
      assert.equal(await runCli(['login', '--base-url', 'https://api.test', '--scopes', 'tags:read,projects:read'], t.io), 0, t.err.join('\n'));
      const said = t.err.join('\n');
      assert.match(said, /1\. With a browser/);
      assert.match(said, /2\. Paste a personal access token \(create one on your account page, https:\/\/auth\.test\/account\)/);
      assert.match(said, /one-time code: BCDF-GHJK/);
      assert.match(said, /open https:\/\/auth\.test\/device in a browser/);
      assert.deepEqual(slept, [5000, 5000, 10000, 10000]);
      const start = t.sent.find((x) => x.url === links.deviceAuthorizationUrl)!;
      assert.equal(start.body, 'client_id=workcell-cli&scope=tags%3Aread+projects%3Aread');
      const poll = t.sent.find((x) => x.url === links.tokenUrl)!;
      assert.equal(poll.body, 'grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Adevice_code&device_code=dc-secret&client_id=workcell-cli');
      assert.deepEqual(t.store.entries.get('default'), { credential: pat, baseUrl: 'https://api.test' });
      assert.ok(![...t.out, ...t.err].join('\n').includes(pat), 'the token is never printed');
    });

    it('denied, expired or refused: nothing stored, exit 1, a sentence saying why', async () => {
      for (const [answer, why] of [
        [oauth('access_denied'), /denied in the browser/],
        [oauth('expired_token'), /expired before it was approved/],
        [{ status: 503, body: { error: 'service_unavailable', error_description: 'try later' } }, /failed \(503 service_unavailable: try later\)/],
      ] as const) {
        const t = io({ answer: service([answer]) });
        assert.equal(await runCli(['login', '--base-url', 'https://api.test', '--device'], t.io), 1);
        assert.match(t.err.join('\n'), why);
        assert.equal(t.store.entries.size, 0);
        assert.doesNotMatch(t.err.join('\n'), /\n\s+at /);
      }
    });

    it('--with-token and choice 2 paste a token; a template address needs --auth-url for the device login; a bad choice is a usage error', async () => {
      const pasted = io({ choices: ['2'], answer: service([]) });
      assert.equal(await runCli(['login', '--base-url', 'https://api.test'], pasted.io), 0);
      assert.ok(!pasted.sent.some((x) => x.url === links.deviceAuthorizationUrl));
      assert.equal(pasted.store.entries.get('default')?.credential, pat);
      const direct = io({ answer: service([]) });
      assert.equal(await runCli(['login', '--base-url', 'https://api.test', '--with-token'], direct.io), 0);
      assert.doesNotMatch(direct.err.join('\n'), /How do you want to log in/);

      const template = io({ answer: service([]) });
      assert.equal(await runCli(['login', '--base-url', 'https://{region}.api.test', '--device'], template.io), 2);
      assert.match(template.err.join('\n'), /--auth-url/);
      const viaAuthUrl = io({ answer: service([{ status: 200, body: { access_token: pat } }]) });
      assert.equal(await runCli(['login', '--base-url', 'https://{region}.api.test', '--device', '--auth-url', 'https://auth.test'], viaAuthUrl.io), 0);
      assert.equal(viaAuthUrl.store.entries.get('default')?.baseUrl, 'https://{region}.api.test');

      const bad = io({ choices: ['3'], answer: service([]) });
      assert.equal(await runCli(['login', '--base-url', 'https://api.test'], bad.io), 2);
      assert.equal(bad.store.entries.size, 0);
      assert.equal(await runCli(['login', '--base-url', 'https://api.test', '--device', '--with-token'], io().io), 2);
    });
  });

  it('does not store a token the API refuses', async () => {
    const t = io({ answer: () => ({ status: 401, body: { errors: [{ code: 'credential_revoked', detail: 'revoked', status: '401', title: 'Unauthorized' }] } }) });
    assert.equal(await runCli(['login', '--base-url', 'https://api.test'], t.io), 1);
    assert.match(t.err.join('\n'), /credential_revoked/);
    assert.equal(t.store.entries.size, 0);
  });

  it('unattended use requires a service-account credential from the environment', async () => {
    const stored = io({ interactive: false });
    stored.store.entries.set('default', { credential: pat, baseUrl: 'https://api.test' });
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
    refused.store.entries.set('default', { credential: pat, baseUrl: 'https://api.test' });
    assert.equal(await runCli(['logout', '--revoke'], refused.io), 2);
    assert.match(refused.err.join('\n'), /refusing to revoke on logout while WORKCELL_TOKEN is set/);
    assert.equal(refused.sent.length, 0);
    assert.ok(refused.store.entries.has('default'), 'nothing forgotten either');

    const t = io({ answer: () => ({ status: 204 }) });
    t.store.entries.set('default', { credential: pat, baseUrl: 'https://api.test' });
    assert.equal(await runCli(['logout', '--revoke'], t.io), 0);
    assert.deepEqual(
      t.sent.map((s) => [s.method, s.url, s.headers['authorization']]),
      [['DELETE', 'https://api.test/v1/auth/context', `Bearer ${pat}`]],
    );
    assert.equal(t.store.entries.size, 0);

    const plain = io();
    plain.store.entries.set('work', { credential: pat, baseUrl: 'https://api.test' });
    assert.equal(await runCli(['logout', '--profile', 'work'], plain.io), 0);
    assert.equal(plain.sent.length, 0, 'a plain logout only forgets');
    assert.equal(plain.store.entries.size, 0);
  });

  it('calls any registry operation by name with path, query, body and If-Match, and lists every page', async () => {
    const env = { WORKCELL_TOKEN: pat, WORKCELL_BASE_URL: 'https://api.test' };
    const t = io({
      env,
      answer: (s) =>
        s.url.includes('cursor=') ? { status: 200, body: { data: [{ id: 3 }], meta: { nextCursor: null } } } : { status: 200, body: { data: [{ id: 1 }, { id: 2 }], meta: { nextCursor: 'c' } } },
    });
    assert.equal(await runCli(['list', 'listTags', '--query', 'limit=2', '--all'], t.io), 0);
    assert.deepEqual(t.out, ['{"id":1}', '{"id":2}', '{"id":3}']);
    const u = io({ env, answer: () => ({ status: 200, body: { data: { id: 't' } } }) });
    assert.equal(await runCli(['call', 'updateTask', '--path', 'id=t1', '--body', '{"title":"x"}', '--if-match', '"4"'], u.io), 0);
    assert.deepEqual([u.sent[0]!.method, u.sent[0]!.url, u.sent[0]!.headers['if-match'], u.sent[0]!.body], ['PATCH', 'https://api.test/v1/tasks/t1', '"4"', '{"title":"x"}']);
  });

  it('prints the OpenAPI document (call getOpenApiDocument), which comes without the data envelope', async () => {
    const document = { openapi: '3.1.0', info: { title: 'Workcell v1', version: '1' }, paths: { '/v1': {} } };
    const t = io({ env: { WORKCELL_TOKEN: pat, WORKCELL_BASE_URL: 'https://api.test' }, answer: () => ({ status: 200, body: document }) });
    assert.equal(await runCli(['call', 'getOpenApiDocument'], t.io), 0);
    assert.equal(t.sent[0]!.url, 'https://api.test/v1/openapi.json');
    assert.deepEqual(JSON.parse(t.out.join('\n')), document);
  });

  it('downloads an export to a file (exports download -o) or stdout (call downloadExport), as the bytes came', async () => {
    const env = { WORKCELL_TOKEN: pat, WORKCELL_BASE_URL: 'https://api.test' };
    const csv = 'type,id,name\r\ntags,t1,"a, b"\r\n';
    const file: Answer = {
      status: 200,
      text: csv,
      headers: { 'content-type': 'text/csv; charset=utf-8', 'content-length': String(csv.length), 'content-disposition': 'attachment; filename="export-e1.csv"' },
    };
    const t = io({ env, answer: () => file });
    assert.equal(await runCli(['exports', 'download', 'e1', '-o', 'out.csv'], t.io), 0, t.err.join('\n'));
    assert.deepEqual(t.saved, [{ file: 'out.csv', text: csv }]);
    assert.equal(t.sent[0]!.url, 'https://api.test/v1/exports/e1/download');
    assert.deepEqual(t.err, [`saved export-e1.csv (${csv.length} bytes) to out.csv`]);
    const u = io({ env, answer: () => file });
    assert.equal(await runCli(['call', 'downloadExport', '--path', 'id=e1'], u.io), 0, u.err.join('\n'));
    assert.deepEqual([u.saved, u.err], [[{ file: null, text: csv }], []]);
    assert.equal(await runCli(['exports', 'upload', 'e1'], io({ env }).io), 2);
  });

  it('says it is the CLI, on top of the SDK, in its User-Agent', async () => {
    const t = io({ env: { WORKCELL_TOKEN: pat, WORKCELL_BASE_URL: 'https://api.test' } });
    assert.equal(await runCli(['whoami'], t.io), 0);
    assert.equal(t.sent[0]!.headers['user-agent'], `workcell-cli/9.9.9 ${DEFAULT_USER_AGENT}`);
  });

  it('answers an unknown flag, or one without its value, in its own words with exit 2', async () => {
    const env = { WORKCELL_TOKEN: pat, WORKCELL_BASE_URL: 'https://api.test' };
    const t = io({ env });
    assert.equal(await runCli(['list', 'listTags', '--foo'], t.io), 2);
    assert.deepEqual(t.err, ['workcell: unknown option --foo for list; see workcell help list']);
    const u = io({ env });
    assert.equal(await runCli(['exports', 'download', 'e1', '-o'], u.io), 2);
    assert.deepEqual(u.err, ['workcell: --output needs a value for exports; see workcell help exports']);
    assert.equal(t.sent.length + u.sent.length, 0);
  });

  it('whoami shows the scopes comma-separated and wrapped to the terminal at a terminal, and JSON as JSON', async () => {
    const scopes = ['projects:read', 'projects:write', 'tasks:read', 'tasks:write', 'tags:read', 'exports:read'];
    const answer = () => ({ status: 200, body: { data: { credentialId: 'cred-1', kind: 'personal-access-token', scopes } } });
    const env = { WORKCELL_TOKEN: pat, WORKCELL_BASE_URL: 'https://api.test', COLUMNS: '50' };
    const t = io({ env, tty: true, answer });
    assert.equal(await runCli(['whoami'], t.io), 0);
    assert.deepEqual(t.out, [
      'credentialId  cred-1',
      'kind          personal-access-token',
      'scopes        projects:read, projects:write,',
      '              tasks:read, tasks:write, tags:read,',
      '              exports:read',
    ]);
    const j = io({ env, tty: true, answer });
    assert.equal(await runCli(['whoami', '--json'], j.io), 0);
    assert.deepEqual((JSON.parse(j.out.join('\n')) as { scopes: string[] }).scopes, scopes);
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

  it('without a usable OS store: says how to go on (--insecure-storage or WORKCELL_TOKEN), never a trace; --insecure-storage then works', async () => {
    const t = io({ noKeyring: true });
    assert.equal(await runCli(['login', '--base-url', 'https://api.test'], t.io), 1);
    const said = t.err.join('\n');
    assert.match(said, /the token is valid but cannot be stored: memory is unavailable \(Couldn't access platform storage: AccessDenied\)/);
    assert.match(said, /workcell login --insecure-storage/);
    assert.match(said, /WORKCELL_TOKEN and WORKCELL_BASE_URL/);
    assert.doesNotMatch(said, /backtrace|\s{4}at /i);
    assert.equal(t.insecureStore.entries.size, 0);

    assert.equal(await runCli(['login', '--base-url', 'https://api.test', '--insecure-storage'], t.io), 0);
    assert.deepEqual(t.insecureStore.entries.get('default'), { credential: pat, baseUrl: 'https://api.test' });
    assert.equal(await runCli(['whoami'], t.io), 0, 'the file login is used where the OS store is unavailable');
    assert.equal(t.sent.at(-1)!.headers['authorization'], `Bearer ${pat}`);
    assert.equal(await runCli(['logout'], t.io), 0);
    assert.equal(t.insecureStore.entries.size, 0);
  });

  it('the --insecure-storage file is readable only by its owner and keeps other profiles', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'workcell-cli-'));
    try {
      const path = join(dir, 'config', 'workcell', 'credentials.json');
      const store = fileCredentialStore(path);
      assert.equal(await store.get('default'), null);
      await store.set('default', { credential: pat, baseUrl: 'https://a.test' });
      await store.set('work', { credential: serviceAccount, baseUrl: 'https://b.test' });
      assert.equal((await stat(path)).mode & 0o777, 0o600);
      assert.equal((await stat(join(dir, 'config', 'workcell'))).mode & 0o777, 0o700);
      assert.equal(await store.delete('default'), true);
      assert.equal(await store.delete('default'), false);
      assert.deepEqual(await fileCredentialStore(path).get('work'), { credential: serviceAccount, baseUrl: 'https://b.test' });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a logged-in person piping the output (stdout not a terminal) gets JSON, not a refusal', async () => {
    const t = io({ tty: false, answer: () => ({ status: 200, body: { data: [{ id: 'a', name: 'x' }], meta: { nextCursor: null } } }) });
    t.store.entries.set('default', { credential: pat, baseUrl: 'https://api.test' });
    assert.equal(await runCli(['list', 'listTags'], t.io), 0, t.err.join('\n'));
    assert.deepEqual(
      t.out.map((l) => JSON.parse(l) as unknown),
      [{ id: 'a', name: 'x' }],
    );
  });

  it('shows tables at a terminal with the next page on stderr; --json forces JSON there', async () => {
    const page = {
      status: 200,
      body: {
        data: [
          { id: 'a1', name: 'first', color: null, createdAt: 't', nested: { x: 1 } },
          { id: 'a2', name: 'second', color: 'red', createdAt: 't' },
        ],
        meta: { nextCursor: 'CUR2' },
      },
    };
    const t = io({ tty: true, answer: () => page });
    t.store.entries.set('default', { credential: pat, baseUrl: 'https://api.test' });
    assert.equal(await runCli(['list', 'listTags', '--limit', '2'], t.io), 0);
    assert.deepEqual(
      t.out.map((l) => l.split(/\s+/)),
      [
        ['ID', 'NAME', 'COLOR'],
        ['a1', 'first'],
        ['a2', 'second', 'red'],
      ],
    );
    assert.equal(t.err.at(-1), 'next page: workcell list listTags --limit 2 --cursor CUR2   (or --all)');
    assert.match(t.sent[0]!.url, /limit=2/);
    assert.equal(await runCli(['list', 'listTags', '--cursor', 'CUR2'], t.io), 0);
    assert.match(t.sent[1]!.url, /cursor=CUR2/);
    const j = io({ tty: true, answer: () => page });
    j.store.entries.set('default', { credential: pat, baseUrl: 'https://api.test' });
    assert.equal(await runCli(['list', 'listTags', '--json'], j.io), 0);
    assert.equal((JSON.parse(j.out[0]!) as { id: string }).id, 'a1');
    const one = io({ tty: true, answer: () => ({ status: 200, body: { data: { id: 'w1', name: 'Acme' } } }) });
    one.store.entries.set('default', { credential: pat, baseUrl: 'https://api.test' });
    assert.equal(await runCli(['call', 'getWorkspace'], one.io), 0);
    assert.deepEqual(one.out, ['id    w1', 'name  Acme']);
  });

  it('finds operations, explains commands and operations, and says its version', async () => {
    const t = io({ tty: true });
    assert.equal(await runCli(['operations', 'archive', 'tag'], t.io), 0);
    assert.ok(
      t.out.some((l) => /^archiveTag\s+DELETE\s+\/v1\/tags\/\{id\}/.test(l)),
      t.out.join('\n'),
    );
    const j = io();
    assert.equal(await runCli(['operations', '--family', 'tags'], j.io), 0);
    assert.ok(j.out.map((l) => JSON.parse(l) as { operationId: string; family: string }).every((o) => o.family === 'tags'));
    assert.equal(await runCli(['operations', 'zzzz-nothing'], io().io), 1);

    const help = io();
    assert.equal(await runCli(['call', 'createTag', '--help'], help.io), 0);
    assert.match(help.out.join('\n'), /POST \/v1\/tags/);
    assert.match(help.out.join('\n'), /Idempotency-Key/);
    const ifMatch = io();
    assert.equal(await runCli(['help', 'updateTask'], ifMatch.io), 0);
    assert.match(ifMatch.out.join('\n'), /--path id=<id>[\s\S]*--if-match/);
    const command = io();
    assert.equal(await runCli(['login', '--help'], command.io), 0);
    assert.match(command.out.join('\n'), /--insecure-storage/);
    assert.equal(await runCli(['help', 'nonsense'], io().io), 2);
    const version = io();
    assert.equal(await runCli(['--version'], version.io), 0);
    assert.match(version.out[0]!, /^workcell 9\.9\.9 \(registry [0-9a-f]{12}\)$/);
    const near = io();
    assert.equal(await runCli(['call', 'getTagz'], near.io), 2);
    assert.match(near.err.join('\n'), /did you mean .*getTag/);
  });

  it('--wait follows a 202 to its end with progress on stderr; a failed operation exits 1', async () => {
    const env = { WORKCELL_TOKEN: pat, WORKCELL_BASE_URL: 'https://api.test' };
    const operation = (status: string, error: unknown = null) => ({ status: 200, body: { data: { id: 'op1', kind: 'project.archive', status, resourceType: 'projects', resourceId: 'p1', error } } });
    const script = (final: Answer) => {
      let polls = 0;
      return (s: Sent): Answer => {
        if (s.method === 'DELETE') return { status: 202, body: { data: { id: 'op1', kind: 'project.archive', status: 'pending' } }, headers: { location: '/v1/projects/p1/lifecycle-operations/op1' } };
        polls++;
        return polls < 3 ? operation(polls === 1 ? 'pending' : 'running') : final;
      };
    };
    const t = io({ env, answer: script(operation('succeeded')) });
    assert.equal(await runCli(['call', 'archiveProject', '--path', 'id=p1', '--if-match', '"3"', '--wait'], t.io), 0, t.err.join('\n'));
    assert.deepEqual(
      t.sent.map((s) => `${s.method} ${new URL(s.url).pathname}`),
      ['DELETE /v1/projects/p1', ...Array(3).fill('GET /v1/projects/p1/lifecycle-operations/op1')],
    );
    assert.deepEqual(
      t.err.filter((l) => l.startsWith('project.archive')).map((l) => l.split(' ')[1]),
      ['pending', 'running', 'succeeded'],
    );
    assert.equal((JSON.parse(t.out.join('\n')) as { status: string }).status, 'succeeded');

    const failed = io({ env, answer: script(operation('failed', { code: 'enqueue_failed', detail: 'the queue refused it' })) });
    assert.equal(await runCli(['call', 'archiveProject', '--path', 'id=p1', '--if-match', '"3"', '--wait'], failed.io), 1);
    assert.match(failed.err.at(-1)!, /project\.archive failed: enqueue_failed the queue refused it/);

    const noWait = io({ env, answer: script(operation('succeeded')) });
    assert.equal(await runCli(['call', 'archiveProject', '--path', 'id=p1', '--if-match', '"3"'], noWait.io), 0);
    assert.equal(noWait.sent.length, 1);
    assert.match(noWait.err.join('\n'), /accepted: .*--wait/);
  });

  it('--wait on an export shows its status and rows done of rows in all; a failed export says why', async () => {
    const env = { WORKCELL_TOKEN: pat, WORKCELL_BASE_URL: 'https://api.test' };
    const exported = (status: string, rowsDone: number, rowsTotal: number | null, failureReason: string | null = null) => ({
      status: 200,
      body: { data: { id: 'e1', status, resourceTypes: ['tags'], format: 'csv', rowsDone, rowsTotal, failureReason } },
    });
    const script =
      (...polls: Answer[]) =>
      (s: Sent): Answer =>
        s.method === 'POST' ? { status: 202, body: exported('pending', 0, null).body, headers: { location: '/v1/exports/e1' } } : polls.shift()!;
    const t = io({ env, answer: script(exported('running', 5, 10), exported('succeeded', 10, 10)) });
    assert.equal(await runCli(['call', 'createExport', '--body', '{"resourceTypes":["tags"],"format":"csv"}', '--wait'], t.io), 0, t.err.join('\n'));
    assert.deepEqual(
      t.err.map((l) => l.replace(/ \(\d+ s\)$/, '')),
      ['export running 5/10', 'export succeeded 10/10'],
    );
    const failed = io({ env, answer: script(exported('failed', 0, null, 'too_many_rows')) });
    assert.equal(await runCli(['call', 'createExport', '--body', '{"resourceTypes":["tags"],"format":"csv"}', '--wait'], failed.io), 1);
    assert.deepEqual(
      failed.err.map((l) => l.replace(/ \(\d+ s\)$/, '')),
      ['export failed 0/?', 'workcell: export failed: too_many_rows'],
    );
  });

  it('ends quietly with 0 when the reader of its output goes away (`workcell … | head -1`)', async () => {
    // The reading end is closed before the CLI starts (sh waits for the go): every write meets a closed pipe.
    const main = fileURLToPath(new URL('./main.js', import.meta.url));
    const child = spawn('sh', ['-c', 'read go && exec "$0" "$@"', process.execPath, main, 'operations', '--json'], { stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    child.stdin.end('go\n');
    assert.deepEqual([await exited, stderr], [0, '']);
  });

  it('reads the body from stdin (-) or a file (@path), and shows the field an API error names', async () => {
    const env = { WORKCELL_TOKEN: pat, WORKCELL_BASE_URL: 'https://api.test' };
    const t = io({ env, stdin: '{"name":"from stdin"}', answer: () => ({ status: 201, body: { data: { id: 'x' } } }) });
    assert.equal(await runCli(['call', 'createTag', '--body', '-'], t.io), 0);
    assert.equal(t.sent[0]!.body, '{"name":"from stdin"}');
    const dir = await mkdtemp(join(tmpdir(), 'workcell-cli-'));
    try {
      await writeFile(join(dir, 'tag.json'), '{"name":"from a file"}');
      assert.equal(await runCli(['call', 'createTag', '--body', `@${join(dir, 'tag.json')}`], t.io), 0);
      assert.equal(t.sent[1]!.body, '{"name":"from a file"}');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    const bad = io({ env, answer: () => ({ status: 400, body: { errors: [{ code: 'validation_failed', detail: 'Too long', status: '400', title: 'Bad Request', source: { pointer: '/name' } }] } }) });
    assert.equal(await runCli(['call', 'createTag', '--body', '{"name":"x"}'], bad.io), 1);
    assert.deepEqual(bad.err, ['workcell: 400 validation_failed: Too long', '  /name: Too long']);
  });
});
