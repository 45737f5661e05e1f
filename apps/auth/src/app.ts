import { type DynamicModule, Module } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { AppConfig } from '@workcell/config';
import { CoreModule, createHttpApplication, createLogger, type Logger } from '@workcell/http';

export const SERVICE = 'auth';

/** Root module of the auth service, which owns credentials. */
@Module({})
export class AuthModule {
  static register(config: AppConfig, logger: Logger): DynamicModule {
    return {
      module: AuthModule,
      imports: [CoreModule.forRoot({ config, service: SERVICE, logger })],
    };
  }
}

export function createAuthApp(config: AppConfig, logger: Logger = createLogger(config, SERVICE)): Promise<NestFastifyApplication> {
  return createHttpApplication(AuthModule.register(config, logger), { logger });
}
