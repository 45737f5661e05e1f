import assert from 'node:assert/strict';
import { useTestEnvironment } from '@workcell/testing';
import { tenantIsolation } from './checks/tenant-isolation.js';
import { finish, SUITE_SETTINGS } from './support/run.js';
import { startWorld, type World } from './support/world.js';

const env = useTestEnvironment();

describe('reliability: tenant isolation', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld(env, SUITE_SETTINGS);
  });
  afterAll(() => world?.close());

  it('another workspace’s v1 PAT, v1 service account and v0 team token get 404 on every id of this one and change nothing', async () => {
    const ledger = await tenantIsolation(world);
    finish(ledger);
    assert.ok(ledger.requests > 300, `${ledger.requests} requests`);
  });
});
