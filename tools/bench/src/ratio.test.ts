import assert from 'node:assert/strict';
import { compare, median } from './ratio.js';

describe('benchmark statistics', () => {
  it('takes the median of odd and even sample counts', () => {
    assert.equal(median([3, 1, 2]), 2);
    assert.equal(median([4, 1, 3, 2]), 2.5);
    assert.throws(() => median([]));
  });

  it('sees a candidate that does more work as a larger ratio', async () => {
    const spin = (ms: number) => async () => {
      const end = process.hrtime.bigint() + BigInt(ms * 1e6);
      while (process.hrtime.bigint() < end);
    };
    const result = await compare(spin(1), spin(4), 9, 1);
    assert.ok(result.ratio > 2, `ratio ${result.ratio}`);
  });
});
