import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { V1_SCOPES } from '@workcell/credentials';
import { useTestEnvironment } from '@workcell/testing';
import { AuthAgent, csrfOf } from './support/auth-agent.js';
import { useV1Cell } from './support/cell.js';
import { pack, ROOT, run } from './support/packed.js';
import { Terminal, TMUX_AVAILABLE } from './support/terminal.js';
import { callApi } from './support/v1.js';

/**
 * The `workcell` command as someone outside the repository gets it (issue 15): the SDK and CLI tarballs installed
 * into an empty folder, the `workcell` bin run from there, at a real terminal (tmux) and from scripts, against a
 * running cell.
 */

const env = useTestEnvironment();
if (!TMUX_AVAILABLE) console.warn('the CLI terminal checks are skipped: tmux is not installed (Debian: tmux)');

describe('the packed workcell CLI, installed outside the repository', () => {
  const cell = useV1Cell(env);
  let temp: string;
  let app: string;
  let workcell: string;

  beforeAll(async () => {
    temp = await mkdtemp(join(tmpdir(), 'workcell-cli-'));
    const sdk = await pack(join(ROOT, 'libs/sdk'), temp);
    const cli = await pack(join(ROOT, 'tools/cli'), temp);
    assert.ok(cli.files.includes('dist/main.js') && cli.files.includes('README.md'), cli.files.join(', '));
    app = join(temp, 'app');
    await mkdir(app);
    const installed = await run('npm', ['install', sdk.tarball, cli.tarball, '--no-audit', '--no-fund', '--prefer-offline'], app);
    assert.equal(installed.status, 0, installed.stderr);
    workcell = join(app, 'node_modules/.bin/workcell');
  }, 180_000);
  afterAll(() => temp && rm(temp, { recursive: true, force: true }));

  it('puts `workcell` on the PATH of the folder (npx), with its version, help per command and discovery', async () => {
    assert.deepEqual((await readdir(join(app, 'node_modules/@workcell'))).sort(), ['cli', 'sdk']);
    const version = await run('npx', ['--no-install', 'workcell', '--version'], app);
    assert.equal(version.status, 0, version.stderr);
    assert.match(version.stdout.trim(), /^workcell 0\.1\.0 \(registry [0-9a-f]{12}\)$/);
    const help = await run(workcell, ['help', 'list'], app);
    assert.match(help.stdout, /^usage: workcell list <operationId>/);
    const found = await run(workcell, ['operations', 'lifecycle', '--json'], app);
    assert.ok(
      found.stdout
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { operationId: string }).operationId)
        .includes('getProjectLifecycleOperation'),
    );
    const unknown = await run(workcell, ['frobnicate'], app);
    assert.equal(unknown.status, 2);
    assert.doesNotMatch(unknown.stderr, /\n\s+at /, 'no stack trace');
  }, 60_000);

  it('--wait follows an asynchronous operation to its end, with its progress on stderr and the result as JSON', async () => {
    const { token } = await cell.serviceAccount(V1_SCOPES, [{ resourceType: 'project', resourceId: null, access: 'write' }]);
    const created = await callApi<{ data: { id: string } }>(cell.v1, 'POST', '/v1/projects', cell.admin, { name: 'archived from the CLI' });
    const etag = created.headers.get('etag')!;
    const scripted = { CI: 'true', WORKCELL_TOKEN: token, WORKCELL_BASE_URL: cell.v1.url };
    const waited = await run(workcell, ['call', 'archiveProject', '--path', `id=${created.body.data.id}`, '--if-match', etag, '--wait'], app, scripted);
    assert.equal(waited.status, 0, waited.stderr);
    assert.equal((JSON.parse(waited.stdout) as { status: string }).status, 'succeeded');
    const progress = waited.stderr.split('\n').filter((line) => line.startsWith('project.archive '));
    assert.equal(progress.at(-1)?.split(' ')[1], 'succeeded', waited.stderr);
    assert.equal((await callApi<{ data: { status: string } }>(cell.v1, 'GET', `/v1/projects/${created.body.data.id}`, cell.admin)).body.data.status, 'archived');
  }, 60_000);

  it('creates an export with --wait, then downloads it: the CLI to a file and to stdout, the SDK as a stream and as text', async () => {
    const { token } = await cell.serviceAccount(V1_SCOPES, [{ resourceType: 'project', resourceId: null, access: 'write' }]);
    assert.equal((await callApi(cell.v1, 'POST', '/v1/projects', cell.admin, { name: 'exported from the CLI' })).status, 201);
    const scripted = { CI: 'true', WORKCELL_TOKEN: token, WORKCELL_BASE_URL: cell.v1.url };
    const created = await run(workcell, ['call', 'createExport', '--body', '{"resourceTypes":["projects"],"format":"csv"}', '--wait'], app, scripted);
    assert.equal(created.status, 0, created.stderr);
    const exported = JSON.parse(created.stdout) as { id: string; status: string; rowsDone: number; rowsTotal: number };
    assert.equal(exported.status, 'succeeded', created.stdout);
    assert.match(created.stderr, new RegExp(`^export succeeded ${exported.rowsDone}/${exported.rowsTotal} \\(`, 'm'), 'the status and rows done of rows in all');
    assert.doesNotMatch(created.stderr, /undefined/);

    const file = join(temp, 'export.csv');
    const saved = await run(workcell, ['exports', 'download', exported.id, '-o', file], app, scripted);
    assert.equal(saved.status, 0, saved.stderr);
    const csv = await readFile(file, 'utf8');
    assert.match(csv, /^type,/);
    assert.match(csv, /exported from the CLI/);
    assert.match(saved.stderr, new RegExp(`saved export-${exported.id}\\.csv \\(${Buffer.byteLength(csv)} bytes\\) to `));
    const printed = await run(workcell, ['call', 'downloadExport', '--path', `id=${exported.id}`], app, scripted);
    assert.deepEqual([printed.status, printed.stdout, printed.stderr], [0, csv, '']);

    const script = [
      "import { WorkcellClient } from '@workcell/sdk';",
      'const client = new WorkcellClient({ credential: process.env.WORKCELL_TOKEN, baseUrl: process.env.WORKCELL_BASE_URL });',
      "const file = await client.download('downloadExport', { path: { id: process.env.EXPORT_ID } });",
      'const streamed = await new Response(file.body).text();',
      "const { data: text } = await client.call('downloadExport', { path: { id: process.env.EXPORT_ID } });",
      'process.stdout.write(JSON.stringify({ contentType: file.contentType, fileName: file.fileName, streamed, text }));',
    ].join('\n');
    const sdk = await run(process.execPath, ['--input-type=module', '-e', script], app, { ...scripted, EXPORT_ID: exported.id });
    assert.equal(sdk.status, 0, sdk.stderr);
    assert.deepEqual(JSON.parse(sdk.stdout), { contentType: 'text/csv; charset=utf-8', fileName: `export-${exported.id}.csv`, streamed: csv, text: csv });

    // The SDK README's download example, as shipped, against this cell instead of `npm start`'s.
    const readme = await readFile(join(app, 'node_modules/@workcell/sdk/README.md'), 'utf8');
    const example = /## Downloading files[\s\S]*?```js\n([\s\S]*?)```/.exec(readme)?.[1];
    assert.ok(example !== undefined && example.includes("'http://127.0.0.1:3001'"), 'the README has a download example against the local stack');
    await writeFile(join(app, 'download.mjs'), example.replace("'http://127.0.0.1:3001'", JSON.stringify(cell.v1.url)));
    const fromReadme = await run(process.execPath, ['download.mjs'], app, scripted);
    assert.equal(fromReadme.status, 0, fromReadme.stderr);
    assert.match(fromReadme.stdout, /^saved export-[0-9a-f-]+\.csv: text\/csv; charset=utf-8, \d+ bytes\n/);
  }, 60_000);

  (TMUX_AVAILABLE ? it : it.skip)(
    'at a terminal: hides the pasted token, explains a missing OS store, then stores with --insecure-storage; tables for people, JSON through a pipe',
    async () => {
      const pat = await cell.mint(V1_SCOPES);
      for (const name of ['terminal one', 'terminal two']) assert.equal((await callApi(cell.v1, 'POST', '/v1/tags', cell.admin, { name })).status, 201);
      const home = join(temp, 'home');
      await mkdir(home);
      // No session bus, as on a server: the OS credential store is unavailable.
      const terminal = await Terminal.open(app, { PATH: `${dirname(workcell)}:${dirname(process.execPath)}:/usr/bin:/bin`, HOME: home, XDG_CONFIG_HOME: join(home, '.config') });
      try {
        await terminal.type(`workcell login --base-url ${cell.v1.url} --with-token`);
        await terminal.waitForEchoOff(); // the CLI took the terminal; the prompt may not be drawn yet
        await terminal.type(pat);
        let screen = await terminal.waitFor(/the token is valid but cannot be stored/);
        assert.match(screen, /workcell login --insecure-storage/);
        assert.match(screen, /WORKCELL_TOKEN and WORKCELL_BASE_URL/);
        assert.doesNotMatch(screen, /backtrace|\n\s+at /i);

        await terminal.type(`workcell login --base-url ${cell.v1.url} --with-token --insecure-storage`);
        await terminal.waitForEchoOff();
        await terminal.type(pat);
        screen = await terminal.waitFor(/Logged in \(profile default\)/);
        assert.ok(!screen.includes(pat), `the token never appears on the terminal:\n${screen}`);
        const file = join(home, '.config/workcell/credentials.json');
        assert.equal((await stat(file)).mode & 0o777, 0o600);
        assert.equal((JSON.parse(await readFile(file, 'utf8')) as Record<string, { credential: string }>)['default']?.credential, pat);

        await terminal.type('workcell whoami');
        screen = await terminal.waitFor(/^kind\s+personal-access-token$/m);
        const out = join(temp, 'tags.jsonl');
        await terminal.type(`workcell list listTags --limit 1 | cat > ${out}; echo "piped: $?"`);
        screen = await terminal.waitFor(/piped: 0/);
        const lines = (await readFile(out, 'utf8')).trim().split('\n');
        assert.equal(lines.length, 1);
        assert.ok((JSON.parse(lines[0]!) as { id?: string }).id, 'a logged-in person piping the output gets JSON');
        assert.match(screen, /next page: workcell list listTags --limit 1 --cursor \S+/);
      } finally {
        await terminal.close();
      }
    },
    90_000,
  );
  (TMUX_AVAILABLE ? it : it.skip)(
    'at a terminal: the device login prints a code and a page, waits, and stores the token the person approves there',
    async () => {
      const member = await cell.member(['settings.api.personalCredentials', 'workspace:read', 'tags:read']);
      const user = await cell.database.prisma.user.findUniqueOrThrow({ where: { email: member.email } });
      const home = join(temp, 'home-device');
      await mkdir(home);
      const terminal = await Terminal.open(app, { PATH: `${dirname(workcell)}:${dirname(process.execPath)}:/usr/bin:/bin`, HOME: home, XDG_CONFIG_HOME: join(home, '.config') });
      try {
        await terminal.type(`workcell login --base-url ${cell.v1.url} --insecure-storage`);
        let screen = await terminal.waitFor(/Choose 1 or 2 \[1\]: /);
        assert.match(screen, /1\. With a browser/);
        await terminal.type('1');
        screen = await terminal.waitFor(/one-time code: [A-Z]{4}-[A-Z]{4}/);
        const code = /one-time code: ([A-Z]{4}-[A-Z]{4})/.exec(screen)![1]!;
        assert.match(screen, /open \S+\/device in a browser/);

        // The person, in a browser signed in as the member (the session made here; sign-in is sign-in.test's), approves.
        const secret = randomBytes(32).toString('base64url');
        await cell.database.prisma.session.create({ data: { userId: user.id, idHash: new Uint8Array(createHash('sha256').update(secret).digest()), expiresAt: new Date(Date.now() + 3_600_000) } });
        const browser = new AuthAgent(() => cell.auth.url);
        browser.cookies.set('wc_session', secret);
        const approval = await browser.get(`/device?user_code=${code}`);
        assert.equal(approval.status, 200, approval.text);
        const approved = await browser.post('/device/approve', {
          csrf: csrfOf(approval.text),
          user_code: code,
          workspaceId: cell.workspaceId,
          name: 'terminal laptop',
          scopes: ['workspace:read', 'tags:read'],
          expiresOn: new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10),
        });
        assert.equal(approved.status, 200, approved.text);

        screen = await terminal.waitFor(/Logged in \(profile default\)/, 60_000);
        const file = join(home, '.config/workcell/credentials.json');
        const stored = (JSON.parse(await readFile(file, 'utf8')) as Record<string, { credential: string }>)['default']?.credential ?? '';
        assert.ok(stored.startsWith('svc_pat_v2_'));
        assert.ok(!screen.includes(stored), `the token never appears on the terminal:\n${screen}`);
        await terminal.type('workcell whoami');
        screen = await terminal.waitFor(/^kind\s+personal-access-token$/m);
        const credential = await cell.database.prisma.credential.findFirstOrThrow({ where: { workspaceId: cell.workspaceId, memberId: member.memberId } });
        assert.equal(credential.name, 'terminal laptop');
      } finally {
        await terminal.close();
      }
    },
    90_000,
  );
});
