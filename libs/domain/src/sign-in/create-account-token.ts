import { z } from 'zod';
import { ScopeList } from '@workcell/registry';
import { type WithSecret, type CredentialView } from '../credentials/access.js';
import { issuePersonalAccessToken } from '../credentials/create-credential.js';
import { DomainError } from '../kernel/errors.js';
import { issuesOf, type ProcedureContext } from '../kernel/procedure.js';
import { accountMember } from './account-member.js';
import { ACCOUNT_TOKEN_MAX_LIFETIME_MS } from './secrets.js';

/** The account page's form: a name, the scopes, and the last day the token works (UTC; mandatory, at most a year ahead). */
export const CreateAccountToken = z.strictObject({
  workspaceId: z.string().max(64),
  name: z.string().trim().min(1).max(200),
  scopes: ScopeList.transform((scopes) => [...new Set(scopes)]),
  expiresOn: z.iso.date(),
});

/**
 * Creating a personal access token on the account page, as the signed-in person's member of the workspace. It
 * mints through issuePersonalAccessToken, exactly as `POST /v1/credentials` does: the member must hold
 * settings.api.personalCredentials (403 `forbidden` otherwise) and may grant only scopes their roles give them. The
 * token works until the end of `expiresOn` (UTC), which must be at most ACCOUNT_TOKEN_MAX_LIFETIME_MS ahead.
 */
export async function createAccountToken(ctx: ProcedureContext, userId: string, input: unknown, requestId: string | null): Promise<WithSecret<CredentialView> & { workspaceId: string }> {
  const parsed = CreateAccountToken.safeParse(input);
  if (!parsed.success) throw new DomainError('validation_failed', 'the token could not be created: check the name, scopes and expiry', issuesOf(parsed.error));
  const member = await accountMember(ctx, userId, parsed.data.workspaceId);
  const now = ctx.now();
  const expiresAt = new Date(`${parsed.data.expiresOn}T23:59:59.999Z`);
  if (expiresAt.getTime() <= now.getTime() || expiresAt.getTime() > now.getTime() + ACCOUNT_TOKEN_MAX_LIFETIME_MS) {
    throw new DomainError('validation_failed', 'the expiry must be a day from today to at most a year ahead', [{ pointer: '/expiresOn', message: 'must be from today to at most 365 days ahead' }]);
  }
  const created = await issuePersonalAccessToken(ctx, {
    auth: member.subject,
    name: parsed.data.name,
    scopes: parsed.data.scopes,
    expiresAt: expiresAt.toISOString(),
    actor: { credentialId: null, principalType: 'member', principalId: member.memberId, requestId },
  });
  return { ...created, workspaceId: member.workspaceId };
}
