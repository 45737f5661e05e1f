import { type DynamicModule, Module } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { AppConfig } from '@workcell/config';
import { CoreModule, createHttpApplication, createLogger, type Logger } from '@workcell/http';
import { createWorkerRouter, mountInternalApi } from '@workcell/internal-api';
import { REGISTRY_DIGEST } from '@workcell/registry';
import { JobsModule } from './jobs.module.js';

// Tests reach a running worker's deliveries through it (app.get(QueueRuntime)).
export { QueueRuntime } from './jobs.module.js';

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

export interface WorkerAppOptions {
  /** The registry this cell serves; tests start a cell with another one to prove the API cells notice. */
  readonly registryDigest?: string;
}

export async function createWorkerApp(config: AppConfig, logger: Logger = createLogger(config, SERVICE), options: WorkerAppOptions = {}): Promise<NestFastifyApplication> {
  const app = await createHttpApplication(WorkerModule.register(config, logger), { logger });
  const info = { service: SERVICE, region: config.region, cell: config.cell, registryDigest: options.registryDigest ?? REGISTRY_DIGEST };
  await mountInternalApi(app, createWorkerRouter(info), config);
  return app;
}
