/**
 * `@workcell/http/testing`: fixtures for tests of the HTTP platform (a captured logger, a test app with its own
 * routes, an app that mounts a stray route). Lint lets only test and benchmark files import it (eslint.config.mjs).
 */
import { Body, Controller, type DynamicModule, Get, Module, Post } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { AppConfig } from '@workcell/config';
import { createHttpApplication } from './bootstrap.js';
import { LegacyOperation } from './operations.js';
import { CoreModule } from './core.module.js';
import { createLogger, type Logger } from './logger.js';

/** Captures a logger's JSON lines in memory so tests can read exactly what would have been printed. */
export function captureLogger(config: AppConfig, service = 'test'): { logger: Logger; lines: () => Record<string, unknown>[]; raw: () => string } {
  const chunks: string[] = [];
  const logger = createLogger({ ...config, logLevel: 'info' }, service, { write: (s: string) => void chunks.push(s) });
  return {
    logger,
    raw: () => chunks.join(''),
    lines: () =>
      chunks
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

let release: () => void = () => undefined;

/** Routes that exist only in the platform's own tests: a request that stays in flight until released. */
@Controller('__test')
class TestController {
  @Get('slow')
  async slow() {
    await new Promise<void>((resolve) => {
      release = resolve;
    });
    return { finished: true };
  }

  @Post('echo')
  echo(@Body() body: unknown) {
    return body;
  }
}

export function releaseSlowRequest(): void {
  release();
}

@Module({})
class TestAppModule {
  static register(config: AppConfig, logger: Logger): DynamicModule {
    return { module: TestAppModule, imports: [CoreModule.forRoot({ config, service: 'test', logger })], controllers: [TestController] };
  }
}

export function createTestApp(config: AppConfig, logger: Logger): Promise<NestFastifyApplication> {
  return createHttpApplication(TestAppModule.register(config, logger), { logger });
}

/** A route that is not a registry operation, mounted by an API app: the app must refuse to start. */
@Controller()
class StrayController {
  @Get('/v1/not-in-the-registry')
  stray() {
    return {};
  }
}

@Module({})
class RefusedApiModule {}

/** A v1 API app of one controller (the fixtures below, which it must refuse to start with). */
function createV1AppOf(controller: new () => object, config: AppConfig, logger: Logger): Promise<NestFastifyApplication> {
  const module: DynamicModule = { module: RefusedApiModule, imports: [CoreModule.forRoot({ config, service: 'test', logger })], controllers: [controller] };
  return createHttpApplication(module, { logger, api: 'v1' });
}

export function createStrayApiApp(config: AppConfig, logger: Logger): Promise<NestFastifyApplication> {
  return createV1AppOf(StrayController, config, logger);
}

/** A v1 app with a handler of a v0 operation: the app must refuse to start (it would never be mounted). */
@Controller()
class MisplacedHandlerController {
  @LegacyOperation('legacyGetTeams')
  teams() {
    return [];
  }
}

export function createMisplacedHandlerApp(config: AppConfig, logger: Logger): Promise<NestFastifyApplication> {
  return createV1AppOf(MisplacedHandlerController, config, logger);
}
