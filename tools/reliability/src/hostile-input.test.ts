import assert from 'node:assert/strict';
import { v0Operations, v1Operations } from '@workcell/registry';
import { useTestEnvironment } from '@workcell/testing';
import { hostileInput } from './checks/hostile-input.js';
import { SUITE_SETTINGS, finish } from './support/run.js';
import { startWorld, type World } from './support/world.js';

const env = useTestEnvironment();

describe('reliability: hostile input', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld(env, SUITE_SETTINGS);
  });
  afterAll(() => world?.close());

  it('every operation of both generations refuses hostile input with a 4xx and its error body, writing nothing', async () => {
    const ledger = await hostileInput(world);
    // Every operation of the registry was probed, the unimplemented v1 ones included.
    assert.equal(ledger.counters.get('operations'), v1Operations.length + v0Operations.length);
    finish(ledger);
  });
});
