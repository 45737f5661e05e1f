/**
 * Workspace permission keys. Members hold permissions through roles; the keys of data access are named
 * like the v1 scopes (contract 5.3), so a personal access token's effective authority is plainly the
 * intersection of its scopes and its member's current permission keys. Two keys gate credential
 * management itself (contract 5.2 rule 5).
 */
export const V1_SCOPES = [
  'workspace:read',
  'workspace-settings:read', 'workspace-settings:write',
  'projects:read', 'projects:write', 'projects:lifecycle', 'projects:sharing',
  'tasks:read', 'tasks:write',
  'task-recurrences:read', 'task-recurrences:write', 'task-recurrences:run',
  'time-entries:read', 'time-entries:write', 'time-entries:billing',
  'contacts:read', 'contacts:write',
  'call-notes:read', 'call-notes:write',
  'contact-groups:read', 'contact-groups:write',
  'users:read',
  'lists:read', 'lists:write',
  'services:read', 'services:write',
  'tags:read', 'tags:write',
  'custom-field-definitions:read', 'custom-field-definitions:write',
  'custom-field-values:read', 'custom-field-values:write',
  'project-templates:read', 'project-templates:write',
  'planned-work:read', 'planned-work:write',
  'appointments:read', 'appointments:write', 'appointments:delegated:read', 'appointments:delegated:write',
  'absences:read', 'absences:write', 'absences:delegated:read', 'absences:admin:write',
  'availability:read', 'availability:delegated:read',
  'activity:read',
  'comments:read', 'comments:write',
  'documents:read', 'documents:write',
  'files:read', 'files:write',
  'products:read', 'products:write', 'products:finance:read', 'products:finance:write',
  'product-groups:read', 'product-groups:write',
  'project-statements:read', 'project-statements:write', 'project-statements:finance:read', 'project-statements:finance:write',
  'members:read', 'members:write', 'members:pii:read',
  'invitations:read', 'invitations:write',
  'roles:read', 'roles:write',
  'groups:read', 'groups:write',
  'search:read',
  'exports:read', 'exports:write',
  'automations:read', 'automations:write', 'automations:run',
  'integrations:read',
  'credentials:read', 'credentials:write',
  'service-accounts:read', 'service-accounts:write',
  'resource-grants:read', 'resource-grants:write',
  'changes:read',
  'events:read',
  'webhooks:read', 'webhooks:write',
  'audit:read',
] as const;

export type V1Scope = (typeof V1_SCOPES)[number];

export const SETTINGS_PERMISSIONS = ['settings.api.personalCredentials', 'settings.api.serviceAccounts.manage'] as const;

/** Every permission key a role can hold. */
export const PERMISSION_KEYS: readonly string[] = [...SETTINGS_PERMISSIONS, ...V1_SCOPES];
