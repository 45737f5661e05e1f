import assert from 'node:assert/strict';
import { givenAttributes, nothingToChange } from './attributes.js';

describe('a partial update’s attributes', () => {
  it('are the names given, not those left undefined (null is a value: it clears)', () => {
    assert.deepEqual(givenAttributes({ name: 'x', description: undefined, color: null }), ['name', 'color']);
  });

  it('must name at least one: 400 validation_failed, in the same words for every resource', () => {
    for (const fields of [{}, { name: undefined }]) {
      assert.throws(
        () => givenAttributes(fields),
        (error: { code?: string; issues?: unknown }) =>
          error.code === 'validation_failed' && JSON.stringify(error.issues) === JSON.stringify([{ pointer: '', message: 'at least one attribute is required' }]),
      );
    }
    assert.equal(nothingToChange().message, 'nothing to change: name at least one attribute');
  });
});
