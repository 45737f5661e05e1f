import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { testConfig } from '@workcell/testing';
import { COVERAGE_DIRECTORY, measureCoverage, renderCoverage } from './coverage.js';

describe('operation coverage report', () => {
  it('is current (regenerate with `npx nx run @workcell/coverage:generate`)', async () => {
    const files = renderCoverage(await measureCoverage(testConfig()));
    assert.equal(readFileSync(new URL('coverage.json', COVERAGE_DIRECTORY), 'utf8'), files.json);
    assert.equal(readFileSync(new URL('coverage.md', COVERAGE_DIRECTORY), 'utf8'), files.markdown);
  });

  it('accounts for every operation of both generations', async () => {
    const coverage = await measureCoverage(testConfig());
    assert.equal(coverage.v1.implemented.length + coverage.v1.notImplemented.length, 237);
    assert.equal(coverage.v0.implemented.length + coverage.v0.notImplemented.length, 87);
  });
});
