import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Packing a client the way someone outside the repository gets it (issue 15), and running what they would run:
 * `npm pack`, then commands in an empty folder, with the machine's own npm setup.
 */
export const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
export const BIN = join(ROOT, 'node_modules/.bin');

/** The environment of a child npm: this run's own npm_* variables (workspace, lifecycle, package) left out. */
const KEPT_NPM = new Set(['npm_config_cache', 'npm_config_userconfig', 'npm_config_registry']);
export const childEnv = (extra: Record<string, string> = {}) => ({
  // eslint-disable-next-line no-restricted-properties -- npm needs the machine's own setup (HOME, PATH, its cache), not a service's configuration
  ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('npm_') || KEPT_NPM.has(key))),
  ...extra,
});

export interface RunResult {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command asynchronously (the cell answering it lives in this process). */
export const run = (file: string, args: readonly string[], cwd: string, extra: Record<string, string> = {}, input?: string) =>
  new Promise<RunResult>((resolve) => {
    const child = execFile(file, args, { cwd, env: childEnv(extra), encoding: 'utf8', timeout: 90_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ status: error ? Number((error as { code?: unknown }).code ?? 1) || 1 : 0, stdout, stderr }),
    );
    child.stdin?.end(input ?? '');
  });

/** `npm pack` of a workspace package into `destination`: the tarball's path and the files it holds. */
export async function pack(packageDir: string, destination: string): Promise<{ tarball: string; files: string[] }> {
  const packed = await run('npm', ['pack', '--json', '--pack-destination', destination], packageDir);
  assert.equal(packed.status, 0, packed.stderr);
  const [info] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
  const files = info!.files.map((file) => file.path);
  assert.deepEqual(
    files.filter((path) => path.startsWith('src/') || path.includes('.test.') || path.endsWith('.map')),
    [],
    'built JavaScript only',
  );
  return { tarball: join(destination, info!.filename), files };
}

/** A local port nothing listens on (one just released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
