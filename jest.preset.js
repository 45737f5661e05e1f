import { fileURLToPath } from 'node:url';

/**
 * The Jest configuration every test project shares (issue 12); each project's jest.config.js names it as its
 * preset. Tests run as tsc compiled them (the `.test.js` files under `dist`, built by the project's `build`, which `test`
 * depends on), so what is tested is what ships and `tsc` keeps type-checking every test.
 *
 * Runner: jest-light-runner in child processes, not Jest's default runner. The default runner evaluates every
 * module in a vm context of its own, so objects made by Node itself (a `fetch` body's JSON, a pg row, a
 * Buffer) have other prototypes than the test's, and node:assert's strict deep equality, which the suites use
 * throughout, fails on equal values (jestjs/jest#2549); its ESM support is also still experimental. The light
 * runner runs the compiled ES modules in plain Node processes with Jest's own circus, expect and reporters.
 */
export default {
  testEnvironment: 'node',
  runner: 'jest-light-runner/child-process',
  roots: ['<rootDir>/dist'],
  testMatch: ['**/*.test.js'],
  moduleFileExtensions: ['js', 'mjs', 'cjs', 'json'],
  transform: {},
  setupFiles: [fileURLToPath(new URL('./jest.setup.js', import.meta.url))],
  // Every test and hook gets a timeout (the light runner has none of its own), and Jest exits when the run is over
  // even if a timed-out test left a handle open: a hang fails one test, never the whole CI run.
  setupFilesAfterEnv: [fileURLToPath(new URL('./jest.timeouts.js', import.meta.url))],
  forceExit: true,
  // Infrastructure modes of the harness (WORKCELL_TEST_REDIS=cluster, WORKCELL_TEST_PG=pgbouncer; docs/scale-out.md).
  globalSetup: fileURLToPath(new URL('./jest.global-setup.js', import.meta.url)),
  globalTeardown: fileURLToPath(new URL('./jest.global-teardown.js', import.meta.url)),
};
