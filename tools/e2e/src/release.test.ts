import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { stripVTControlCharacters } from 'node:util';
import { copyFile, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, childEnv, ROOT } from './support/packed.js';

/**
 * A release of the two clients can be cut (issue 29): `nx release` (nx.json's `release`: @workcell/sdk and
 * @workcell/cli versioned together from conventional commits, a CHANGELOG.md each) dry-run in a shallow clone of
 * this checkout with two conventional commits on top, and `npm pack --dry-run` of both packages. Nothing here
 * writes to the checkout: the clone is a temporary folder, and the dry run neither commits nor tags.
 */

const RELEASE_FILES = ['nx.json', 'package.json', 'libs/sdk/package.json', 'libs/sdk/CHANGELOG.md', 'tools/cli/package.json', 'tools/cli/CHANGELOG.md'];
const GIT_IDENTITY = { GIT_AUTHOR_NAME: 'release test', GIT_AUTHOR_EMAIL: 'release@test.invalid', GIT_COMMITTER_NAME: 'release test', GIT_COMMITTER_EMAIL: 'release@test.invalid' };

const manifest = async (dir: string) => JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;

/** Runs a command to its end (no stdin; nothing in this process needs to answer it meanwhile). */
function run(file: string, args: readonly string[], cwd: string, extra: Record<string, string> = {}) {
  // Plain text whatever the parent forces (`npm test` runs under nx, which sets FORCE_COLOR for its children).
  const env = { ...childEnv(extra), FORCE_COLOR: '0', NO_COLOR: '1' };
  const result = spawnSync(file, args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 80_000, maxBuffer: 16 * 1024 * 1024 });
  const plain = (text: string) => stripVTControlCharacters(text);
  return { status: result.status ?? 1, stdout: plain(result.stdout), stderr: plain(result.stderr + (result.error ? String(result.error) : '')) };
}

async function git(cwd: string, ...args: string[]): Promise<string> {
  const result = run('git', ['-c', 'commit.gpgsign=false', '-c', 'core.hooksPath=/dev/null', ...args], cwd, GIT_IDENTITY);
  assert.equal(result.status, 0, `git ${args.join(' ')}: ${result.stderr}`);
  return result.stdout;
}

