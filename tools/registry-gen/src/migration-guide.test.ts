import assert from 'node:assert/strict';
import { findV0Operation, getV1Operation, v0Operations, type V0Method } from '@workcell/registry';
import { migrationSteps, renderMigrationGuide } from './migration-guide.js';

/** The v0 → v1 migration guide is derived from the registry entries (its drift is checked with the other artifacts). */
describe('v0 → v1 migration guide', () => {
  const steps = (method: V0Method, path: string) => {
    const v0 = findV0Operation(method, path);
    assert.ok(v0, `${method} ${path}`);
    return migrationSteps(v0, v0.v1OperationId === null ? null : getV1Operation(v0.v1OperationId));
  };

  it('has a row for every v0 operation, naming its v1 replacement', () => {
    const guide = renderMigrationGuide(v0Operations);
    for (const op of v0Operations) {
      assert.ok(guide.includes(`| \`${op.method} ${op.path}\` |`), `${op.method} ${op.path}`);
      if (op.v1OperationId) assert.ok(guide.includes(`(${op.v1OperationId})`), op.v1OperationId);
    }
  });

  it('a deprecated alias write: PATCH, the id in the path, the scope, the concurrency rule of the v1 operation', () => {
    const changes = steps('PUT', '/contactgroups').join('\n');
    assert.match(changes, /contact-groups:write/);
    assert.match(changes, /PATCH instead of PUT/);
    assert.match(changes, /id: in the path, no longer in the body/);
    assert.match(changes, /expectedVersion/);
  });

  it('a renamed resource, a paged list and a keyed create', () => {
    assert.match(steps('GET', '/journalEntries').join('\n'), /resource renamed: \/journalEntries is \/v1\/project-statements/);
    assert.match(steps('GET', '/callnotes').join('\n'), /`cursor` and `limit` instead of `page`/);
    assert.match(steps('POST', '/callnotes').join('\n'), /Idempotency-Key/);
    assert.doesNotMatch(steps('GET', '/callnotes').join('\n'), /renamed/);
  });

  it('an operation retained on v0 has nothing to change', () => {
    assert.deepEqual(steps('GET', '/calendar/{token}.ics'), ['none: it stays on v0 (no v1 replacement exists yet)']);
  });
});
