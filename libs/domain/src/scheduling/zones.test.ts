import assert from 'node:assert/strict';
import { Timestamp } from '@workcell/registry';
import { formatInZone } from './zones.js';

describe('formatInZone', () => {
  it('writes a registry Timestamp naming exactly the instant, in every zone, at the edges of representable time and before standard time', () => {
    const cases: [string, string][] = [
      // The last representable instant is already 10000-01-01 on the wall clock at +14:00 (it was written `+010000-01-01T13:59+14:00`).
      ['Pacific/Kiritimati', '9999-12-31T23:59:59.999Z'],
      ['Pacific/Kiritimati', '9999-12-31T10:00:00.000Z'],
      ['Asia/Kathmandu', '9999-12-31T23:59:59.000Z'],
      ['Etc/GMT+12', '0001-01-01T00:00:00.000Z'],
      ['Pacific/Pago_Pago', '0001-01-01T00:00:00.000Z'],
      // Local mean time: Berlin was +00:53:28 and Kathmandu +05:41:16 (written with the seconds lost: 28 s and 16 s off).
      ['Europe/Berlin', '1800-01-01T00:00:00.000Z'],
      ['Asia/Kathmandu', '1900-06-01T00:00:00.000Z'],
      ['UTC', '2026-01-01T00:00:00.999Z'],
      ['Europe/Berlin', '2026-03-29T01:30:00.000Z'],
    ];
    for (const [zone, iso] of cases) {
      const written = formatInZone(zone, Date.parse(iso));
      assert.ok(Timestamp.safeParse(written).success, `${zone} ${iso}: ${written} is not a Timestamp`);
      assert.equal(new Date(Date.parse(written)).toISOString(), iso, `${zone}: ${written}`);
    }
  });

  it('keeps the zone offset and the wall clock where they can be written', () => {
    assert.equal(formatInZone('Europe/Berlin', Date.parse('2026-12-01T08:00:00Z')), '2026-12-01T09:00:00+01:00');
    assert.equal(formatInZone('Asia/Kathmandu', Date.parse('2026-12-01T00:00:00Z')), '2026-12-01T05:45:00+05:45');
    assert.equal(formatInZone('Etc/GMT+12', Date.parse('0001-01-01T00:00:00Z')), '0000-12-31T12:00:00-12:00');
    assert.equal(formatInZone('Pacific/Kiritimati', Date.parse('9999-12-31T09:59:59Z')), '9999-12-31T23:59:59+14:00');
    assert.equal(formatInZone('Pacific/Kiritimati', Date.parse('9999-12-31T23:59:59.999Z')), '9999-12-31T23:59:59.999Z');
    assert.equal(formatInZone('UTC', Date.parse('2026-12-01T00:00:00Z')), '2026-12-01T00:00:00Z');
  });
});
