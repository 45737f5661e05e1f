import { useTestEnvironment } from '@workcell/testing';
import { races } from './checks/races.js';
import { finish, SUITE_SETTINGS } from './support/run.js';
import { startWorld, type World } from './support/world.js';

const env = useTestEnvironment();

describe('reliability: races', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld(env, SUITE_SETTINGS);
  });
  afterAll(() => world?.close());

  it('If-Match writers have one winner, idempotent POSTs create once, concurrent v0 PUTs all succeed', async () => {
    finish(await races(world));
  });
});
