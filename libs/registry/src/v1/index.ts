import type { HttpMethod, OperationDefinition } from '../types.js';
import { absenceOperations } from './absences.js';
import { activityOperations } from './activity.js';
import { appointmentOperations } from './appointments.js';
import { auditOperations } from './audit.js';
import { authOperations } from './auth.js';
import { automationOperations } from './automations.js';
import { availabilityOperations } from './availability.js';
import { callNoteOperations } from './call-notes.js';
import { changeOperations } from './changes.js';
import { commentOperations } from './comments.js';
import { contactGroupOperations } from './contact-groups.js';
import { contactOperations } from './contacts.js';
import { credentialOperations } from './credentials.js';
import { customFieldDefinitionOperations } from './custom-field-definitions.js';
import { customFieldValueOperations } from './custom-field-values.js';
import { documentOperations } from './documents.js';
import { eventOperations } from './events.js';
import { exportOperations } from './exports.js';
import { fileOperations } from './files.js';
import { groupOperations } from './groups.js';
import { integrationOperations } from './integrations.js';
import { invitationOperations } from './invitations.js';
import { listOperations } from './lists.js';
import { memberOperations } from './members.js';
import { metaOperations } from './meta.js';
import { plannedWorkOperations } from './planned-work.js';
import { productGroupOperations } from './product-groups.js';
import { productOperations } from './products.js';
import { projectStatementOperations } from './project-statements.js';
import { projectTemplateOperations } from './project-templates.js';
import { projectOperations } from './projects.js';
import { resourceGrantOperations } from './resource-grants.js';
import { roleOperations } from './roles.js';
import { searchOperations } from './search.js';
import { serviceAccountOperations } from './service-accounts.js';
import { serviceOperations } from './services.js';
import { tagOperations } from './tags.js';
import { taskRecurrenceOperations } from './task-recurrences.js';
import { taskOperations } from './tasks.js';
import { timeEntryOperations } from './time-entries.js';
import { userOperations } from './users.js';
import { webhookOperations } from './webhooks.js';
import { workspaceSettingsOperations } from './workspace-settings.js';
import { workspaceOperations } from './workspace.js';

/** The fixed v1 registry (contract 5.2 rule 7): 237 operations, 235 credential-authenticated. Order = family order. */
export const v1Operations: readonly OperationDefinition[] = Object.freeze([
  ...metaOperations,
  ...authOperations,
  ...workspaceOperations,
  ...workspaceSettingsOperations,
  ...projectOperations,
  ...projectTemplateOperations,
  ...taskOperations,
  ...taskRecurrenceOperations,
  ...timeEntryOperations,
  ...contactOperations,
  ...callNoteOperations,
  ...contactGroupOperations,
  ...userOperations,
  ...listOperations,
  ...serviceOperations,
  ...tagOperations,
  ...customFieldDefinitionOperations,
  ...customFieldValueOperations,
  ...plannedWorkOperations,
  ...appointmentOperations,
  ...absenceOperations,
  ...availabilityOperations,
  ...activityOperations,
  ...commentOperations,
  ...documentOperations,
  ...fileOperations,
  ...productOperations,
  ...productGroupOperations,
  ...projectStatementOperations,
  ...memberOperations,
  ...invitationOperations,
  ...roleOperations,
  ...groupOperations,
  ...searchOperations,
  ...exportOperations,
  ...automationOperations,
  ...integrationOperations,
  ...credentialOperations,
  ...serviceAccountOperations,
  ...resourceGrantOperations,
  ...changeOperations,
  ...eventOperations,
  ...webhookOperations,
  ...auditOperations,
]);

const byId = new Map(v1Operations.map((op) => [op.operationId, op]));
const byRoute = new Map(v1Operations.map((op) => [`${op.method} ${op.path}`, op]));

/** The v1 operation with this operationId, or undefined. */
export function findV1Operation(operationId: string): OperationDefinition | undefined {
  return byId.get(operationId);
}

/** The v1 operation with this operationId; throws for an unknown id. */
export function getV1Operation(operationId: string): OperationDefinition {
  const op = byId.get(operationId);
  if (!op) throw new Error(`Unknown v1 operation: ${operationId}`);
  return op;
}

/** The v1 operation declared for this method and path template (e.g. `GET /v1/tasks/{id}`). */
export function findV1OperationByRoute(method: HttpMethod, pathTemplate: string): OperationDefinition | undefined {
  return byRoute.get(`${method} ${pathTemplate}`);
}
