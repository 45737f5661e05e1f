import { memberPermissionKeys, type WebhookReader } from '@workcell/db';
import type { V1AuthContext } from '../kernel/auth-context.js';
import type { ProcedureContext } from '../kernel/procedure.js';

/**
 * Who may do what with a signed subscription (issue 10; docs/webhooks.md "Webhooks"). A subscription acts with its
 * owner's authority (the relay delivers what the owner may read), so whoever changes where it sends or what
 * it carries must be that owner:
 * - The owning credential (the one that created it, or its rotation successor) reads, changes, re-enables and
 *   removes it, reads its deliveries. Every other credential gets 404, as if it did not exist (lists show only
 *   the caller's own), even of the same member with every scope.
 * - A workspace administrator, a member holding settings.api.serviceAccounts.manage (who already administers the
 *   workspace's integrations and can revoke their credentials), additionally sees every subscription's metadata
 *   (never the secret or the deliveries) and may disable one it does not own (audited, reason `administrator`),
 *   but never redirects it (url, event types), re-enables or removes it: 403 forbidden. Stopping it for good
 *   is done by revoking the owning credential, which disables it with reason `owner_revoked`.
 */

export const WEBHOOK_ADMINISTRATION = 'settings.api.serviceAccounts.manage';

/** Whether the caller is a member holding the webhook administration permission now (never cached). */
export async function isWebhookAdministrator(ctx: ProcedureContext, auth: V1AuthContext): Promise<boolean> {
  if (auth.principal.type !== 'member') return false;
  return (await memberPermissionKeys(ctx.database, auth.workspaceId, auth.principal.id)).includes(WEBHOOK_ADMINISTRATION);
}

/** The caller as the owner of its own subscriptions. */
export function ownerOf(auth: V1AuthContext): WebhookReader {
  return { ownerCredentialId: auth.credential.id };
}

/** What the caller may see of subscriptions' metadata: every one for an administrator, else only its own. */
export async function metadataReaderOf(ctx: ProcedureContext, auth: V1AuthContext): Promise<WebhookReader> {
  return (await isWebhookAdministrator(ctx, auth)) ? { administrator: true } : ownerOf(auth);
}
