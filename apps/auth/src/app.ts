import { type DynamicModule, Module } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { AppConfig } from '@workcell/config';
import type { Database } from '@workcell/db';
import { CoreModule, createHttpApplication, createLogger, DATABASE, type Logger } from '@workcell/http';
import { createAuthRouter, mountInternalApi } from '@workcell/internal-api';
import { REGISTRY_DIGEST } from '@workcell/registry';
import { DeviceController } from './device/device.controller.js';
import { InvitationAcceptanceController } from './invitations/acceptance.controller.js';
import { installMethodNotAllowed } from './method-not-allowed.js';
import { AuthProblemFilter } from './problem.filter.js';
import { AccountController } from './sign-in/account.controller.js';
import { SignInController } from './sign-in/sign-in.controller.js';
import { installFormParser } from './sign-in/web.js';

export const SERVICE = 'auth';

/** Root module of the auth service, which owns credentials and serves invitation acceptance (docs/invitations.md), sign-in, the account page and the CLI's device login (docs/authentication.md). */
@Module({})
export class AuthModule {
  static register(config: AppConfig, logger: Logger): DynamicModule {
    return {
      module: AuthModule,
      imports: [CoreModule.forRoot({ config, service: SERVICE, logger })],
      controllers: [InvitationAcceptanceController, SignInController, AccountController, DeviceController],
    };
  }
}

export interface AuthAppOptions {
  /** The registry this cell serves; tests start a cell with another one to prove the API cells notice. */
  readonly registryDigest?: string;
}

export async function createAuthApp(config: AppConfig, logger: Logger = createLogger(config, SERVICE), options: AuthAppOptions = {}): Promise<NestFastifyApplication> {
  const app = await createHttpApplication(AuthModule.register(config, logger), { logger });
  // The sign-in and account pages post plain HTML forms; every other route keeps refusing form bodies (415).
  installFormParser(app.getHttpAdapter().getInstance());
  app.useGlobalFilters(new AuthProblemFilter(logger));
  installMethodNotAllowed(app);
  const database = app.get<Database>(DATABASE);
  const info = { service: SERVICE, region: config.region, cell: config.cell, registryDigest: options.registryDigest ?? REGISTRY_DIGEST };
  await mountInternalApi(app, createAuthRouter(info, { database, config, now: () => new Date() }), config);
  return app;
}
