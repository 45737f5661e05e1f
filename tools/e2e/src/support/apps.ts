import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApiV0App } from '@workcell/api-v0';
import { createApiV1App } from '@workcell/api-v1';
import { type RunningApp, startApp, type TestEnvironment } from '@workcell/testing';
import { fixtureValue } from './cell.js';

export interface ApiApps {
  readonly v1: RunningApp<NestFastifyApplication>;
  readonly v0: RunningApp<NestFastifyApplication>;
}

/**
 * api-v1 and api-v0 alone on the file's environment (no auth service, worker or seed: what needs no credential),
 * started in a beforeAll and closed in an afterAll registered where useApiApps is called; available inside tests
 * and hooks.
 */
export function useApiApps(env: TestEnvironment): ApiApps {
  let apps: ApiApps | undefined;
  beforeAll(async () => {
    apps = { v1: await startApp(createApiV1App, env.config), v0: await startApp(createApiV0App, env.config) };
  });
  afterAll(async () => {
    await apps?.v1.close();
    await apps?.v0.close();
  });
  return {
    get v1() {
      return fixtureValue('useApiApps()', apps).v1;
    },
    get v0() {
      return fixtureValue('useApiApps()', apps).v0;
    },
  };
}
