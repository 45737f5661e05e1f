import assert from 'node:assert/strict';
import { isNonPublicAddress } from './http.js';

/**
 * The SSRF check judges the address connected to (issue 29): an IPv6 address that reaches an IPv4 one (mapped,
 * compatible, SIIT, NAT64, 6to4), in any spelling, is judged by the IPv4 address it embeds, so a private or loopback
 * receiver cannot hide behind an IPv6 form, while a public one stays reachable.
 */
describe('isNonPublicAddress', () => {
  it('refuses private and loopback IPv4 addresses and allows public ones', () => {
    for (const address of ['127.0.0.1', '10.0.0.1', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0']) assert.equal(isNonPublicAddress(address), true, address);
    for (const address of ['8.8.8.8', '93.184.216.34']) assert.equal(isNonPublicAddress(address), false, address);
  });

  it('refuses non-public IPv6 addresses and allows public ones', () => {
    for (const address of ['::1', '::', 'fc00::1', 'fd12:3456::1', 'fe80::1', 'ff02::1']) assert.equal(isNonPublicAddress(address), true, address);
    for (const address of ['2606:4700:4700::1111', '2001:4860:4860::8888']) assert.equal(isNonPublicAddress(address), false, address);
  });

  it('refuses the special-purpose ranges no receiver lives in: documentation, benchmarking, reserved, broadcast, Teredo, local-use NAT64', () => {
    const special = [
      ['192.0.2.10', 'TEST-NET-1'],
      ['198.51.100.7', 'TEST-NET-2'],
      ['203.0.113.9', 'TEST-NET-3'],
      ['198.18.0.1', 'benchmarking'],
      ['240.0.0.1', 'reserved'],
      ['255.255.255.255', 'broadcast'],
      ['2001:db8::1', 'IPv6 documentation'],
      ['3fff::1', 'IPv6 documentation (RFC 9637)'],
      ['2001:2::1', 'IPv6 benchmarking'],
      ['fec0::1', 'deprecated site-local'],
      ['100::1', 'discard-only'],
      // Teredo: server 65.54.227.120, client 127.0.0.1 obfuscated (bits inverted) in the last 32 bits.
      ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'Teredo'],
      ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', 'Teredo (a public client)'],
      ['64:ff9b:1::a00:1', 'local-use NAT64 (RFC 8215)'],
    ] as const;
    for (const [address, what] of special) assert.equal(isNonPublicAddress(address), true, `${what}: ${address}`);
  });

  const forms: ReadonlyArray<readonly [string, string, string]> = [
    // [form, embedding a private or loopback address, embedding a public one]
    ['IPv4-mapped, dotted', '::ffff:127.0.0.1', '::ffff:8.8.8.8'],
    ['IPv4-mapped, hexadecimal', '::ffff:7f00:1', '::ffff:808:808'],
    ['IPv4-mapped, full spelling', '0:0:0:0:0:ffff:a00:1', '0:0:0:0:0:ffff:808:808'],
    ['IPv4-compatible, dotted', '::10.0.0.1', '::8.8.8.8'],
    ['IPv4-compatible, hexadecimal', '::7f00:1', '::808:808'],
    ['SIIT (::ffff:0:0:0/96)', '::ffff:0:c0a8:101', '::ffff:0:808:808'],
    ['NAT64 (64:ff9b::/96)', '64:ff9b::7f00:1', '64:ff9b::808:808'],
    ['NAT64, dotted', '64:ff9b::169.254.169.254', '64:ff9b::8.8.8.8'],
    ['6to4 (2002::/16)', '2002:c0a8:101::1', '2002:808:808::1'],
    ['6to4, loopback', '2002:7f00:1::', '2002:5db8:d822::1'],
  ];
  for (const [form, hidden, reachable] of forms) {
    it(`judges ${form} by the IPv4 address it embeds`, () => {
      assert.equal(isNonPublicAddress(hidden), true, hidden);
      assert.equal(isNonPublicAddress(reachable), false, reachable);
    });
  }

  it('refuses what is not an address', () => {
    assert.equal(isNonPublicAddress('example.com'), true);
  });
});
