import { z } from 'zod';
import { ScopeList } from '@workcell/registry';
import { assertMayGrant, type CredentialView, PERSONAL_CREDENTIALS, type WithSecret } from '../credentials/access.js';
import { issuePersonalAccessToken } from '../credentials/create-credential.js';
import { DomainError } from '../kernel/errors.js';
import { issuesOf, type ProcedureContext } from '../kernel/procedure.js';
import { type AccountMember, accountMember } from './account-member.js';
import { ACCOUNT_TOKEN_MAX_LIFETIME_MS } from './secrets.js';

/** The account page's form: a name, the scopes, and the last day the token works (UTC; mandatory, at most a year ahead). */
export const CreateAccountToken = z.strictObject({
  workspaceId: z.string().max(64),
  name: z.string().trim().min(1).max(200),
  scopes: ScopeList.transform((scopes) => [...new Set(scopes)]),
  expiresOn: z.iso.date(),
});

/** A token request of the account page or a device approval, checked: the member, the name, the scopes, the expiry. */
export interface AccountTokenRequest {
  readonly member: AccountMember;
  readonly name: string;
  readonly scopes: readonly string[];
  readonly expiresAt: Date;
}

/**
 * Checks a request for a personal access token of the signed-in person in one workspace (the account page's form,
 * and the device approval's): the person's active membership there (404 otherwise), the permission
 * settings.api.personalCredentials (403), scopes their roles give them (403 `insufficient_scope`), and an expiry
 * at the end of `expiresOn` (UTC) at most ACCOUNT_TOKEN_MAX_LIFETIME_MS ahead.
 */
export async function accountTokenRequest(ctx: ProcedureContext, userId: string, input: unknown): Promise<AccountTokenRequest> {
  const parsed = CreateAccountToken.safeParse(input);
  if (!parsed.success) throw new DomainError('validation_failed', 'the token could not be created: check the name, scopes and expiry', issuesOf(parsed.error));
  const member = await accountMember(ctx, userId, parsed.data.workspaceId);
  const now = ctx.now();
  const expiresAt = new Date(`${parsed.data.expiresOn}T23:59:59.999Z`);
  if (expiresAt.getTime() <= now.getTime() || expiresAt.getTime() > now.getTime() + ACCOUNT_TOKEN_MAX_LIFETIME_MS) {
    throw new DomainError('validation_failed', 'the expiry must be a day from today to at most a year ahead', [{ pointer: '/expiresOn', message: 'must be from today to at most 365 days ahead' }]);
  }
  if (!member.mayCreateTokens) throw new DomainError('forbidden', `creating a personal access token requires the member permission ${PERSONAL_CREDENTIALS}`, [], { permission: PERSONAL_CREDENTIALS });
  assertMayGrant(member.subject, parsed.data.scopes);
  return { member, name: parsed.data.name, scopes: parsed.data.scopes, expiresAt };
}

/**
 * Creating a personal access token on the account page, as the signed-in person's member of the workspace. It
 * mints through issuePersonalAccessToken, exactly as `POST /v1/credentials` does (which checks the permission and
 * the scopes again, at the moment of minting).
 */
export async function createAccountToken(ctx: ProcedureContext, userId: string, input: unknown, requestId: string | null): Promise<WithSecret<CredentialView> & { workspaceId: string }> {
  const { member, name, scopes, expiresAt } = await accountTokenRequest(ctx, userId, input);
  const created = await issuePersonalAccessToken(ctx, {
    auth: member.subject,
    name,
    scopes,
    expiresAt: expiresAt.toISOString(),
    actor: { credentialId: null, principalType: 'member', principalId: member.memberId, requestId },
  });
  return { ...created, workspaceId: member.workspaceId };
}
