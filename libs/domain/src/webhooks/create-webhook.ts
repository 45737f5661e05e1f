import { z } from 'zod';
import { insertWebhook } from '@workcell/db';
import { WebhookCreate } from '@workcell/registry';
import { recordOperationAudit } from '../identity/actor.js';
import { defineProcedure } from '../kernel/procedure.js';

import { encryptSigningSecret, generateSigningSecret } from './secret.js';
import { webhookDescription, webhookEventTypes, webhookUrl, type WebhookView, webhookView } from './view.js';

export const createWebhookInput = z.object({ ...WebhookCreate.shape }).strict();

/**
 * `POST /v1/webhooks`: a signed subscription owned by the calling credential. Returns the signing secret, once;
 * only its ciphertext is stored. Audited as `webhook.created` (a webhook receives workspace data).
 */
export const createWebhook = defineProcedure('createWebhook', createWebhookInput, async (op, input): Promise<WebhookView & { signingSecret: string }> => {
  const { auth } = op;
  const workspaceId = auth.workspaceId;
  const url = webhookUrl(input.url, op.config);
  const eventTypes = webhookEventTypes(input.eventTypes);
  const secret = generateSigningSecret();
  const { ciphertext, keyId } = encryptSigningSecret(op.config, workspaceId, secret);
  const now = op.now();
  const row = await op.transaction(async (tx) => {
    const created = await insertWebhook(tx, workspaceId, {
      url,
      description: webhookDescription(input.description) ?? null,
      eventTypes,
      ownerCredentialId: auth.credential.id,
      secretCiphertext: ciphertext,
      secretKeyId: keyId,
    });
    await recordOperationAudit(op, tx, { type: 'webhook', id: created.id, action: 'created', metadata: { eventTypes }, at: now });
    return created;
  });
  return { ...webhookView(row, now), signingSecret: secret };
});
