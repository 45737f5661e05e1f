import assert from 'node:assert/strict';
import { withArchivableFields, withBaseFields } from './base-view.js';

const row = { id: '01a1fc94-97ea-7433-a1ba-8714884845a1', createdAt: new Date('2026-11-29T12:00:00.123Z'), updatedAt: new Date('2026-11-29T13:00:00Z') };

describe('views start from the base fields', () => {
  it('puts id and the instants first, in ISO 8601, then the resource’s own fields in their order', () => {
    const view = withBaseFields(row, { name: 'n', description: null });
    assert.deepEqual(Object.keys(view), ['id', 'createdAt', 'updatedAt', 'name', 'description']);
    assert.deepEqual(view, { id: row.id, createdAt: '2026-11-29T12:00:00.123Z', updatedAt: '2026-11-29T13:00:00.000Z', name: 'n', description: null });
  });

  it('adds archivedAt after the instants: null while live, ISO 8601 once archived', () => {
    assert.deepEqual(Object.keys(withArchivableFields(row, { title: 't' })), ['id', 'createdAt', 'updatedAt', 'archivedAt', 'title']);
    assert.equal(withArchivableFields({ ...row, archivedAt: null }, {}).archivedAt, null);
    assert.equal(withArchivableFields({ ...row, archivedAt: new Date('2026-11-30T00:00:00Z') }, {}).archivedAt, '2026-11-30T00:00:00.000Z');
  });
});
