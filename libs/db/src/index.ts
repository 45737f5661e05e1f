export { assertChangingAuthorization, createDatabase, type Database, inAuthorizationTransaction, type Prisma, poolStatements, PrismaClient, type Statements } from './database.js';
export {
  claimIdempotencyKey,
  completeHeldKey,
  completeIdempotencyKey,
  type HeldIdempotencyKey,
  heldIdempotencyKey,
  holdingIdempotencyKey,
  type IdempotencyClaim,
  purgeExpiredIdempotencyRecords,
  releaseIdempotencyKey,
} from './idempotency.js';
export { DEMO_OWNER_EMAIL, DEMO_WORKSPACE_NAME, type DemoTokens, demoTokensStillActive, refreshDemoTokens, seedDemoWorkspaceIfEmpty } from './seed.js';
export { createWorkspace, type CreatedWorkspace, type FoundedWorkspace, foundWorkspace, OWNER_ROLE_NAME, type WorkspaceFounding } from './workspace-provisioning.js';
export { type CredentialRecord, findTokenLookup, loadCredential, loadTeamToken, type TeamTokenRecord, type TokenLookup, touchCredential, touchTeamToken } from './identity.js';
export { type AuditActor, type AuditEntry, type AuditEventRecord, type AuditFilter, listAuditEvents, recordAudit, recordAuthenticationRefusal } from './audit.js';
export { type CredentialInput, issueCredential, issueFeedToken, issueTeamToken, revokeCredential } from './credentials.js';
export { findWorkspace, type WorkspaceRecord, workspaceUsage, type WorkspaceUsage } from './workspaces.js';
export {
  type CredentialMetaRow,
  type CredentialOwner,
  type CredentialStatusFilter,
  findOwnedCredential,
  listCredentialPage,
  mintCredential,
  revokeOwnedCredential,
  revokeServiceAccountCredentials,
  rotateOwnedCredential,
} from './credential-admin.js';
export { archiveServiceAccount, createServiceAccount, findServiceAccount, listServiceAccountPage, type ServiceAccountChanges, type ServiceAccountRow, updateServiceAccount } from './service-accounts.js';
export { type GrantAccess, type GrantResourceType, type GrantRow, listServiceAccountGrants, loadResourceGrants, replaceResourceGrants, type ReplaceGrantsResult } from './resource-grants.js';
export { type CasOutcome, type Client, inPermissionTransaction, inTransaction, lockPermissions, type SqlClient, type Tx, withinTransaction } from './transactions.js';
export { countMembersHoldingAll, findMember, listMembersPage, lockExistingMemberIds, markMemberRemoved, type MemberFilter, memberPermissionKeys, type MemberRecord, replaceMemberRoles, updateMemberIfRevision } from './members.js';
export { archiveRole, findRole, findRolePermissions, insertRole, listRolesPage, type RoleRecord, roleNameTaken, roleUsage, updateRoleIfRevision } from './roles.js';
export { archiveGroup, findGroup, type GroupMemberRecord, type GroupRecord, insertGroup, listGroupMembersPage, listGroupsPage, replaceGroupMemberLinks, updateGroupIfRevision } from './groups.js';
export { type CalendarEntry, type FeedTokenRecord, listCalendarEntries, loadFeedToken, touchFeedToken } from './calendar.js';
export { actingAs, appendOutboxEvent, causedBy, type DomainEvent, type EventActor, type EventCause, outboxEvent, listenForOutboxEvents, OUTBOX_CHANNEL, type OutboxListener, type OutboxListenerOptions } from './outbox.js';
export { type OutboxWaiter, OutboxWaiters, type OutboxWaitersOptions, type WakeReason } from './outbox-waiters.js';
export { contactExists, existingTagIds, findProject, insertProject, listProjectsPage, type ProjectChanges, type ProjectFilter, type ProjectRecord, updateProjectIfRevision } from './projects.js';
export { findTask, type GuardedOutcome, insertTask, listExists, listTasksPage, newTask, projectExists, type TaskChanges, taskExists, type TaskFilter, type TaskGuard, type TaskPriorityValue, type TaskRecord, type TaskStatusValue, updateTaskIfRevision } from './tasks.js';
export { findRunningTimer, insertRunningTimer, stopRunningTimer } from './time-entries.js';
export {
  contactGroupAncestors,
  type ContactGroupFilter,
  type ContactGroupRecord,
  existingContactGroupIds,
  findContactGroup,
  insertContactGroup,
  listContactGroupsPage,
  lockContactGroupHierarchy,
  setContactGroupArchived,
  updateContactGroupIfRevision,
} from './contact-groups.js';
export {
  type ContactAddress,
  type ContactChanges,
  type ContactFilter,
  type ContactKind,
  contactKindOf,
  type ContactRecord,
  countOrganizationPeople,
  findContact,
  insertContact,
  listContactsPage,
  setContactArchived,
  updateContactIfRevision,
} from './contacts.js';
export { type CallNoteRecord, findCallNote, insertCallNote, listCallNotesPage, setCallNoteArchived, updateCallNoteAttributes } from './call-notes.js';
export { findTag, insertTag, listTagsPage, setTagArchived, type TagChanges, type TagRecord, updateTagAttributes } from './tags.js';
export { findTargetState, type TargetKind } from './targets.js';
export { type CommentAuthor, type CommentRecord, findComment, insertComment, listCommentsPage, markCommentDeleted, updateCommentBody } from './comments.js';
export { listTargetEventsPage, type TargetEventQuery, type TargetEventRecord } from './activity.js';
export {
  type DocumentChanges,
  type DocumentFilter,
  type DocumentFormatValue,
  type DocumentRecord,
  type DocumentTarget,
  type DocumentTargetTypeValue,
  findDocument,
  insertDocument,
  listDocumentsPage,
  setDocumentArchived,
  updateDocumentIfRevision,
} from './documents.js';
export {
  type AbsenceKindValue,
  type AbsenceRecord,
  type AbsenceStatusValue,
  type AbsenceValues,
  absencesBetween,
  type AppointmentRecord,
  type AppointmentValues,
  archiveAbsence,
  archiveAppointment,
  type BusyInterval,
  busyIntervals,
  findAbsence,
  findAppointment,
  insertAbsence,
  insertAppointment,
  type InstantWindow,
  listAbsencesPage,
  listAppointmentsPage,
  lockMemberForAbsences,
  overlappingAbsence,
  shareAGroup,
  updateAbsenceIfRevision,
  updateAppointmentIfRevision,
} from './scheduling.js';
export {
  applyProjectLifecycle,
  findLifecycleOperation,
  findLifecycleOperationById,
  hasActiveLifecycleOperation,
  insertLifecycleOperation,
  type LifecycleKind,
  type LifecycleOperationRecord,
  type LifecycleStatus,
  listLifecycleOperationsPage,
  lockProjectLifecycleState,
  setLifecycleOperationStatus,
} from './project-lifecycle.js';
export {
  claimUpload,
  clearExpiredFileBytes,
  completeFileUploadRows,
  type DownloadGrant,
  expireUpload,
  type FileFilter,
  type FileRecord,
  type FileStatusValue,
  fileStorageKey,
  findDownloadGrant,
  findFile,
  findUploadReservation,
  insertDownloadIntent,
  insertFileUpload,
  listFilesPage,
  lockLapsedReservations,
  newDownloadIntentId,
  newFileIds,
  type NewFileUpload,
  purgeExpiredDownloadIntents,
  releaseUploadClaim,
  renameFile,
  setFileArchived,
  type UploadClaim,
  type UploadReservationRecord,
  type UploadReservationStatusValue,
} from './files.js';
export { findList, insertList, type ListChanges, type ListKindValue, listListsPage, type ListRecord, setListArchived, updateListAttributes } from './lists.js';
export {
  findTimeEntry,
  insertTimeEntry,
  listTimeEntriesPage,
  setTimeEntryArchived,
  setTimeEntryBillingIfRevision,
  taskProjectOf,
  type TimeEntryFilter,
  type TimeEntryRow,
  type TimeEntryValues,
  updateTimeEntryIfRevision,
} from './time-entry-crud.js';
export { pageIds } from './keyset.js';
export { findWorkspaceUser, listWorkspaceUsersPage, type WorkspaceUserRecord } from './users.js';
export { archiveLegacyWebhook, findLegacyWebhook, insertLegacyWebhook, type LegacyWebhookRecord, listLegacyWebhooksPage } from './legacy-webhooks.js';
export {
  findProduct,
  insertProduct,
  listProductsPage,
  type MoneyValue,
  type ProductChanges,
  type ProductFilter,
  type ProductRecord,
  setProductArchived,
  updateProductIfRevision,
} from './products.js';
export {
  findProductGroup,
  insertProductGroup,
  listProductGroupsPage,
  lockProductGroupHierarchy,
  productGroupAncestors,
  productGroupIsActive,
  type ProductGroupFilter,
  type ProductGroupRecord,
  setProductGroupArchived,
  updateProductGroupIfRevision,
} from './product-groups.js';
export {
  findProjectTemplate,
  insertProjectTemplate,
  insertSkeletonTasks,
  listProjectTemplatesPage,
  type ProjectTemplateChanges,
  type ProjectTemplateRecord,
  setProjectTemplateArchivedIfRevision,
  type SkeletonTask,
  type TaskBlueprintRecord,
  updateProjectTemplateIfRevision,
} from './project-templates.js';
export {
  activeMemberIds,
  findScheduleTask,
  listPlannedWorkPage,
  listTaskPlannedWork,
  lockScheduleTask,
  type PlannedWorkFilter,
  type PlannedWorkRecord,
  type PlannedWorkWindow,
  replaceTaskPlannedWorkRows,
  type ScheduleTask,
} from './planned-work.js';
export {
  findProjectStatement,
  insertProjectStatement,
  listProjectStatementsPage,
  type ProjectStatementFilter,
  type ProjectStatementKindValue,
  type ProjectStatementRow,
  type ProjectStatementValues,
  setProjectStatementArchived,
  statementProductExists,
  updateProjectStatementIfRevision,
} from './project-statements.js';
export {
  findService,
  insertService,
  listServiceBillingRates,
  listServicesPage,
  replaceServiceBillingRatesIfRevision,
  type ServiceBillingRateRow,
  serviceExists,
  type ServiceRow,
  type ServiceValues,
  setServiceArchived,
  updateServiceIfRevision,
} from './services.js';
export { existingSharingPrincipals, loadProjectSharing, type ProjectSharingRecord, replaceProjectSharingIfRevision, type SharingAccess, type SharingEntryRow, type SharingPrincipalType } from './project-sharing.js';
export { loadWorkspaceSettings, type WorkspaceSettingsChanges, type WorkspaceSettingsRecord, updateWorkspaceSettingsIfRevision } from './workspace-settings.js';
export { type TreeGroupFilter, type TreeGroupRecord } from './group-tree.js';
export { type ChangeRecord, committedEventHead, headAndFirstWindow, isGrantResourceType, listOutboxWindow } from './changes.js';
export {
  abandonPendingDeliveries,
  archiveWebhook,
  disableWebhooks,
  findWebhook,
  findWebhookDelivery,
  insertTestDelivery,
  insertWebhook,
  listWebhookDeliveriesPage,
  listWebhooksPage,
  type NewWebhook,
  recoverFailedDeliveries,
  transferWebhooks,
  type WebhookChanges,
  type WebhookDeliveryRecord,
  type WebhookDisabledReason,
  type WebhookReader,
  type WebhookSelection,
  type WebhookDeliveryStatus,
  type WebhookRecord,
  type WebhookStatus,
  updateWebhookIfRevision,
} from './webhooks.js';
export {
  activeLegacyWebhooksOf,
  activeWebhooksOf,
  type AttemptExchange,
  type AttemptOutcome,
  type BreakerSettings,
  claimDueDeliveries,
  type ClaimedDelivery,
  type ClaimLimits,
  findOutboxEvent,
  insertPendingDeliveries,
  lockUnpublishedEvents,
  markEventsPublished,
  type NewDelivery,
  recordAttemptOutcome,
  type RecordedOutcome,
  type RelayLegacyWebhook,
  type RelaySubscription,
  type SigningSecrets,
  type UnpublishedEvent,
  withRelayLock,
} from './webhook-delivery.js';
export { legacyPlannedWorkAt, type LegacyPagedList, type LegacyPlannedWorkFilter, legacyRowAt } from './legacy-pages.js';
export {
  type CustomFieldDefinitionChanges,
  type CustomFieldDefinitionRecord,
  customFieldDefinitionsByIds,
  customFieldKindsInUse,
  type CustomFieldOptionRecord,
  customFieldOptionsInUse,
  type CustomFieldTypeValue,
  type CustomFieldValueSetRecord,
  findCustomFieldDefinition,
  findCustomFieldValueSet,
  insertCustomFieldDefinition,
  listCustomFieldDefinitionsPage,
  lockCustomFieldDefinition,
  lockCustomFieldDefinitionsForValues,
  setCustomFieldDefinitionArchived,
  updateCustomFieldDefinitionIfRevision,
  writeCustomFieldValueSet,
} from './custom-fields.js';
export {
  admitInvitee,
  effectiveStatus,
  findInvitation,
  type InvitationChange,
  type InvitationRecord,
  type InvitationStatusValue,
  insertInvitation,
  insertInvitationMessage,
  invitationMessageSent,
  invitationTokenKnown,
  isMemberEmail,
  listInvitationsPage,
  lockInvitationByToken,
  lockInvitationForMail,
  markInvitationResent,
  markInvitationRevoked,
  type NewInvitation,
  pendingInvitationFor,
} from './invitations.js';
export {
  advanceTaskRecurrence,
  dueTaskRecurrences,
  findTaskOccurrenceIdByEvent,
  findTaskRecurrence,
  insertTaskOccurrenceOnce,
  insertTaskRecurrence,
  listTaskOccurrencesPage,
  listTaskRecurrencesPage,
  lockTaskRecurrence,
  type NewTaskOccurrence,
  type OccurrenceSource,
  type OccurrenceStatus,
  type RecurrenceStateValue,
  setTaskOccurrenceTask,
  setTaskRecurrenceArchived,
  type TaskOccurrenceRecord,
  type TaskRecurrenceChanges,
  type TaskRecurrenceFilter,
  type TaskRecurrenceRecord,
  updateTaskRecurrenceIfRevision,
} from './task-recurrences.js';
export { type DomainFilter, SEARCHABLE, type SearchAfter, type SearchDomain, type SearchHitRecord, searchPage } from './search.js';
export { findIntegration, type IntegrationRecord, listIntegrationsPage } from './integrations.js';
export {
  expireExports,
  type ExportFormatValue,
  type ExportOutcome,
  type ExportRecord,
  type ExportStatusValue,
  findExport,
  findExportForJob,
  finishExport,
  insertExport,
  listExportsPage,
  type NewExport,
  setExportProgress,
  startExport,
} from './exports.js';
export {
  advanceAutomationRun,
  type AutomationDefinitionRecord,
  type AutomationDraft,
  type AutomationRunRecord,
  type AutomationRunStatusValue,
  type AutomationVersionRecord,
  endAutomationRun,
  findAutomationDefinition,
  findAutomationRun,
  findAutomationVersion,
  insertAutomationDefinition,
  insertAutomationRunsOnce,
  listAutomationDefinitionsPage,
  listAutomationRunsPage,
  listAutomationVersionsPage,
  lockAutomationRun,
  type NewAutomationRun,
  publishAutomationDefinition,
  setAutomationDefinitionArchived,
  staleAutomationRuns,
  type TriggerableAutomation,
  triggerableAutomationsOf,
  updateAutomationDefinitionIfRevision,
} from './automations.js';
export { type RecordedStatement } from './statement-log.js';
export {
  eventReadableSql,
  hiddenProjectIds,
  isRuledResourceType,
  type ProjectAccess,
  projectAccess,
  resourceProjectAccess,
  projectReadableSql,
  readableEventIds,
  RESOURCE_RULES,
  type ResourceRule,
  resourceReadableSql,
  type RuledResourceType,
  type Viewer,
} from './visibility.js';
export {
  createSignInLink,
  endAllSessions,
  endSession,
  findUserIdByEmail,
  type SessionMembership,
  sessionMemberships,
  type SessionRecord,
  type SignInOutcome,
  signInLinkState,
  signInWithLink,
  touchSession,
} from './sessions.js';
export {
  approveDeviceAuthorization,
  createDeviceAuthorization,
  denyDeviceAuthorization,
  lockDeviceAuthorization,
  type LockedDeviceLogin,
  markDeviceAuthorizationRedeemed,
  pendingDeviceAuthorization,
  type PendingDeviceLogin,
  recordDevicePoll,
} from './device-authorizations.js';
