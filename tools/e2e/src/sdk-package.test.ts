import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useTestEnvironment } from '@workcell/testing';
import { useV1Cell } from './support/cell.js';
import { BIN, closedPort, pack, ROOT, run } from './support/packed.js';

/**
 * The SDK as someone outside the repository gets it (issue 15): `npm pack` of the built libs/sdk, linted by
 * publint and arethetypeswrong, installed into an empty folder, and the example of its README run from there
 * against a running cell.
 */

const env = useTestEnvironment();
const SDK = join(ROOT, 'libs/sdk');

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
    const packed = await pack(SDK, temp);
    tarball = packed.tarball;
    assert.ok(
      ['dist/index.js', 'dist/index.d.ts', 'README.md'].every((file) => packed.files.includes(file)),
      packed.files.join(', '),
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

    const webhookHelper = await run(
      process.execPath,
      ['--input-type=module', '-e', "import { verifyWebhook } from '@workcell/sdk'; try { verifyWebhook('whsec_AAAA', '{}', {}); } catch (error) { console.log(error.name); }"],
      app,
    );
    assert.equal(webhookHelper.stdout.trim(), 'WorkcellWebhookVerificationError', webhookHelper.stderr);

    const nobody = await closedPort();
    const refused = await run(process.execPath, ['example.mjs'], app, { WORKCELL_TOKEN: cell.admin, WORKCELL_URL: `http://127.0.0.1:${nobody}` });
    assert.equal(refused.status, 1);
    assert.equal(refused.stderr.trim(), `cannot reach http://127.0.0.1:${nobody}: could not reach http://127.0.0.1:${nobody}/v1/auth/context: ECONNREFUSED`);
  }, 180_000);
});
