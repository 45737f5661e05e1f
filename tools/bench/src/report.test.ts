import assert from 'node:assert/strict';
import { percentile } from './ratio.js';
import { HAND_WRITTEN_MARKER, renderDocument, type Report, textTable } from './report.js';

const report: Report = {
  generatedAt: '2026-11-23T00:00:00.000Z',
  command: 'npm run bench',
  machine: ['2 cores'],
  versions: ['Node.js v20'],
  notes: ['alternating'],
  rows: [
    { name: 'a: throughput', measured: '10 req/s', baseline: '100 req/s', ratio: '0.10×', target: '≥ 0.5×', met: false },
    { name: 'b', measured: '1 ms', baseline: '1 ms', ratio: '1.00×', target: '≤ 2×', met: true },
    { name: 'c', measured: '—', baseline: '—', ratio: '—', target: '≤ 2×', met: null, note: 'error: it broke' },
  ],
};

describe('benchmark report', () => {
  it('takes nearest-rank percentiles', () => {
    const samples = Array.from({ length: 100 }, (_, i) => i + 1);
    assert.equal(percentile(samples, 50), 50);
    assert.equal(percentile(samples, 99), 99);
    assert.equal(percentile([5], 99), 5);
    assert.throws(() => percentile([], 50));
  });

  it('prints each row with its verdict', () => {
    const lines = textTable(report.rows).split('\n');
    assert.equal(lines.length, 5);
    assert.match(lines[2]!, /missed$/);
    assert.match(lines[3]!, /met$/);
    assert.match(lines[4]!, /error$/);
  });

  it('lists the missed rows and keeps what follows the hand-written marker', () => {
    const fresh = renderDocument(report, null);
    assert.match(fresh, /## What is still missed\n\n- a: throughput: 10 req\/s/);
    assert.match(fresh, /- c: not judged in this run \(it broke\)/);
    assert.ok(fresh.includes(HAND_WRITTEN_MARKER));
    const edited = `${fresh}\nThe profile shows the auth hop.\n`;
    const again = renderDocument({ ...report, generatedAt: '2026-11-24T00:00:00.000Z' }, edited.replace(/## Where the time goes[\s\S]*$/, '## Profiles\n\nThe profile shows the auth hop.\n'));
    assert.ok(again.endsWith('## Profiles\n\nThe profile shows the auth hop.\n'), again);
    assert.equal(again.split(HAND_WRITTEN_MARKER).length, 2);
    assert.match(again, /2026-11-24/);
  });
});
