import { type DynamicModule, Module } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { AppConfig } from '@workcell/config';
import { CoreModule, createHttpApplication, createLogger, type Logger } from '@workcell/http';
import { JobsModule } from './jobs.module.js';

export const SERVICE = 'worker';

/** Root module of the worker, which runs the BullMQ queues. */
@Module({})
export class WorkerModule {
  static register(config: AppConfig, logger: Logger): DynamicModule {
    return {
      module: WorkerModule,
      imports: [CoreModule.forRoot({ config, service: SERVICE, logger }), JobsModule],
    };
  }
}

export function createWorkerApp(config: AppConfig, logger: Logger = createLogger(config, SERVICE)): Promise<NestFastifyApplication> {
  return createHttpApplication(WorkerModule.register(config, logger), { logger });
}
