import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { WorkcellError } from './errors.js';

/** A signed v2 webhook delivery, verified (docs/webhooks.md): the body, with the delivery's headers. */
export interface WebhookEvent {
  /** `webhook-id`: the event's id, the same on every retry; deduplicate by it. */
  readonly id: string;
  /** The event type of the event catalog, e.g. `task.updated`. */
  readonly type: string;
  /** When the change happened (ISO 8601). */
  readonly timestamp: string;
  /** The event's per-workspace change-feed sequence (decimal): deliveries are not ordered, order by it. */
  readonly sequence: string;
  readonly data: {
    readonly resourceType: string;
    readonly resourceId: string;
    readonly action: string;
    readonly payload: unknown;
  };
}

/** The delivery's signature, timestamp or body does not verify: answer it with a 4xx and do not act on it. */
export class WorkcellWebhookVerificationError extends WorkcellError {}

type HeaderSource = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

function headerOf(headers: HeaderSource, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === name) return typeof value === 'string' ? value : value?.[0];
  return undefined;
}

/**
 * Verifies a signed v2 delivery with the subscription's signing secret (`whsec_…`, shown once at creation) over the
 * Standard Webhooks scheme (`webhook-id`, `webhook-timestamp`, `webhook-signature`), and returns its event. Pass
 * the body exactly as received (the raw bytes or their UTF-8 text, never a re-serialised object) and the request's
 * headers (a Fetch `Headers` or Node's `IncomingHttpHeaders`). Throws `WorkcellWebhookVerificationError` when the
 * signature does not match, the timestamp is more than five minutes away, a header is missing or the body is not
 * a delivery.
 */
export function verifyWebhook(secret: string, body: string | Uint8Array, headers: HeaderSource): WebhookEvent {
  const id = headerOf(headers, 'webhook-id');
  const timestamp = headerOf(headers, 'webhook-timestamp');
  const signature = headerOf(headers, 'webhook-signature');
  if (!id || !timestamp || !signature) throw new WorkcellWebhookVerificationError('missing webhook-id, webhook-timestamp or webhook-signature header');
  const text = typeof body === 'string' ? body : new TextDecoder('utf-8', { fatal: false }).decode(body);
  let verifier: Webhook;
  try {
    if (!secret.startsWith('whsec_')) throw new Error('no whsec_ prefix');
    verifier = new Webhook(secret);
  } catch (error) {
    throw new WorkcellWebhookVerificationError('the signing secret is not a Standard Webhooks secret (whsec_…)', { cause: error });
  }
  const signed = { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': signature };
  let event: unknown;
  try {
    event = verifier.verify(text, signed);
  } catch (error) {
    if (error instanceof WebhookVerificationError) throw new WorkcellWebhookVerificationError(error.message, { cause: error });
    throw new WorkcellWebhookVerificationError('the body is not JSON', { cause: error });
  }
  if (!isDelivery(event)) throw new WorkcellWebhookVerificationError('the body is not a Workcell v2 delivery');
  return { id, ...event };
}

function isDelivery(value: unknown): value is Omit<WebhookEvent, 'id'> {
  const event = value as Partial<WebhookEvent> | null;
  return typeof event === 'object' && event !== null && typeof event.type === 'string' && typeof event.sequence === 'string' && typeof event.data === 'object' && event.data !== null;
}
