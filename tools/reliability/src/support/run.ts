import assert from 'node:assert/strict';
import type { Ledger } from './ledger.js';

/**
 * The bridge between a check (a plain function returning its Ledger) and the test runner: prints the check's
 * one summary line, and fails with every finding grouped by class. Kept this thin so the checks move to another
 * runner unchanged.
 */

/** Configuration of the services under test: limits high enough that 429s never mask a result. */
export const SUITE_SETTINGS: Record<string, string> = {
  V1_RATE_LIMIT_READ_PER_MINUTE: '1000000',
  V1_RATE_LIMIT_WRITE_PER_MINUTE: '1000000',
};

export function finish(ledger: Ledger): void {
  const summary = ledger.summary();
  // `tools/reliability/run.mjs` collects these lines (`# <check>: N requests, ...`) into its closing summary.
  process.stdout.write(`# ${summary}\n`);
  if (ledger.findings.length > 0) assert.fail(`${ledger.findings.length} findings\n${ledger.report()}`);
}
