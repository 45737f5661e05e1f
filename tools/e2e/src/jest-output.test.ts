import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { finished } from 'node:stream/promises';
// eslint-disable-next-line @nx/enforce-module-boundaries -- tools/start is no project: its launchers are plain JavaScript that runs before any build
import { echoLines, JestTotals } from '../../start/jest-output.mjs';

/**
 * tools/start/jest-output.mjs: how `npm test` (tools/start/test.mjs) turns the Jest summaries of every project
 * into its closing line `N passed, N failed`, and how both launchers (test.mjs, tools/reliability/run.mjs) read
 * their child's output line by line while passing it through.
 */

const totalsOf = (lines: string[]) => {
  const totals = new JestTotals();
  for (const line of lines) totals.read(line);
  return totals;
};

describe('npm test totals (tools/start/jest-output.mjs)', () => {
  it('sums the passed and failed tests of every project, whatever Nx prefixes its lines with', () => {
    const totals = totalsOf([
      '> nx run @workcell/config:test',
      '@workcell/config:test: Test Suites: 2 passed, 2 total',
      '@workcell/config:test: Tests:       10 passed, 10 total',
      '@workcell/e2e: Test Suites: 1 failed, 40 passed, 41 total',
      '@workcell/e2e: Tests:       2 failed, 1 skipped, 300 passed, 303 total',
      'Test Suites: 1 passed, 1 total',
      'Tests:       4 passed, 4 total',
      'Snapshots:   0 total',
    ]);
    assert.equal(totals.passed, 314);
    assert.equal(totals.failed, 2);
    assert.equal(String(totals), '314 passed, 2 failed');
  });

  it('reads the summary through Jest’s colours', () => {
    const totals = totalsOf([
      '\u001b[1mTest Suites: \u001b[22m\u001b[1m\u001b[31m1 failed\u001b[39m\u001b[22m, \u001b[1m\u001b[32m2 passed\u001b[39m\u001b[22m, 3 total',
      '\u001b[1mTests:       \u001b[22m\u001b[1m\u001b[31m1 failed\u001b[39m\u001b[22m, \u001b[1m\u001b[32m5 passed\u001b[39m\u001b[22m, 6 total',
    ]);
    assert.equal(String(totals), '5 passed, 1 failed');
  });

  it('counts a test file that could not run as a failure of its project when none of its tests failed', () => {
    assert.equal(String(totalsOf(['p: Test Suites: 1 failed, 3 passed, 4 total', 'p: Tests:       20 passed, 20 total'])), '20 passed, 1 failed');
    // Failed tests count as they are when they are more than the failed files.
    assert.equal(String(totalsOf(['p: Test Suites: 1 failed, 3 passed, 4 total', 'p: Tests:       3 failed, 17 passed, 20 total'])), '17 passed, 3 failed');
  });

  it('keeps a project’s failed test files to that project', () => {
    const totals = totalsOf([
      'a: Test Suites: 1 failed, 1 total',
      'b: Test Suites: 2 passed, 2 total',
      'b: Tests:       7 passed, 7 total',
      'a: Tests:       0 total',
      'c: Tests:       1 passed, 1 total',
    ]);
    assert.equal(String(totals), '8 passed, 1 failed');
  });

  it('is 0 passed, 0 failed before any summary', () => {
    assert.equal(String(totalsOf(['> nx run-many -t test', 'PASS dist/a.test.js'])), '0 passed, 0 failed');
  });
});

describe('launcher output (echoLines)', () => {
  it('passes every chunk through and reports each line once it is complete', async () => {
    const stream = new PassThrough();
    const written: string[] = [];
    const lines: string[] = [];
    echoLines(stream, (line) => lines.push(line), { write: (chunk: string | Uint8Array) => written.push(String(chunk)) > 0 });
    for (const chunk of ['Tests: 1 pa', 'ssed, 1 total\nSnap', 'shots: 0 total\n\n', 'Time: 1 s']) stream.write(chunk);
    stream.end();
    await finished(stream);
    assert.deepEqual(lines, ['Tests: 1 passed, 1 total', 'Snapshots: 0 total', '']);
    assert.equal(written.join(''), 'Tests: 1 passed, 1 total\nSnapshots: 0 total\n\nTime: 1 s');
  });
});
