import { type Answer, describeProbe, excerpt, type Probe } from './http.js';

/**
 * What a check found, kept apart from the test runner (Jest) so the checks stay plain functions:
 * every request is counted by answer class, and every violation becomes a finding that names its class, the
 * operation, the request, the status and an excerpt of the body, so a failure says what to fix.
 */

export interface Finding {
  /** The defect class, e.g. `5xx`, `error-body`, `written-by-refused-request`, `cross-tenant`. */
  readonly kind: string;
  readonly operation: string;
  readonly request: string;
  readonly status: number;
  readonly body: string;
  readonly problem: string;
  /** What was tried (the hostile case, the fault): findings are grouped by it within their class. */
  readonly label: string;
}

export class Ledger {
  requests = 0;
  /** Answers by class: `2xx`, `3xx`, `4xx`, `5xx`, `429`, `none` (no answer). */
  readonly answers = new Map<string, number>();
  readonly findings: Finding[] = [];
  /** Check-specific counters shown in the summary line (`batches verified`, ...). */
  readonly counters = new Map<string, number>();
  /** What else the summary line says (`seed 20260302`: how to reproduce the run). */
  readonly notes: string[] = [];

  constructor(readonly check: string) {}

  /** Counts one answer (429 separately: a rate limit is not a finding). */
  count(answer: Answer, klass = answer.status === 0 ? 'none' : answer.status === 429 ? '429' : `${Math.floor(answer.status / 100)}xx`): void {
    this.requests++;
    this.answers.set(klass, (this.answers.get(klass) ?? 0) + 1);
  }

  bump(counter: string, by = 1): void {
    this.counters.set(counter, (this.counters.get(counter) ?? 0) + by);
  }

  find(kind: string, operation: string, probe: Probe | string, answer: Pick<Answer, 'status' | 'text' | 'failure'> | undefined, problem: string, label = problem): void {
    this.findings.push({
      kind,
      label,
      operation,
      request: typeof probe === 'string' ? probe : describeProbe(probe),
      status: answer?.status ?? 0,
      body: answer ? (answer.failure ?? excerpt(answer.text, 300)) : '',
      problem,
    });
  }

  /** One line: `hostile-input: 41,200 requests, 0 5xx, ...`. */
  summary(): string {
    const n = (v: number) => v.toLocaleString('en-US');
    const parts = [`${n(this.requests)} requests`, `${n(this.answers.get('5xx') ?? 0)} 5xx`, `${n(this.answers.get('none') ?? 0)} unanswered`];
    for (const k of ['2xx', '4xx', '429', '501 (unimplemented)', '503 (allowed)']) if (this.answers.get(k)) parts.push(`${n(this.answers.get(k)!)} ${k}`);
    for (const [k, v] of this.counters) parts.push(`${n(v)} ${k}`);
    parts.push(...this.notes);
    parts.push(`${n(this.findings.length)} findings`);
    return `${this.check}: ${parts.join(', ')}`;
  }

  /**
   * The findings grouped by class, and within a class by what was tried, each group with its count, the
   * operations it hit and one full example (request, status, body excerpt).
   */
  report(perKind = 15): string {
    const byKind = new Map<string, Finding[]>();
    for (const f of this.findings) byKind.set(f.kind, [...(byKind.get(f.kind) ?? []), f]);
    const lines: string[] = [];
    const names = (list: Finding[]) => {
      const operations = [...new Set(list.map((f) => f.operation))];
      return `${operations.length} operations: ${operations.slice(0, 8).join(', ')}${operations.length > 8 ? ', …' : ''}`;
    };
    for (const [kind, list] of [...byKind].sort((a, b) => b[1].length - a[1].length)) {
      lines.push(`[${this.check}] ${kind}: ${list.length} findings on ${names(list)}`);
      const byLabel = new Map<string, Finding[]>();
      for (const f of list) byLabel.set(f.label, [...(byLabel.get(f.label) ?? []), f]);
      const groups = [...byLabel].sort((a, b) => b[1].length - a[1].length);
      for (const [label, group] of groups.slice(0, perKind)) {
        const f = group[0]!;
        lines.push(`  - ${label}: ${group.length} on ${names(group)}`);
        lines.push(`      e.g. ${f.operation}: ${f.problem}\n      request: ${f.request}\n      answer:  ${f.status || 'none'} ${f.body}`);
      }
      if (groups.length > perKind) lines.push(`  … and ${groups.length - perKind} more kinds of request in this class`);
    }
    return lines.join('\n');
  }
}
