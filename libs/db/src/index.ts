export { createDatabase, type Database, type Prisma, PrismaClient } from './database.js';
export { purgeExpiredIdempotencyRecords } from './idempotency.js';
export { DEMO_OWNER_EMAIL, DEMO_WORKSPACE_NAME, type DemoTokens, refreshDemoTokens, seedDemoWorkspaceIfEmpty } from './seed.js';
export { type CredentialRecord, findTokenLookup, loadCredential, loadTeamToken, type TeamTokenRecord, type TokenLookup, touchCredential, touchTeamToken } from './identity.js';
export { type AuditActor, type AuditEntry, recordAudit } from './audit.js';
export { type CredentialInput, issueCredential, issueTeamToken, revokeCredential, type Tx } from './credentials.js';
export { findWorkspace, type WorkspaceRecord } from './workspaces.js';
