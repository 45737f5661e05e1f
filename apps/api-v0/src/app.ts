import { type DynamicModule, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { AppConfig } from '@workcell/config';
import { CoreModule, createHttpApplication, createLogger, type Logger } from '@workcell/http';
import { RegistryAgreementModule } from '@workcell/internal-api';
import { ApiAuthModule } from '@workcell/auth-kit';
import { openApiDocument } from '@workcell/registry';
import { DiscoveryController } from './meta/discovery.controller.js';
import { TeamsController } from './teams/teams.controller.js';
import { CalendarController } from './calendar/calendar.controller.js';
import { DeprecationInterceptor, UnavailableGuard } from './legacy/deprecation.js';
import { UnavailableController } from './legacy/unavailable.controller.js';
import { TasksController } from './tasks/tasks.controller.js';
import { ProjectsController } from './projects/projects.controller.js';
import { ContactsController } from './contacts/contacts.controller.js';

export const SERVICE = 'api-v0';

/** Root module of the frozen v0 (0.4.5) legacy API. */
@Module({})
export class ApiV0Module {
  static register(config: AppConfig, logger: Logger): DynamicModule {
    return {
      module: ApiV0Module,
      imports: [CoreModule.forRoot({ config, service: SERVICE, logger }), RegistryAgreementModule, ApiAuthModule.forApi('v0')],
      controllers: [DiscoveryController, TeamsController, CalendarController, TasksController, ProjectsController, ContactsController, UnavailableController],
      providers: [UnavailableGuard, { provide: APP_INTERCEPTOR, useClass: DeprecationInterceptor }],
    };
  }
}

export async function createApiV0App(config: AppConfig, logger: Logger = createLogger(config, SERVICE)): Promise<NestFastifyApplication> {
  const app = await createHttpApplication(ApiV0Module.register(config, logger), { logger, api: 'v0' });
  // The frozen v0 document; not a v0 operation itself (v0 has no such route), so it is an infrastructure route.
  app.getHttpAdapter().getInstance().get('/openapi.json', async (_request, reply) => {
    const document = openApiDocument('v0');
    return reply.header('etag', document.etag).header('cache-control', 'public, max-age=300').type('application/json; charset=utf-8').send(document.text);
  });
  return app;
}
