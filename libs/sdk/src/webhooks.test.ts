import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { WorkcellError } from './errors.js';
import { verifyWebhook, WorkcellWebhookVerificationError } from './webhooks.js';

const secret = `whsec_${randomBytes(32).toString('base64')}`;
const body = JSON.stringify({
  type: 'tag.created',
  timestamp: '2026-11-24T10:00:00.000Z',
  sequence: '42',
  data: { resourceType: 'tags', resourceId: 't1', action: 'created', payload: { tag: { id: 't1' } } },
});

/** Headers as the worker sends them (docs/webhooks.md), signed at `at`. */
function signed(payload: string, at = new Date(), key = secret): Record<string, string> {
  return { 'webhook-id': 'evt_1', 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': new Webhook(key).sign('evt_1', at, payload), 'webhook-sequence': '42' };
}

const refused = (message: RegExp) => (error: unknown) => error instanceof WorkcellWebhookVerificationError && error instanceof WorkcellError && message.test(error.message);

describe('verifyWebhook (signed v2 deliveries, Standard Webhooks)', () => {
  it('returns the event with its id from Node headers, Fetch Headers and raw bytes alike', () => {
    const headers = signed(body);
    const fromNode = verifyWebhook(secret, body, headers);
    assert.deepEqual(fromNode, { id: 'evt_1', ...(JSON.parse(body) as object) });
    const upperCase = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toUpperCase(), v]));
    assert.deepEqual(verifyWebhook(secret, new TextEncoder().encode(body), upperCase), fromNode);
    assert.deepEqual(verifyWebhook(secret, body, new Headers(headers)), fromNode);
    assert.deepEqual(verifyWebhook(secret, body, { ...headers, 'webhook-signature': [headers['webhook-signature']!] }), fromNode);
  });

  it('refuses a changed body, another secret, a missing header and a replayed old delivery', () => {
    const headers = signed(body);
    assert.throws(() => verifyWebhook(secret, body.replace('tag.created', 'tag.archived'), headers), refused(/signature/i));
    assert.throws(() => verifyWebhook(`whsec_${randomBytes(32).toString('base64')}`, body, headers), refused(/signature/i));
    const { 'webhook-signature': _dropped, ...unsigned } = headers;
    assert.throws(() => verifyWebhook(secret, body, unsigned), refused(/missing/));
    const tenMinutesAgo = new Date(Date.now() - 10 * 60_000);
    assert.throws(() => verifyWebhook(secret, body, signed(body, tenMinutesAgo)), refused(/too old/));
    const inTenMinutes = new Date(Date.now() + 10 * 60_000);
    assert.throws(() => verifyWebhook(secret, body, signed(body, inTenMinutes)), refused(/too new/));
  });

  it('refuses a secret that is not a signing secret and a signed body that is not a delivery', () => {
    assert.throws(() => verifyWebhook('not a secret', body, signed(body)), refused(/whsec_/));
    const notDelivery = JSON.stringify({ hello: 'world' });
    assert.throws(() => verifyWebhook(secret, notDelivery, signed(notDelivery)), refused(/not a Workcell v2 delivery/));
  });
});
