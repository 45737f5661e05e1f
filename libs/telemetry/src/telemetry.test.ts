import assert from 'node:assert/strict';
import { ROOT_CONTEXT } from '@opentelemetry/api';
import { metricsExposition, metricsRegistry, observeQueueDepth } from './metrics.js';
import { contextFromTraceparent, currentTraceparent, inSpan, SpanKind, startChildSpan, tracingEnabled } from './tracing.js';

async function valueOf(name: string, labels: Record<string, string> = {}): Promise<number | undefined> {
  const metric = await metricsRegistry.getSingleMetric(name)?.get();
  return metric?.values.find((v) => Object.entries(labels).every(([k, l]) => String(v.labels[k]) === l))?.value;
}

describe('metrics', () => {
  it('queue depths are read on each scrape', async () => {
    const stop = observeQueueDepth(async () => [{ queue: 'test-queue', counts: { waiting: 3, active: 1 } }]);
    try {
      const { body } = await metricsExposition();
      assert.match(body, /^queue_jobs\{queue="test-queue",state="waiting"\} 3$/m);
      assert.match(body, /^queue_jobs\{queue="test-queue",state="active"\} 1$/m);
    } finally {
      stop();
    }
  });

  it('a queue that never answers (a hung Redis) cannot hang a scrape: it is counted as a failure', async () => {
    const failures = (await valueOf('queue_depth_scrape_failures_total')) ?? 0;
    const stop = observeQueueDepth(() => new Promise(() => undefined));
    try {
      const { body } = await metricsExposition();
      assert.match(body, /^# TYPE queue_jobs gauge$/m);
      assert.equal(await valueOf('queue_depth_scrape_failures_total'), failures + 1);
    } finally {
      stop();
    }
  });
});

describe('tracing, when off', () => {
  it('costs nothing: no traceparent, no spans, no context', async () => {
    assert.equal(tracingEnabled(), false);
    assert.equal(currentTraceparent(), null);
    assert.equal(startChildSpan('x', SpanKind.INTERNAL, {}), undefined);
    assert.equal(contextFromTraceparent('00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01'), ROOT_CONTEXT);
    assert.equal(await inSpan('x', SpanKind.INTERNAL, {}, async () => 42), 42);
  });
});
