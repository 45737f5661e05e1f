import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { useTestEnvironment } from '@workcell/testing';
import { hostileInput } from './checks/hostile-input.js';
import { SUITE_SETTINGS, finish } from './support/run.js';
import { startWorld, type World } from './support/world.js';

const env = useTestEnvironment();

describe('reliability: hostile input', () => {
  let world: World;
  before(async () => {
    world = await startWorld(env, SUITE_SETTINGS);
  });
  after(() => world?.close());

  it('every operation of both generations refuses hostile input with a 4xx and its error body, writing nothing', async (t) => {
    const ledger = await hostileInput(world);
    finish(t, ledger);
    assert.ok(ledger.requests > 0);
  });
});
