import assert from 'node:assert/strict';
import { useTestEnvironment } from '@workcell/testing';
import { visibility } from './checks/visibility.js';
import { finish, SUITE_SETTINGS } from './support/run.js';
import { startWorld, type World } from './support/world.js';

const env = useTestEnvironment();

describe('reliability: who may see what', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld(env, SUITE_SETTINGS);
  });
  afterAll(() => world?.close());

  it('every principal kind meets on every path (lists, change feed, webhooks, search, exports, activity) exactly the ids it can GET, and writes only what it may', async () => {
    const ledger = await visibility(world);
    finish(ledger);
    assert.ok(ledger.requests > 1000, `${ledger.requests} requests`);
  });
});
