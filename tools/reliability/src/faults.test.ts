import { useTestEnvironment } from '@workcell/testing';
import { faults } from './checks/faults.js';
import { type FaultyPlatform, startFaultyPlatform } from './support/faulty-platform.js';
import { finish, SUITE_SETTINGS } from './support/run.js';

const env = useTestEnvironment();

describe('reliability: dependency faults', () => {
  let platform: FaultyPlatform;
  beforeAll(async () => {
    platform = await startFaultyPlatform(env, SUITE_SETTINGS, 1000);
  });
  afterAll(() => platform?.close());

  it('PostgreSQL, Redis and the auth service cut and black-holed, PostgreSQL refusing sessions (53300), Redis loading or failed over (READONLY), PostgreSQL and Redis slow, mid-load: 503 with Retry-After in time, recovery, no acknowledged write lost', async () => {
    finish(await faults(platform));
  });
});
