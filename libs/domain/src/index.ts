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
