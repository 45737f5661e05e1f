// What the test launchers read of the Jest runs they start: `npm test` (test.mjs) its closing totals,
// `npm run test:reliability` (tools/reliability/run.mjs) each check's summary line. Plain JavaScript on purpose:
// it runs before anything is compiled (types: jest-output.d.mts; tested by tools/e2e/src/jest-output.test.ts).

/** Copies a child's output to `out` as it comes and calls `onLine` with each line once it is complete. */
export function echoLines(stream, onLine, out = process.stdout) {
  let buffered = '';
  stream.on('data', (chunk) => {
    out.write(chunk);
    buffered += chunk.toString('utf8');
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) onLine(line);
  });
}

/**
 * The tests passed and failed over every Jest summary read (`read` each output line; Nx prefixes a project's
 * lines with its name, Jest colours them). A test file that could not run at all (it failed to load) counts as
 * one failure of its project when no test of that project failed.
 */
export class JestTotals {
  passed = 0;
  failed = 0;
  /** Each project's failed test files, by the line prefix Nx gives its output, until its Tests line. */
  #failedSuites = new Map();

  read(raw) {
    // eslint-disable-next-line no-control-regex -- Jest colours its summary
    const line = raw.replace(/\u001b\[[0-9;]*m/g, '');
    const suites = /^(.*)Test Suites:\s+(?:(\d+) failed)?/.exec(line);
    if (suites) this.#failedSuites.set(suites[1], Number(suites[2] ?? 0));
    const tests = /^(.*)Tests:\s+(.*?)\d+ total/.exec(line);
    if (!tests) return;
    const count = (what) => Number(new RegExp(`(\\d+) ${what}`).exec(tests[2])?.[1] ?? 0);
    this.passed += count('passed');
    this.failed += Math.max(count('failed'), this.#failedSuites.get(tests[1]) ?? 0);
    this.#failedSuites.delete(tests[1]);
  }

  /** The closing line of `npm test`: `N passed, N failed`. */
  toString() {
    return `${this.passed} passed, ${this.failed} failed`;
  }
}
