import assert from 'node:assert/strict';
import { negotiateCoding } from './compression.js';

describe('negotiateCoding (RFC 9110 Accept-Encoding)', () => {
  it('prefers br, then gzip, and honours q=0 and *', () => {
    const cases: Array<[string | undefined, string]> = [
      [undefined, 'identity'],
      ['', 'identity'],
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0, gzip;q=0.5', 'gzip'],
      ['BR ; Q=0.1', 'br'],
      ['*', 'br'],
      ['*;q=0, gzip', 'gzip'],
      ['gzip;q=0, br;q=0', 'identity'],
      ['x-gzip', 'gzip'],
      ['deflate', 'identity'],
    ];
    for (const [header, expected] of cases) assert.equal(negotiateCoding(header), expected, String(header));
    assert.equal(negotiateCoding(['gzip;q=0', 'br']), 'br');
  });
});
