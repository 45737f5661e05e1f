export * from './types.js';
export * from './scopes.js';
export * from './schemas/common.js';
export * from './schemas/legacy.js';
export * from './rows.js';
export { titleFor } from './http-status.js';
export { v1Operations, getV1Operation, findV1Operation, findV1OperationByRoute } from './v1/index.js';
export { v0Operations, findV0Operation } from './v0/index.js';
export { defineOperation, family, archivableCrud } from './v1/builders.js';
export { V0_DEPRECATED_AT } from './v0/builders.js';
export type { OperationSpec, ArchivableCrudSpec } from './v1/builders.js';
// The document attributes and bounds the domain validates with (one source with the OpenAPI document).
export { DOCUMENT_MAX_BODY_BYTES, DOCUMENT_MAX_CONTENT_CHARS, DocumentCreate, DocumentUpdate } from './v1/documents.js';
export { AppointmentCreate, AppointmentUpdate } from './v1/appointments.js';
export { AbsenceStatus, MemberAbsenceCreate, MemberAbsenceUpdate } from './v1/absences.js';
export { EXPORT_MAX_ROWS, EXPORT_MEDIA_TYPES, EXPORT_RESULT_TTL_SECONDS, ExportCreate } from './v1/exports.js';
export { CUSTOM_FIELD_TEXT_MAX_CHARS, CustomFieldDefinitionCreate, CustomFieldDefinitionUpdate, CustomFieldOption, CustomFieldType } from './v1/custom-field-definitions.js';
export { CustomFieldValuesUpdate } from './v1/custom-field-values.js';
export { FILE_MAX_BYTES, FILE_STATUSES, FileUpdate, FileUploadIntentCreate } from './v1/files.js';
export { InvitationCreate } from './v1/invitations.js';
export { RecurrenceRule, TaskRecurrenceCreate, TaskRecurrenceEvent, TaskRecurrencePreviewRequest, TaskRecurrenceUpdate } from './v1/task-recurrences.js';
export { AutomationDefinitionCreate, AutomationDefinitionUpdate, AutomationPublish } from './v1/automations.js';
export { DOMAIN_READ_SCOPES, RESOURCE_DOMAINS, ResourceDomainSchema } from './v1/search.js';
export type { ResourceDomain } from './v1/search.js';
export { WEBHOOK_DISABLED_REASONS, WEBHOOK_FAILURE_REASONS, WEBHOOK_URL_RULE } from './v1/webhooks.js';
// The request bodies the domain procedures take their fields from (one declaration for the OpenAPI document, the
// edge and the domain's own validation).
export { CallNoteCreate, CallNoteUpdate } from './v1/call-notes.js';
export { ContactGroupCreate, ContactGroupUpdate } from './v1/contact-groups.js';
export { ContactCreate, ContactUpdate, PostalAddress } from './v1/contacts.js';
export { CredentialRotate, PersonalAccessTokenCreate, ScopeList } from './v1/credentials.js';
export { GroupCreate, GroupMembersReplace, GroupUpdate } from './v1/groups.js';
export { ListCreate, ListUpdate } from './v1/lists.js';
export { MemberUpdate } from './v1/members.js';
export { ProductGroupCreate, ProductGroupUpdate } from './v1/product-groups.js';
export { ProductCreate, ProductUpdate } from './v1/products.js';
export { ProjectStatementCreate, ProjectStatementUpdate } from './v1/project-statements.js';
export { ProjectTemplateCreate, ProjectTemplateInstantiation, ProjectTemplateUpdate, TaskBlueprint } from './v1/project-templates.js';
export { ProjectCreate, ProjectSharingReplace, ProjectUpdate } from './v1/projects.js';
export { GRANT_RESOURCE_TYPES, ResourceGrantsReplace } from './v1/resource-grants.js';
export type { GrantResourceTypeName } from './v1/resource-grants.js';
export { RoleCreate, RolePermissionsReplace, RoleUpdate } from './v1/roles.js';
export { ServiceAccountCreate, ServiceAccountCredentialCreate, ServiceAccountUpdate } from './v1/service-accounts.js';
export { ServiceBillingRatesReplace, ServiceCreate, ServiceUpdate } from './v1/services.js';
export { TagCreate, TagUpdate } from './v1/tags.js';
export { TaskCreate, TaskMove, TaskTimerStart, TaskUpdate } from './v1/tasks.js';
export { TaskPlannedWorkReplace } from './v1/planned-work.js';
export { WebhookCreate, WebhookUpdate, WEBHOOK_PREVIOUS_SECRET_DEFAULT_SECONDS, WEBHOOK_RECOVERY_DAYS } from './v1/webhooks.js';
export { WorkspaceSettingsUpdate } from './v1/workspace-settings.js';
export { MAX_DURATION_SECONDS, TimeEntryBillingSet, TimeEntryCreate, TimeEntryUpdate } from './v1/time-entries.js';
export * from './generated/operation-table.js';

import { v0Operations } from './v0/index.js';
import { v1Operations } from './v1/index.js';
import { registryDigest, toV0Row, toV1Row } from './rows.js';

/** Digest of the registry as built from the TypeScript source (compare with REGISTRY_DIGEST). */
export function computeRegistryDigest(): string {
  return registryDigest(v1Operations.map(toV1Row), v0Operations.map(toV0Row));
}
export { openApiDocument } from './documents.js';
