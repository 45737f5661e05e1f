import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { V1_SCOPES } from '@workcell/credentials';
import { useTestEnvironment } from '@workcell/testing';
import { startV1Cell, type V1Cell } from './support/cell.js';

/**
 * The built `workcell` command (tools/cli) as a user runs it, against a running cell: unattended use with a
 * service account, the refusal of a personal token in CI, and the refusal to revoke on logout while
 * WORKCELL_TOKEN is set (contract 5.2 rule 8). Its login and the OS store are tested in tools/cli.
 */

const env = useTestEnvironment();
const BIN = createRequire(import.meta.url).resolve('@workcell/cli/dist/main.js');

describe('the workcell CLI against a running cell', () => {
  let cell: V1Cell;

  beforeAll(async () => {
    cell = await startV1Cell(env);
  });
  afterAll(() => cell?.close());

  /** Runs the CLI as a child process (asynchronously: the services answering it live in this process). */
  const run = (args: string[], extra: Record<string, string>) =>
    new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, [BIN, ...args], { env: { PATH: '/usr/bin:/bin', WORKCELL_BASE_URL: cell.v1.url, ...extra }, encoding: 'utf8', timeout: 30_000 }, (error, stdout, stderr) =>
        resolve({ status: error ? ((error as { code?: unknown }).code as number | null) : 0, stdout, stderr }),
      );
    });

  it('runs unattended (CI) with a service-account credential: calls and lists by operation name', async () => {
    const { token } = await cell.serviceAccount(V1_SCOPES, [{ resourceType: 'tag', resourceId: null, access: 'write' }]);
    const created = await run(['call', 'createTag', '--body', '{"name":"from the cli"}'], { CI: 'true', WORKCELL_TOKEN: token });
    assert.equal(created.status, 0, created.stderr);
    const tag = JSON.parse(created.stdout) as { id: string; name: string };
    assert.equal(tag.name, 'from the cli');
    const listed = await run(['list', 'listTags', '--query', 'limit=1', '--all'], { CI: 'true', WORKCELL_TOKEN: token });
    assert.equal(listed.status, 0, listed.stderr);
    assert.ok(
      listed.stdout
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { id: string }).id)
        .includes(tag.id),
    );
    const whoami = await run(['whoami'], { CI: 'true', WORKCELL_TOKEN: token });
    assert.equal((JSON.parse(whoami.stdout) as { kind: string }).kind, 'service-account');
  });

  it('refuses a personal token in CI, and reports API errors with their code and exit 1', async () => {
    const pat = await cell.mint(['tags:read']);
    const refused = await run(['whoami'], { CI: 'true', WORKCELL_TOKEN: pat });
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /requires a service-account credential/);
    const { token } = await cell.serviceAccount(['tags:read'], []);
    const denied = await run(['call', 'createTag', '--body', '{"name":"x"}'], { CI: 'true', WORKCELL_TOKEN: token });
    assert.equal(denied.status, 1);
    assert.match(denied.stderr, /insufficient_scope/);
  });

  it('refuses to revoke on logout while WORKCELL_TOKEN is set, and leaves the credential working', async () => {
    const { token } = await cell.serviceAccount(['workspace:read'], []);
    const logout = await run(['logout', '--revoke'], { WORKCELL_TOKEN: token });
    assert.equal(logout.status, 2);
    assert.match(logout.stderr, /refusing to revoke/);
    assert.equal((await fetch(`${cell.v1.url}/v1/workspace`, { headers: { authorization: `Bearer ${token}` } })).status, 200);
  });
});
