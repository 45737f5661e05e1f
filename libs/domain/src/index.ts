export { DOMAIN_ERROR_CODES, DomainError, type DomainErrorCode, type FieldIssue, isDomainError } from './kernel/errors.js';
export { defineProcedure, invoke, issuesOf, type Procedure, type ProcedureContext } from './kernel/procedure.js';
export {
  authenticateCredential,
  type CredentialMetadata,
  type Principal,
  type V1AuthContext,
  type V1Authentication,
  type V1AuthFailureCode,
} from './identity/authenticate-credential.js';
export { authenticateTeamToken, type V0AuthContext, type V0Authentication, type V0AuthFailureCode } from './identity/authenticate-team-token.js';
export { revokeOwnCredential } from './identity/revoke-own-credential.js';
export { getWorkspace, type WorkspaceView } from './workspace/get-workspace.js';
export { actorOf } from './identity/actor.js';
export { type CursorScope, decodeCursor, encodeCursor, type Page, type PageRequest, paginate } from './kernel/pagination.js';
export { authInput, type CredentialView, type ServiceAccountCredentialView, type WithSecret } from './credentials/access.js';
export { listCredentials } from './credentials/list-credentials.js';
export { createCredential } from './credentials/create-credential.js';
export { rotateCredential } from './credentials/rotate-credential.js';
export { revokeCredential } from './credentials/revoke-credential.js';
export { type ServiceAccountView } from './service-accounts/view.js';
export { listServiceAccounts } from './service-accounts/list-service-accounts.js';
export { getServiceAccount } from './service-accounts/get-service-account.js';
export { createServiceAccount } from './service-accounts/create-service-account.js';
export { updateServiceAccount } from './service-accounts/update-service-account.js';
export { deleteServiceAccount } from './service-accounts/delete-service-account.js';
export { listServiceAccountCredentials } from './service-accounts/list-service-account-credentials.js';
export { createServiceAccountCredential } from './service-accounts/create-service-account-credential.js';
export { rotateServiceAccountCredential } from './service-accounts/rotate-service-account-credential.js';
export { revokeServiceAccountCredential } from './service-accounts/revoke-service-account-credential.js';
export { GRANT_DOMAINS, type ResourceGrantsView, type ResourceGrantView } from './service-accounts/resource-grant-types.js';
export { getServiceAccountResourceGrants } from './service-accounts/get-resource-grants.js';
export { replaceServiceAccountResourceGrants } from './service-accounts/replace-resource-grants.js';
export { casFailure, expectedRevision, isUuid, versionOf } from './kernel/cas.js';
export { ADMINISTRATION_PERMISSIONS, PII_SCOPE } from './roles/permission-model.js';
export { type MemberView } from './members/view.js';
export { listMembers } from './members/list-members.js';
export { getMember } from './members/get-member.js';
export { updateMember } from './members/update-member.js';
export { removeMember } from './members/remove-member.js';
export { type RoleView } from './roles/view.js';
export { listRoles } from './roles/list-roles.js';
export { createRole } from './roles/create-role.js';
export { getRole } from './roles/get-role.js';
export { updateRole } from './roles/update-role.js';
export { deleteRole } from './roles/delete-role.js';
export { replaceRolePermissions } from './roles/replace-role-permissions.js';
export { type GroupMemberView, type GroupView } from './groups/view.js';
export { listGroups } from './groups/list-groups.js';
export { createGroup } from './groups/create-group.js';
export { getGroup } from './groups/get-group.js';
export { updateGroup } from './groups/update-group.js';
export { deleteGroup } from './groups/delete-group.js';
export { listGroupMembers } from './groups/list-group-members.js';
export { replaceGroupMembers } from './groups/replace-group-members.js';
export { escapeText, foldLine, type ICalEvent, renderCalendar } from './calendar/icalendar.js';
export { renderCalendarFeed } from './calendar/render-calendar-feed.js';
export { type AuditEventView, listAuditEvents } from './audit/list-audit-events.js';
