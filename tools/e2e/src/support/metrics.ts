import assert from 'node:assert/strict';

/** One sample of a Prometheus text exposition: metric name, labels, value. */
export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** Parses Prometheus text format 0.0.4 strictly: a line that is neither a comment nor a sample fails the test. */
export function parsePrometheus(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = LINE.exec(line);
    assert.ok(match, `not a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, name, value] of (match[2] ?? '').matchAll(LABEL)) labels[name!] = value!.replace(/\\(.)/g, (_m, c: string) => (c === 'n' ? '\n' : c));
    // Prometheus reads values as Go's ParseFloat does: NaN and Inf in any case.
    const raw = match[3]!;
    const value = /^nan$/i.test(raw) ? NaN : /^[+-]?inf$/i.test(raw) ? (raw.startsWith('-') ? -Infinity : Infinity) : Number(raw);
    assert.ok(!Number.isNaN(value) || /^nan$/i.test(raw), `not a sample value: ${line}`);
    samples.push({ name: match[1]!, labels, value });
  }
  return samples;
}

/** GET /metrics of a service: asserts 200 and the Prometheus text content type, returns the samples. */
export async function scrape(baseUrl: string, headers: Record<string, string> = {}): Promise<Sample[]> {
  const res = await fetch(`${baseUrl}/metrics`, { headers });
  const text = await res.text();
  assert.equal(res.status, 200, text);
  assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  return parsePrometheus(text);
}

/** The value of the sample with this name whose labels include `labels` (undefined when there is none). */
export function sampleValue(samples: readonly Sample[], name: string, labels: Readonly<Record<string, string>> = {}): number | undefined {
  return samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
}
