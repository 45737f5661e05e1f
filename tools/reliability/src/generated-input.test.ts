import assert from 'node:assert/strict';
import { v0Operations, v1Operations } from '@workcell/registry';
import { useTestEnvironment } from '@workcell/testing';
import { DEFAULT_SEED, generatedInput } from './checks/generated-input.js';
import { SUITE_SETTINGS, finish } from './support/run.js';
import { startWorld, type World } from './support/world.js';

const env = useTestEnvironment();
// The suite's own knobs, not a service's configuration: RELIABILITY_SEED reproduces a run (its summary line names
// the seed), RELIABILITY_RUNS multiplies the runs per operation (a longer hunt), RELIABILITY_RECORD=1 appends the
// run's shrunk counterexamples to src/regressions/generated-input.json, RELIABILITY_ONLY=<regex> runs the matching
// operations only (`v1 createTag`).
// eslint-disable-next-line no-restricted-properties
const { RELIABILITY_SEED: seed, RELIABILITY_RUNS: runs, RELIABILITY_RECORD: record, RELIABILITY_ONLY: only } = process.env;

describe('reliability: generated valid input', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld(env, SUITE_SETTINGS);
  });
  afterAll(() => world?.close());

  it('every operation of both generations answers schema-valid input drawn at its boundaries with a 2xx it documents or a 4xx with its error body, and refused requests write nothing', async () => {
    const ledger = await generatedInput(world, {
      seed: seed ? Number(seed) : DEFAULT_SEED,
      runs: runs ? Number(runs) : 1,
      record: record === '1',
      ...(only ? { only: (name: string) => new RegExp(only).test(name) } : {}),
    });
    // Every operation of the registry was exercised, the unimplemented v1 ones included.
    if (!only) assert.equal(ledger.counters.get('operations'), v1Operations.length + v0Operations.length);
    finish(ledger);
  });
});
