import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CHECK = fileURLToPath(new URL('./keyring-check.js', import.meta.url));
const has = (command: string) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;

// Skipped, and said so, where the machine lacks them (Debian: dbus, gnome-keyring; .ci/run installs them).
const secretService = has('dbus-run-session') && has('gnome-keyring-daemon');
if (!secretService) console.warn('keyring check skipped: dbus-run-session or gnome-keyring-daemon is not installed');

describe('the OS credential store (Secret Service through GNOME keyring)', () => {
  (secretService ? it : it.skip)('stores, reads back and deletes a login', () => {
    // A private session bus and a fresh, unlocked keyring: nothing of the machine's own store is touched.
    const home = mkdtempSync(join(tmpdir(), 'workcell-keyring-'));
    try {
      const script = `eval "$(printf 'test-password' | gnome-keyring-daemon --daemonize --unlock --components=secrets)"; export GNOME_KEYRING_CONTROL; "${process.execPath}" "${CHECK}"`;
      const run = spawnSync('dbus-run-session', ['--', 'sh', '-c', script], {
        env: { PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', HOME: home, XDG_DATA_HOME: join(home, 'data'), XDG_RUNTIME_DIR: home },
        encoding: 'utf8',
        timeout: 30_000,
      });
      assert.equal(run.status, 0, run.stderr);
      const line = run.stdout.trim().split('\n').at(-1) ?? '';
      assert.deepEqual(JSON.parse(line), { read: { credential: 'svc_pat_v2_eu1_c1_example', baseUrl: 'https://api.test' }, deleted: true, after: null });
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});

describe('the OS credential store where there is none', () => {
  it("fails with one sentence (CredentialStoreUnavailable), never the keyring's backtrace", () => {
    const store = fileURLToPath(new URL('./store.js', import.meta.url));
    const script = `import { osCredentialStore, CredentialStoreUnavailable } from ${JSON.stringify(store)};
      try { await osCredentialStore().set('probe', { credential: 'x', baseUrl: 'y' }); console.log(JSON.stringify({ stored: true })); }
      catch (error) { console.log(JSON.stringify({ unavailable: error instanceof CredentialStoreUnavailable, message: error.message })); }`;
    // No session bus: the Secret Service cannot be reached, as on a server or in a container.
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { env: { PATH: '/usr/bin:/bin', HOME: tmpdir() }, encoding: 'utf8', timeout: 30_000 });
    assert.equal(run.status, 0, run.stderr);
    const result = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { unavailable?: boolean; message?: string; stored?: boolean };
    assert.equal(result.unavailable, true, run.stdout);
    assert.doesNotMatch(result.message!, /\n|backtrace/i);
  });
});
