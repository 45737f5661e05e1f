import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApiV0App } from '@workcell/api-v0';
import { ApiV1Module, createApiV1App, SERVICE } from '@workcell/api-v1';
import type { AppConfig } from '@workcell/config';
import { createHttpApplication, createLogger } from '@workcell/http';
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

/**
 * api-v1 with its gate and none of its controllers: every registry operation is an operation without a handler,
 * answering 401/403 from its gate and then 501 `not_implemented`. Every one of the 237 has a handler in the real
 * app now, so this is where that path (and the reference page's marking of it) is still exercised.
 */
export function createBareApiV1App(config: AppConfig): Promise<NestFastifyApplication> {
  const logger = createLogger(config, SERVICE);
  return createHttpApplication({ ...ApiV1Module.register(config, logger), controllers: [] }, { logger, api: 'v1' });
}
