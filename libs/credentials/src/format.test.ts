import assert from 'node:assert/strict';
import { CREDENTIAL_KINDS, crc32, generateFeedToken, generateToken, MAX_TOKEN_LENGTH, parseToken, verifierFor, verifiersEqual } from './format.js';

describe('credential format', () => {
  it('mints each kind with its prefix, routing hint, 256-bit secret and checksum', () => {
    for (const [kind, prefix] of Object.entries(CREDENTIAL_KINDS)) {
      const token = generateToken(kind as keyof typeof CREDENTIAL_KINDS, 'eu1', 'c1');
      assert.ok(token.startsWith(`${prefix}eu1_c1_`), token);
      assert.equal(token.length, prefix.length + 'eu1_c1_'.length + 43 + 6);
      assert.ok(token.length <= MAX_TOKEN_LENGTH);
      assert.deepEqual(parseToken(token), { ok: true, token: { family: kind, region: 'eu1', cell: 'c1' } });
    }
    const v0 = generateToken('v0_team_token', 'eu1', 'c1');
    assert.ok(v0.startsWith('wc_v0_eu1_c1_'));
    assert.equal(parseToken(v0).ok, true);
  });

  it('never repeats a secret', () => {
    const seen = new Set(Array.from({ length: 500 }, () => generateToken('service_account', 'eu1', 'c1')));
    assert.equal(seen.size, 500);
  });

  it('rejects typos, truncation, wrong prefixes and oversized input without a lookup', () => {
    const token = generateToken('personal_access_token', 'eu1', 'c1');
    const last = token.at(-1)!;
    const typo = token.slice(0, -1) + (last === 'a' ? 'b' : 'a');
    assert.deepEqual(parseToken(typo), { ok: false, reason: 'bad_checksum' });
    const flipped = token.slice(0, 20) + (token[20] === 'x' ? 'y' : 'x') + token.slice(21);
    assert.deepEqual(parseToken(flipped), { ok: false, reason: 'bad_checksum' });
    assert.deepEqual(parseToken(token.slice(0, -3)), { ok: false, reason: 'malformed' });
    assert.deepEqual(parseToken('ghp_' + token.slice(11)), { ok: false, reason: 'unknown_prefix' });
    assert.deepEqual(parseToken(''), { ok: false, reason: 'unknown_prefix' });
    assert.deepEqual(parseToken(token + 'x'.repeat(200)), { ok: false, reason: 'too_long' });
  });

  it('computes a keyed verifier that depends on the server secret and compares in constant time', () => {
    const token = generateToken('service_account', 'eu1', 'c1');
    const a = verifierFor('s'.repeat(32), token);
    assert.equal(a.length, 32);
    assert.ok(verifiersEqual(a, verifierFor('s'.repeat(32), token)));
    assert.ok(!verifiersEqual(a, verifierFor('t'.repeat(32), token)));
    assert.ok(!verifiersEqual(a, a.subarray(0, 16)));
  });

  it('uses the standard CRC-32', () => {
    assert.equal(crc32('123456789'), 0xcbf43926);
  });

  it('mints URL-safe feed tokens', () => {
    assert.match(generateFeedToken(), /^[0-9A-Za-z]{43}$/);
  });
});
