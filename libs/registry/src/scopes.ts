import { V1_SCOPES, type V1Scope } from '@workcell/credentials';

/**
 * v1 scopes: exactly the scopes of contract section 5.3, expanded (`task-recurrences:read, :write, :run`
 * becomes three scopes), in 5.3's order. They are defined once in @workcell/credentials, next to the
 * permission keys that personal access tokens are intersected with.
 */
export { V1_SCOPES, type V1Scope };

const scopeSet: ReadonlySet<string> = new Set(V1_SCOPES);
export function isV1Scope(value: string): value is V1Scope {
  return scopeSet.has(value);
}

/**
 * Finance overlays (5.3: "only in addition to the matching product/statement
 * scope"). They may appear ONLY in `overlayScopes` of product and
 * project-statement operations, never as a required or any-of scope.
 */
export const FINANCE_OVERLAY_SCOPES = ['products:finance:read', 'products:finance:write', 'project-statements:finance:read', 'project-statements:finance:write'] as const satisfies readonly V1Scope[];

/** Scopes that 5.3 marks "sensitive"; an operation requiring one of them is sensitive. */
export const SENSITIVE_SCOPES = [
  'workspace-settings:read',
  'workspace-settings:write',
  'projects:sharing',
  'time-entries:billing',
  'planned-work:read',
  'planned-work:write',
  'appointments:delegated:read',
  'appointments:delegated:write',
  'absences:delegated:read',
  'absences:admin:write',
  'availability:delegated:read',
  'members:read',
  'members:write',
  'invitations:read',
  'invitations:write',
  'roles:read',
  'roles:write',
  'groups:read',
  'groups:write',
  'exports:read',
  'exports:write',
  'automations:run',
  'integrations:read',
] as const satisfies readonly V1Scope[];

const sensitiveSet: ReadonlySet<string> = new Set(SENSITIVE_SCOPES);
export function isSensitiveScope(scope: V1Scope): boolean {
  return sensitiveSet.has(scope);
}

/** Read scopes of the targets that activity and comments attach to (5.3). */
export const TARGET_READ_SCOPES = ['contacts:read', 'projects:read', 'tasks:read'] as const satisfies readonly V1Scope[];
