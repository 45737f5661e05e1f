import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useTestEnvironment } from '@workcell/testing';
import { useV1Cell } from './support/cell.js';
import { ROOT, run } from './support/packed.js';
import { callApi } from './support/v1.js';

/**
 * The operators' commands of issue 15, run as processes against a running cell's database: `npm run
 * workspace:create` makes a real workspace with its first administrator and token (not the demo seed), and the
 * seed's `--keep-demo-tokens` (what `npm start -- --keep-demo-tokens` passes) keeps working demo tokens across
 * starts instead of revoking them.
 */

const env = useTestEnvironment();

describe('operators: a real workspace, and demo tokens kept across starts', () => {
  const cell = useV1Cell(env);
  let temp: string;

  beforeAll(async () => {
    temp = await mkdtemp(join(tmpdir(), 'workcell-provisioning-'));
  });
  afterAll(() => temp && rm(temp, { recursive: true, force: true }));

  /** One of tools/db's commands, with this test's database and Redis prefix (so the cell sees its changes). */
  const tool = (script: string, args: readonly string[]) =>
    run(process.execPath, [join(ROOT, 'tools/db/dist', script), ...args], ROOT, { DATABASE_URL: env.databaseUrl, REDIS_PREFIX: env.redisPrefix, LOG_LEVEL: 'silent' });
  const workspaces = () => cell.database.prisma.workspace.count();

  it('workspace:create refuses bad input with exit 2, naming the option, and writes nothing', async () => {
    const before = await workspaces();
    const refused = await tool('create-workspace.js', ['--name', 'Acme', '--admin-email', 'not-an-address', '--admin-name', 'Ada']);
    assert.equal(refused.status, 2, refused.stderr);
    assert.match(refused.stderr, /--admin-email: /);
    const missing = await tool('create-workspace.js', ['--admin-email', 'ada@acme.test', '--admin-name', 'Ada']);
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /--name: /);
    assert.equal(await workspaces(), before);
  });

  it('workspace:create makes a workspace whose first administrator token works, sees only its own workspace, and can administer it', async () => {
    const created = await tool('create-workspace.js', ['--name', 'Acme Ltd', '--admin-email', 'Ada@Acme.test', '--admin-name', 'Ada Lovelace', '--json']);
    assert.equal(created.status, 0, created.stderr);
    const { workspaceId, administratorMemberId, personalAccessToken } = JSON.parse(created.stdout) as { workspaceId: string; administratorMemberId: string; personalAccessToken: string };
    assert.match(personalAccessToken, /^svc_pat_v2_/);
    assert.notEqual(workspaceId, cell.workspaceId);

    const context = await callApi<{ data: { workspaceId?: string; kind: string } }>(cell.v1, 'GET', '/v1/auth/context', personalAccessToken);
    assert.equal(context.status, 200);
    const workspace = await callApi<{ data: { id: string; name: string } }>(cell.v1, 'GET', '/v1/workspace', personalAccessToken);
    assert.deepEqual([workspace.body.data.id, workspace.body.data.name], [workspaceId, 'Acme Ltd']);
    const members = await callApi<{ data: { id: string; email?: string }[] }>(cell.v1, 'GET', '/v1/members', personalAccessToken);
    assert.deepEqual(
      members.body.data.map((m) => [m.id, m.email]),
      [[administratorMemberId, 'ada@acme.test']],
    );
    // An administrator: it can make what a new workspace needs next (a role here), through the API.
    const role = await callApi(cell.v1, 'POST', '/v1/roles', personalAccessToken, { name: 'Staff', permissions: ['projects:read'] });
    assert.equal(role.status, 201, JSON.stringify(role.body));
    const demoProject = await cell.database.prisma.project.findFirstOrThrow({ where: { workspaceId: cell.workspaceId } });
    assert.equal((await callApi(cell.v1, 'GET', `/v1/projects/${demoProject.id}`, personalAccessToken)).status, 404, 'another tenant');

    const human = await tool('create-workspace.js', ['--name', 'Beta', '--admin-email', 'bo@beta.test', '--admin-name', 'Bo', '--token-expires-in-days', '30']);
    assert.equal(human.status, 0, human.stderr);
    assert.match(human.stdout, /shown this once/);
    const token = /^\s+(svc_pat_v2_\S+)$/m.exec(human.stdout)?.[1];
    const credential = await cell.database.prisma.credential.findFirstOrThrow({ where: { workspace: { name: 'Beta' } } });
    assert.ok(token && credential.expiresAt && credential.expiresAt.getTime() > Date.now() + 29 * 24 * 3600 * 1000);
  });

  // Last: it revokes the demo tokens the cell was seeded with.
  it('--keep-demo-tokens reuses the saved demo tokens while they all work, and mints (and saves) new ones once they do not', async () => {
    const file = join(temp, '.workcell', 'demo-tokens.json');
    const seed = async (args: string[]) => {
      const result = await tool('seed.js', ['--json', ...args]);
      assert.equal(result.status, 0, result.stderr);
      return JSON.parse(result.stdout) as { seeded: boolean; kept: boolean; tokens: { personalAccessToken: string } };
    };
    const works = async (token: string) => (await callApi(cell.v1, 'GET', '/v1/auth/context', token)).status;

    const first = await seed(['--keep-demo-tokens', file]);
    assert.deepEqual([first.seeded, first.kept], [false, false], 'nothing saved yet: new tokens');
    assert.equal((await stat(file)).mode & 0o777, 0o600);
    assert.equal((JSON.parse(await readFile(file, 'utf8')) as { personalAccessToken: string }).personalAccessToken, first.tokens.personalAccessToken);

    const second = await seed(['--keep-demo-tokens', file]);
    assert.equal(second.kept, true);
    assert.deepEqual(second.tokens, first.tokens);
    assert.equal(await works(second.tokens.personalAccessToken), 200, 'a login made with them survives the restart');

    const refreshed = await seed(['--refresh-demo-tokens']);
    assert.equal(await works(first.tokens.personalAccessToken), 401, 'a plain start revokes them');
    const third = await seed(['--keep-demo-tokens', file]);
    assert.equal(third.kept, false, 'the saved tokens no longer work: new ones');
    assert.notEqual(third.tokens.personalAccessToken, refreshed.tokens.personalAccessToken);
    assert.equal(await works(third.tokens.personalAccessToken), 200);
    assert.equal((JSON.parse(await readFile(file, 'utf8')) as { personalAccessToken: string }).personalAccessToken, third.tokens.personalAccessToken);
  });
});
