/**
 * Domain errors carry a machine code and never an HTTP status: each API generation maps codes to its
 * own statuses and shapes at the edge (v1 error document, v0 legacy error).
 */
export const DOMAIN_ERROR_CODES = [
  'validation_failed',
  'unauthenticated',
  'credential_expired',
  'credential_revoked',
  'workspace_locked',
  'insufficient_scope',
  'forbidden',
  'not_found',
  'conflict',
  'precondition_required',
  'precondition_failed',
  'invalid_precondition',
  /** A compare-and-set write whose expectedVersion is stale (409). */
  'version_conflict',
  /** The change would leave the workspace without an active member able to administer it (409). */
  'last_administrator',
  /** Built-in roles cannot be changed or deleted (409). */
  'built_in_role',
  /** The role is still assigned to members or offered by pending invitations (409). */
  'role_in_use',
  /** Re-parenting a contact group under itself or one of its own descendants (409). */
  'hierarchy_cycle',
  /** startTaskTimer while the member already has a running timer (on any task) (409). */
  'timer_already_running',
  /** stopTaskTimer while the member has no running timer on that task (409). */
  'timer_not_running',
  /** A service account whose resource grants let it read the resource but not change it, or not create one (403). */
  'insufficient_grant',
  /** A project's access-control entries give the caller less than the change needs: viewer, not editor or manager (403). */
  'insufficient_project_access',
  /** A custom-field definition change that stored values would not survive: an option they hold removed, a target type holding them dropped (409). */
  'custom_field_values_in_use',
  /** A bounded field over its bound, such as a document's content (413, like a body over the server's limit). */
  'payload_too_large',
  /** An upload reservation (or a download capability) past its expiry: create a new intent (410, contract 7.3). */
  'upload_expired',
  'download_expired',
  'export_not_ready',
  'export_expired',
  /** completeFileUpload before any bytes were stored (409). */
  'upload_not_received',
  /** completeFileUpload of bytes whose size, type or SHA-256 differ from the intent's (409, with pointers). */
  'upload_mismatch',
  /** A second upload to an upload URL that holds bytes already, or one after its completion (409). */
  'upload_already_received',
  'upload_completed',
  /** A download of a file that is not available or is archived (409). */
  'file_not_available',
  /** An invitation's address belongs to a member of the workspace already (409). */
  'already_member',
  /** The address has a pending invitation already (409): resend or revoke that one. */
  'invitation_pending',
  /** Resending, revoking or accepting an invitation that is accepted, revoked or expired (409; meta.status says which). */
  'invitation_not_pending',
  /** Resending an invitation sooner than a minute after its last e-mail (409, with Retry-After from meta.retryAfterSeconds). */
  'resend_too_soon',
  /** Aborting an automation run that has ended (succeeded, failed or aborted) (409). */
  'automation_run_not_running',
] as const;
export type DomainErrorCode = (typeof DOMAIN_ERROR_CODES)[number];

export interface FieldIssue {
  /** JSON pointer (RFC 6901) into the request body. */
  readonly pointer: string;
  readonly message: string;
  /** For a path or query parameter (not in the body): its name. */
  readonly parameter?: string;
}

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    readonly issues: readonly FieldIssue[] = [],
    readonly meta: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export function isDomainError(error: unknown): error is DomainError {
  return error instanceof DomainError;
}
