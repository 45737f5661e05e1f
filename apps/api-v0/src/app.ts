import { type DynamicModule, Module } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { AppConfig } from '@workcell/config';
import { CoreModule, createHttpApplication, createLogger, type Logger, servedOpenApiDocument } from '@workcell/http';
import { RegistryAgreementModule } from '@workcell/internal-api';
import { ApiAuthModule } from '@workcell/auth-kit';
import { DiscoveryController } from './meta/discovery.controller.js';
import { TeamsController } from './teams/teams.controller.js';
import { CalendarController } from './calendar/calendar.controller.js';
import { TasksController } from './tasks/tasks.controller.js';
import { ProjectsController } from './projects/projects.controller.js';
import { ContactsController } from './contacts/contacts.controller.js';
import { ProjectTemplatesController } from './project-templates/project-templates.controller.js';
import { ScheduledWorkController } from './planned-work/scheduled-work.controller.js';
import { ListsController } from './lists/lists.controller.js';
import { TagsController } from './tags/tags.controller.js';
import { TimesController } from './times/times.controller.js';
import { UsersController } from './users/users.controller.js';
import { WebhooksController } from './webhooks/webhooks.controller.js';
import { JournalEntriesController } from './project-statements/journal-entries.controller.js';
import { ServicesController } from './services/services.controller.js';

import { ProductsController } from './products/products.controller.js';

export const SERVICE = 'api-v0';

/** Root module of the frozen v0 (0.4.5) legacy API. */
@Module({})
export class ApiV0Module {
  static register(config: AppConfig, logger: Logger): DynamicModule {
    return {
      module: ApiV0Module,
      imports: [CoreModule.forRoot({ config, service: SERVICE, logger }), RegistryAgreementModule, ApiAuthModule.forApi('v0')],
      controllers: [
        DiscoveryController,
        TeamsController,
        CalendarController,
        TasksController,
        ProjectsController,
        ContactsController,
        ProjectTemplatesController,
        ScheduledWorkController,
        ListsController,
        TagsController,
        TimesController,
        UsersController,
        WebhooksController,
        JournalEntriesController,
        ServicesController,
        ProductsController,
      ],
    };
  }
}

/**
 * v0 is served from both configured base addresses with identical behaviour (contract 9.2). Both normally
 * differ only by host, which one listener serves; when one (V0_BASE_URL or V0_BASE_URL_ALT) carries a path,
 * e.g. http://host:3000/legacy, every request under that path is routed as the same request without it, so
 * /legacy/tasks is /tasks. Requests without the prefix keep working: the other address may have none.
 */
export function v0PathPrefixes(config: AppConfig): string[] {
  const prefixes = [config.baseUrls.v0, config.baseUrls.v0Alt].map((base) => new URL(base).pathname.replace(/\/+$/, ''));
  return [...new Set(prefixes.filter((prefix) => prefix !== ''))].sort((a, b) => b.length - a.length);
}

export function stripV0Prefix(prefixes: readonly string[], url: string): string {
  for (const prefix of prefixes) {
    if (url === prefix) return '/';
    const next = url.charAt(prefix.length);
    if (url.startsWith(prefix) && (next === '/' || next === '?')) return next === '?' ? `/${url.slice(prefix.length)}` : url.slice(prefix.length);
  }
  return url;
}

export async function createApiV0App(config: AppConfig, logger: Logger = createLogger(config, SERVICE)): Promise<NestFastifyApplication> {
  const prefixes = v0PathPrefixes(config);
  const app = await createHttpApplication(ApiV0Module.register(config, logger), {
    logger,
    api: 'v0',
    ...(prefixes.length === 0 ? {} : { rewriteUrl: (url: string) => stripV0Prefix(prefixes, url) }),
  });
  // The frozen v0 document; not a v0 operation itself (v0 has no such route), so it is an infrastructure route.
  app
    .getHttpAdapter()
    .getInstance()
    .get('/openapi.json', async (request, reply) => {
      return servedOpenApiDocument('v0').send(request, reply.header('cache-control', 'public, max-age=300'), 'application/json; charset=utf-8');
    });
  return app;
}
