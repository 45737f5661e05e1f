import { type DynamicModule, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import type { AppConfig } from '@workcell/config';
import { createDatabase, type Database } from '@workcell/db';
import { createRedis, pingRedis, type Redis } from '@workcell/redis';
import { HealthController, Readiness } from './health.controller.js';
import type { Logger } from './logger.js';
import type { ProcedureContext } from '@workcell/domain';
import { APP_CONFIG, DATABASE, LOGGER, PROCEDURE_CONTEXT, REDIS, SERVICE_NAME } from './tokens.js';

export interface CoreModuleOptions {
  readonly config: AppConfig;
  readonly service: string;
  readonly logger: Logger;
}

/**
 * What every service has: its validated config, its logger, one PostgreSQL pool, one Redis connection,
 * and /healthz + /readyz. Connections close after the HTTP server has drained (onApplicationShutdown runs
 * after Nest stops the server), so in-flight requests keep their database until they finish.
 */
@Module({})
export class CoreModule implements OnApplicationShutdown {
  constructor(
    @Inject(DATABASE) private readonly database: Database,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  static forRoot(options: CoreModuleOptions): DynamicModule {
    const { config, service, logger } = options;
    return {
      module: CoreModule,
      global: true,
      controllers: [HealthController],
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: LOGGER, useValue: logger },
        { provide: SERVICE_NAME, useValue: service },
        { provide: DATABASE, useFactory: () => createDatabase(config, { service }) },
        { provide: REDIS, useFactory: () => createRedis(config, service) },
        {
          provide: PROCEDURE_CONTEXT,
          inject: [DATABASE],
          useFactory: (database: Database): ProcedureContext => ({ database, config, now: () => new Date() }),
        },
        {
          provide: Readiness,
          inject: [DATABASE, REDIS],
          useFactory: (database: Database, redis: Redis) =>
            new Readiness([
              { name: 'database', check: () => database.ping() },
              { name: 'redis', check: () => pingRedis(redis, config.dependencyTimeoutMs) },
            ]),
        },
      ],
      exports: [APP_CONFIG, SERVICE_NAME, LOGGER, DATABASE, REDIS, PROCEDURE_CONTEXT, Readiness],
    };
  }

  async onApplicationShutdown() {
    this.redis.disconnect();
    await this.database.close();
  }
}
