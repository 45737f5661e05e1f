import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { useTestEnvironment } from '@workcell/testing';
import { useV1Cell } from './support/cell.js';

/**
 * The SDK as someone outside the repository gets it (issue 15): `npm pack` of the built libs/sdk, linted by
 * publint and arethetypeswrong, installed into an empty folder, and the example of its README run from there
 * against a running cell.
 */

const env = useTestEnvironment();
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SDK = join(ROOT, 'libs/sdk');
const BIN = join(ROOT, 'node_modules/.bin');

/** The environment of a child npm: this run's own npm_* variables (workspace, lifecycle, package) left out. */
const KEPT_NPM = new Set(['npm_config_cache', 'npm_config_userconfig', 'npm_config_registry']);
const childEnv = (extra: Record<string, string> = {}) => ({
  // eslint-disable-next-line no-restricted-properties -- npm needs the machine's own setup (HOME, PATH, its cache), not a service's configuration
  ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('npm_') || KEPT_NPM.has(key))),
  ...extra,
});

/** Runs a command asynchronously (the cell answering the example lives in this process). */
const run = (file: string, args: readonly string[], cwd: string, extra: Record<string, string> = {}) =>
  new Promise<{ status: number; stdout: string; stderr: string }>((resolve) => {
    execFile(file, args, { cwd, env: childEnv(extra), encoding: 'utf8', timeout: 90_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ status: error ? Number((error as { code?: unknown }).code ?? 1) || 1 : 0, stdout, stderr }),
    );
  });

/** A local port nothing listens on (one just released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The README's example: its first ```js block. */
function exampleOf(readme: string): string {
  const block = /```js\n([\s\S]*?)```/.exec(readme);
  assert.ok(block, 'the README has a ```js example');
  return block[1]!;
}

describe('the packed @workcell/sdk, installed outside the repository', () => {
  const cell = useV1Cell(env);
  let temp: string;
  let tarball: string;

  beforeAll(async () => {
    temp = await mkdtemp(join(tmpdir(), 'workcell-sdk-'));
    const packed = await run('npm', ['pack', '--json', '--pack-destination', temp], SDK);
    assert.equal(packed.status, 0, packed.stderr);
    const [info] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
    tarball = join(temp, info!.filename);
    const files = info!.files.map((file) => file.path);
    assert.ok(files.includes('dist/index.js') && files.includes('dist/index.d.ts') && files.includes('README.md'), files.join(', '));
    assert.deepEqual(
      files.filter((path) => path.startsWith('src/') || path.includes('.test.') || path.endsWith('.map')),
      [],
      'built JavaScript and types only',
    );
  }, 120_000);
  afterAll(() => temp && rm(temp, { recursive: true, force: true }));

  it('passes publint and arethetypeswrong', async () => {
    const publint = await run(join(BIN, 'publint'), ['run', tarball, '--strict'], temp);
    assert.equal(publint.status, 0, publint.stdout + publint.stderr);
    assert.match(publint.stdout, /All good/);
    const attw = await run(join(BIN, 'attw'), [tarball, '--profile', 'esm-only', '--format', 'json'], temp);
    assert.equal(attw.status, 0, attw.stdout + attw.stderr);
  }, 120_000);

  it('installs into an empty folder with no workspace dependency, and runs the README example against the cell', async () => {
    const app = join(temp, 'app');
    await mkdir(app);
    const installed = await run('npm', ['install', tarball, '--no-audit', '--no-fund', '--prefer-offline'], app);
    assert.equal(installed.status, 0, installed.stderr);
    const manifest = JSON.parse(await readFile(join(app, 'node_modules/@workcell/sdk/package.json'), 'utf8')) as Record<string, unknown>;
    assert.equal(manifest['version'], '0.1.0');
    assert.deepEqual(manifest['dependencies'], { standardwebhooks: '^1.1.1' }, 'one runtime dependency: the Standard Webhooks library verifyWebhook builds on');
    assert.deepEqual(await readdir(join(app, 'node_modules/@workcell')), ['sdk'], 'no other @workcell package came with it');

    await writeFile(join(app, 'example.mjs'), exampleOf(await readFile(join(app, 'node_modules/@workcell/sdk/README.md'), 'utf8')));
    const example = await run(process.execPath, ['example.mjs'], app, { WORKCELL_TOKEN: cell.admin, WORKCELL_URL: cell.v1.url });
    assert.equal(example.status, 0, example.stdout + example.stderr);
    const lines = example.stdout.trim().split('\n');
    assert.match(lines[0]!, /^credential personal-access-token in [a-z0-9-]+\/[a-z0-9-]+$/);
    assert.match(lines[1]!, /^created tag example \d+$/);
    assert.equal(lines[2], 'listed it 1 time(s)');

    const webhookHelper = await run(process.execPath, ['--input-type=module', '-e', "import { verifyWebhook } from '@workcell/sdk'; try { verifyWebhook('whsec_AAAA', '{}', {}); } catch (error) { console.log(error.name); }"], app);
    assert.equal(webhookHelper.stdout.trim(), 'WorkcellWebhookVerificationError', webhookHelper.stderr);

    const nobody = await closedPort();
    const refused = await run(process.execPath, ['example.mjs'], app, { WORKCELL_TOKEN: cell.admin, WORKCELL_URL: `http://127.0.0.1:${nobody}` });
    assert.equal(refused.status, 1);
    assert.equal(refused.stderr.trim(), `cannot reach http://127.0.0.1:${nobody}: could not reach http://127.0.0.1:${nobody}/v1/auth/context: ECONNREFUSED`);
  }, 180_000);
});
