import { type DynamicModule, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { AppConfig } from '@workcell/config';
import type { ProcedureContext } from '@workcell/domain';
import { CoreModule, createHttpApplication, createLogger, type Logger, PROCEDURE_CONTEXT } from '@workcell/http';
import { RegistryAgreementModule } from '@workcell/internal-api';
import { ApiAuthModule } from '@workcell/auth-kit';
import { MetaController } from './meta/meta.controller.js';
import { AuthContextController } from './auth/auth-context.controller.js';
import { WorkspaceController } from './workspace/workspace.controller.js';
import { ServedOperations } from './workspace/served-operations.js';
import { AuditController } from './audit/audit.controller.js';
import { CredentialsController } from './credentials/credentials.controller.js';
import { ServiceAccountsController } from './service-accounts/service-accounts.controller.js';
import { MembersController } from './members/members.controller.js';
import { RolesController } from './roles/roles.controller.js';
import { GroupsController } from './groups/groups.controller.js';
import { ContactsController } from './contacts/contacts.controller.js';
import { ContactGroupsController } from './contact-groups/contact-groups.controller.js';
import { CallNotesController } from './call-notes/call-notes.controller.js';
import { ProjectsController } from './projects/projects.controller.js';
import { ProjectLifecycleController } from './projects/project-lifecycle.controller.js';
import { ProjectSharingController } from './projects/project-sharing.controller.js';
import { TasksController } from './tasks/tasks.controller.js';
import { TagsController } from './tags/tags.controller.js';
import { ListsController } from './lists/lists.controller.js';
import { TimeEntriesController } from './time-entries/time-entries.controller.js';
import { ProjectTemplatesController } from './project-templates/project-templates.controller.js';
import { PlannedWorkController } from './planned-work/planned-work.controller.js';
import { UsersController } from './users/users.controller.js';

import { ProductsController } from './products/products.controller.js';
import { DocumentsController } from './documents/documents.controller.js';
import { AbsencesController } from './scheduling/absences.controller.js';
import { AppointmentsController } from './scheduling/appointments.controller.js';
import { AvailabilityController } from './scheduling/availability.controller.js';
import { ExportsController } from './exports/exports.controller.js';
import { IntegrationsController } from './integrations/integrations.controller.js';
import { SearchController } from './search/search.controller.js';
import { CustomFieldDefinitionsController } from './custom-fields/custom-field-definitions.controller.js';
import { CustomFieldValuesController } from './custom-fields/custom-field-values.controller.js';
import { FilesController } from './files/files.controller.js';
import { installFileTransfers } from './files/file-transfers.js';
import { InvitationsController } from './invitations/invitations.controller.js';
import { TaskRecurrencesController } from './task-recurrences/task-recurrences.controller.js';
import { AutomationsController } from './automations/automations.controller.js';
import { ProductGroupsController } from './product-groups/product-groups.controller.js';

import { ProjectStatementsController } from './project-statements/project-statements.controller.js';
import { ServicesController } from './services/services.controller.js';
import { ChangesController } from './changes/changes.controller.js';
import { ChangeWaits } from './changes/change-waits.js';
import { WebhooksController } from './webhooks/webhooks.controller.js';
import { CommentsController } from './comments/comments.controller.js';
import { ActivityController } from './activity/activity.controller.js';

export { ChangeWaits, MAX_CHANGE_WAITERS } from './changes/change-waits.js';

export const SERVICE = 'api-v1';

/** Root module of the v1 API. */
@Module({})
export class ApiV1Module {
  static register(config: AppConfig, logger: Logger): DynamicModule {
    return {
      module: ApiV1Module,
      imports: [CoreModule.forRoot({ config, service: SERVICE, logger }), RegistryAgreementModule, ApiAuthModule.forApi('v1'), DiscoveryModule],
      providers: [ServedOperations, ChangeWaits],
      controllers: [
        MetaController,
        AuthContextController,
        WorkspaceController,
        AuditController,
        CredentialsController,
        ServiceAccountsController,
        MembersController,
        RolesController,
        GroupsController,
        ContactsController,
        ContactGroupsController,
        CallNotesController,
        ProjectsController,
        ProjectLifecycleController,
        ProjectSharingController,
        TasksController,
        TagsController,
        ListsController,
        TimeEntriesController,
        ProjectStatementsController,
        ServicesController,
        ProjectTemplatesController,
        PlannedWorkController,
        UsersController,
        ProductsController,
        ProductGroupsController,
        DocumentsController,
        InvitationsController,
        CustomFieldDefinitionsController,
        CustomFieldValuesController,
        FilesController,
        TaskRecurrencesController,
        AppointmentsController,
        AbsencesController,
        AvailabilityController,
        SearchController,
        IntegrationsController,
        ExportsController,
        ChangesController,
        WebhooksController,
        CommentsController,
        ActivityController,
        AutomationsController,
      ],
    };
  }
}

export async function createApiV1App(config: AppConfig, logger: Logger = createLogger(config, SERVICE)): Promise<NestFastifyApplication> {
  const app = await createHttpApplication(ApiV1Module.register(config, logger), { logger, api: 'v1' });
  await installFileTransfers(app.getHttpAdapter().getInstance(), app.get<ProcedureContext>(PROCEDURE_CONTEXT), logger);
  return app;
}
