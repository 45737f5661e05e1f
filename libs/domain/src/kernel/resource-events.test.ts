import assert from 'node:assert/strict';
import { resourceEvent } from './resource-events.js';

describe('a resource’s change event', () => {
  const at = new Date('2026-11-29T10:00:00.000Z');

  it('names `<type>.<action>` and carries the resource under the type in camelCase, with the request id', () => {
    const event = resourceEvent({ requestId: 'req-1' }, { type: 'contact_group', id: 'g1', action: 'created', view: { id: 'g1', name: 'A' }, at, result: { ok: 1 } });
    assert.deepEqual(event, {
      aggregateType: 'contact_group',
      aggregateId: 'g1',
      eventType: 'contact_group.created',
      payload: { contactGroup: { id: 'g1', name: 'A' }, requestId: 'req-1' },
      occurredAt: at,
      result: { ok: 1 },
    });
    // The payload's keys in the order every family wrote them before (its stored JSON is what webhooks send).
    assert.deepEqual(Object.keys(event.payload as object), ['contactGroup', 'requestId']);
  });

  it('lists an update’s changed attributes between the resource and the request id, and completes no key without a result', () => {
    const event = resourceEvent({ requestId: null }, { type: 'tag', id: 't1', action: 'updated', view: { id: 't1' }, changed: ['name'], at });
    assert.deepEqual(Object.keys(event.payload as object), ['tag', 'changed', 'requestId']);
    assert.deepEqual(event.payload, { tag: { id: 't1' }, changed: ['name'], requestId: null });
    assert.equal(event.result, undefined);
  });
});
