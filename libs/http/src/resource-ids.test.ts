import assert from 'node:assert/strict';
import { canonicalId } from '@workcell/domain';
import { resourceIdParameters } from './resource-ids.js';

describe('resource ids at the edge', () => {
  it('takes the id parameters from the registry: every v0 `_id` and v1 id, never a calendar token or a version number', () => {
    const v0 = resourceIdParameters('v0');
    assert.deepEqual(v0.get('GET /tasks/:_id'), ['_id']);
    assert.deepEqual(v0.get('POST /tasks/:_id/startTracking'), ['_id']);
    assert.equal(v0.get('GET /calendar/:token.ics'), undefined);
    const v1 = resourceIdParameters('v1');
    assert.deepEqual(v1.get('PATCH /v1/tasks/:id'), ['id']);
    assert.deepEqual(v1.get('GET /v1/webhooks/:id/deliveries/:deliveryId'), ['id', 'deliveryId']);
    assert.deepEqual(v1.get('GET /v1/automation-definitions/:id/versions/:versionNumber'), ['id']);
  });

  it('spells a UUID in lower case and leaves anything else as it is', () => {
    assert.equal(canonicalId('0190A0B0-ABCD-7000-8000-00000000000F'), '0190a0b0-abcd-7000-8000-00000000000f');
    assert.equal(canonicalId('NOT-A-UUID'), 'NOT-A-UUID');
  });
});
