import { type DynamicModule, Module } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { AppConfig } from '@workcell/config';
import { CoreModule, createHttpApplication, createLogger, type Logger } from '@workcell/http';

export const SERVICE = 'api-v0';

/** Root module of the frozen v0 (0.4.5) legacy API. */
@Module({})
export class ApiV0Module {
  static register(config: AppConfig, logger: Logger): DynamicModule {
    return {
      module: ApiV0Module,
      imports: [CoreModule.forRoot({ config, service: SERVICE, logger })],
    };
  }
}

export function createApiV0App(config: AppConfig, logger: Logger = createLogger(config, SERVICE)): Promise<NestFastifyApplication> {
  return createHttpApplication(ApiV0Module.register(config, logger), { logger });
}
