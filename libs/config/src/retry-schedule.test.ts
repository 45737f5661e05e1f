import assert from 'node:assert/strict';
import { configFrom } from './config.js';
import { DEFAULT_RETRY_SCHEDULE, jitterDelayMs, parseRetrySchedule, retrySpanMs } from './retry-schedule.js';

describe('webhook retry schedule', () => {
  it('the default is about three days: 5 s, 5 min, 30 min, 2 h, 5 h, then 10 h six times (12 attempts, 67 h 35 min 5 s)', () => {
    const schedule = parseRetrySchedule(DEFAULT_RETRY_SCHEDULE);
    assert.deepEqual(schedule.slice(0, 5), [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000]);
    assert.equal(schedule.length + 1, 12);
    assert.equal(retrySpanMs(schedule), ((67 * 60 + 35) * 60 + 5) * 1000);
    assert.deepEqual(configFrom({}).webhooks.retryScheduleMs, schedule);
  });

  it('reads whole numbers with a unit, and refuses anything else with a message naming the entry', () => {
    assert.deepEqual(parseRetrySchedule('100ms, 2s,1m,1h,1d'), [100, 2_000, 60_000, 3_600_000, 86_400_000]);
    for (const bad of ['', '5', '1.5s', '-1s', '5w', '0ms', '8d', Array(31).fill('1s').join(',')]) assert.throws(() => parseRetrySchedule(bad), Error, bad);
    assert.throws(() => configFrom({ WEBHOOK_RETRY_SCHEDULE: '5s,soon' }), /WEBHOOK_RETRY_SCHEDULE[\s\S]*"soon"/);
  });

  it('jitter scales a delay by 0.8 to 1.2', () => {
    assert.equal(jitterDelayMs(1_000, 0), 800);
    assert.equal(jitterDelayMs(1_000, 0.5), 1_000);
    assert.equal(jitterDelayMs(1_000, 0.999999), 1_200);
    for (let i = 0; i < 100; i++) {
      const ms = jitterDelayMs(10_000);
      assert.ok(ms >= 8_000 && ms <= 12_000);
    }
  });
});
