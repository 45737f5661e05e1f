import assert from 'node:assert/strict';
import { DomainError } from '@workcell/domain';
import { etagOf, expectedRevisionFrom } from './preconditions.js';

const code = (header: string | string[] | undefined) => {
  try {
    expectedRevisionFrom(header);
    return 'ok';
  } catch (error) {
    return (error as DomainError).code;
  }
};

describe('If-Match preconditions', () => {
  it('accepts exactly one strong ETag and returns its revision', () => {
    assert.equal(expectedRevisionFrom(etagOf(7)), 7);
    assert.equal(expectedRevisionFrom(' "12" '), 12);
  });

  it('answers precondition_required when missing', () => {
    assert.equal(code(undefined), 'precondition_required');
  });

  it('answers invalid_precondition for weak, listed, wildcard or malformed validators', () => {
    for (const bad of ['W/"3"', '"3", "4"', '*', '3', '""', '"abc"', '"0"', '"99999999999"', ['"3"', '"4"']]) assert.equal(code(bad), 'invalid_precondition', String(bad));
  });
});