describe('cutting a release of the SDK and the CLI', () => {
  let temp: string;
  beforeAll(async () => {
    temp = await mkdtemp(join(tmpdir(), 'workcell-release-'));
  });
  afterAll(() => temp && rm(temp, { recursive: true, force: true }));

  it('nx release --dry-run bumps both from conventional commits, writes both changelogs, and changes nothing', async () => {
    const checkoutBefore = await git(ROOT, 'status', '--porcelain');
    const clone = join(temp, 'clone');
    // CI's checkout has no remote and maybe little history: a depth-1 clone without tags is the hardest case.
    await git(temp, 'clone', '--quiet', '--depth', '1', '--no-tags', `file://${ROOT}`, clone);
    // The release configuration as it is in this checkout (committed or not).
    for (const file of RELEASE_FILES) await copyFile(join(ROOT, file), join(clone, file));
    await git(clone, 'add', ...RELEASE_FILES);
    await git(clone, 'commit', '--quiet', '--allow-empty', '-m', 'chore: the checkout as it is');
    await writeFile(join(clone, 'libs/sdk/src/release-probe.ts'), 'export const probe = 1;\n');
    await git(clone, 'add', 'libs/sdk/src/release-probe.ts');
    await git(clone, 'commit', '--quiet', '-m', 'feat(sdk)!: a breaking probe');
    await writeFile(join(clone, 'tools/cli/src/release-probe.ts'), 'export const probe = 1;\n');
    await git(clone, 'add', 'tools/cli/src/release-probe.ts');
    await git(clone, 'commit', '--quiet', '-m', 'fix(cli): a probe fix');
    await symlink(join(ROOT, 'node_modules'), join(clone, 'node_modules'), 'dir');
    const head = await git(clone, 'rev-parse', 'HEAD');

    const current = (await manifest(join(ROOT, 'libs/sdk')))['version'] as string;
    const [major, minor] = current.split('.').map(Number) as [number, number];
    // Before 1.0.0 a breaking change bumps the minor version (Nx's adjustSemverBumpsForZeroMajorVersion).
    const next = major === 0 ? `0.${minor + 1}.0` : `${major + 1}.0.0`;

    const release = run(join(BIN, 'nx'), ['release', '--dry-run', '--skip-publish'], clone, {
      NX_DAEMON: 'false',
      NX_NO_CLOUD: 'true',
      NX_TUI: 'false',
      NX_CACHE_DIRECTORY: join(temp, 'nx-cache'),
      NX_WORKSPACE_DATA_DIRECTORY: join(temp, 'nx-data'),
    });
    const out = release.stdout + release.stderr;
    assert.equal(release.status, 0, out);
    assert.match(out, new RegExp(`@workcell/sdk .*New version ${next} written to manifest: libs/sdk/package\\.json`));
    assert.match(out, new RegExp(`@workcell/cli .*New version ${next} written to manifest: tools/cli/package\\.json`));
    // The CLI's range on the SDK follows the SDK (a published CLI must not ask for the SDK's previous minor).
    assert.match(out, new RegExp(`\\+\\s+"@workcell/sdk": "\\^${next.replaceAll('.', '\\.')}"`));
    assert.match(out, new RegExp(`Previewing an entry in libs/sdk/CHANGELOG\\.md for clients-v${next}`));
    assert.match(out, new RegExp(`Previewing an entry in tools/cli/CHANGELOG\\.md for clients-v${next}`));
    assert.match(out, /\+ ## \d+\.\d+\.\d+ \(\d{4}-\d\d-\d\d\)/);
    assert.match(out, /\*\*sdk:\*\* a breaking probe/);
    assert.match(out, /\*\*cli:\*\* a probe fix/);
    assert.match(out, /Skipped publishing packages/);

    assert.equal(await git(clone, 'rev-parse', 'HEAD'), head, 'no release commit');
    assert.equal(await git(clone, 'tag', '--list'), '', 'no tag');
    assert.equal(await git(clone, 'status', '--porcelain'), '?? node_modules\n', 'no file changed in the clone');
    assert.equal(await git(ROOT, 'status', '--porcelain'), checkoutBefore, 'no file changed in the checkout');
  }, 90_000);

  it.each([
    ['@workcell/sdk', 'libs/sdk', ['dist/index.js', 'dist/index.d.ts']],
    ['@workcell/cli', 'tools/cli', ['dist/main.js']],
  ])('%s packs as a publishable package (npm pack --dry-run)', async (name, dir, built) => {
    const packed = run('npm', ['pack', '--dry-run', '--json'], join(ROOT, dir));
    assert.equal(packed.status, 0, packed.stderr);
    const [info] = JSON.parse(packed.stdout) as { name: string; version: string; files: { path: string }[] }[];
    const files = info!.files.map((file) => file.path);
    for (const file of [...built, 'package.json', 'README.md', 'CHANGELOG.md', 'LICENSE']) assert.ok(files.includes(file), `${file} in ${files.join(', ')}`);
    const pkg = await manifest(join(ROOT, dir));
    assert.equal(info!.name, name);
    assert.equal(pkg['private'], undefined, 'not private');
    assert.equal(pkg['license'], 'Apache-2.0');
    assert.match(String(pkg['version']), /^\d+\.\d+\.\d+$/);
    assert.deepEqual(pkg['engines'], { node: '>=20.19' });
    assert.equal((pkg['repository'] as { directory?: string }).directory, dir);
    assert.match(await readFile(join(ROOT, dir, 'CHANGELOG.md'), 'utf8'), new RegExp(`^## ${String(pkg['version']).replaceAll('.', '\\.')} \\(`, 'm'));
  });

  it('the CLI asks for the SDK of its own release', async () => {
    const sdk = await manifest(join(ROOT, 'libs/sdk'));
    const cli = await manifest(join(ROOT, 'tools/cli'));
    assert.equal(cli['version'], sdk['version'], 'one fixed release group');
    assert.equal((cli['dependencies'] as Record<string, string>)['@workcell/sdk'], `^${String(sdk['version'])}`);
  });
});
