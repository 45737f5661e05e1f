import { errorBodyProblem } from './envelope.js';
import type { Answer, Probe } from './http.js';
import type { Ledger } from './ledger.js';

export interface Expectation {
  /** A 4xx is required. */
  readonly refuse?: boolean;
  /** One of these statuses is required. */
  readonly expect?: readonly number[];
  /** A 501 is the operation's contract (registered, not implemented) once the caller is authenticated. */
  readonly unimplemented?: boolean;
  /** What the request tried, for grouping findings. */
  readonly label?: string;
}

/**
 * The rules every answer of every check obeys: an answer at all; no 5xx (a 501 only for an unimplemented
 * operation, a 503 only where the check allows it); the required status; and the generation's error body on
 * every 4xx (a 431 for a header block beyond Node's limit included: it is answered by the platform's
 * clientErrorHandler). Returns false when the answer broke one.
 */
export function judge(ledger: Ledger, generation: 'v0' | 'v1', operation: string, probe: Probe, answer: Answer, expectation: Expectation = {}, allow503 = false): boolean {
  const { status } = answer;
  ledger.count(answer, status === 501 && expectation.unimplemented ? '501 (unimplemented)' : status === 503 && allow503 ? '503 (allowed)' : undefined);
  const before = ledger.findings.length;
  if (status === 0) {
    ledger.find('no-answer', operation, probe, answer, 'the request got no HTTP answer (hang or dropped connection)', expectation.label);
    return false;
  }
  // An unimplemented operation answers 501 to whatever passes authentication (401 still comes first).
  const unimplementedAnswer = status === 501 && expectation.unimplemented === true && !expectation.expect?.includes(401);
  if (expectation.expect && !expectation.expect.includes(status) && !unimplementedAnswer) {
    ledger.find('wrong-status', operation, probe, answer, `the contract requires ${expectation.expect.join(' or ')}`, expectation.label);
  } else if (status >= 500 && !(status === 501 && expectation.unimplemented) && !(status === 503 && allow503)) {
    ledger.find(
      '5xx',
      operation,
      probe,
      answer,
      `a ${status} on ${allow503 ? 'a request (only 503 service_unavailable is allowed here)' : 'input it cannot serve (must be a 4xx)'}`,
      expectation.label,
    );
  } else if (expectation.refuse && (status < 400 || status >= 500) && !(status === 501 && expectation.unimplemented)) {
    ledger.find('accepted-invalid-input', operation, probe, answer, `answered ${status}; the contract requires a 4xx refusal`, expectation.label);
  }
  if (status >= 400 && !(status === 501 && expectation.unimplemented && generation === 'v1' && answer.json === undefined)) {
    const problem = errorBodyProblem(generation, answer);
    if (problem) ledger.find('error-body', operation, probe, answer, `${status} without the ${generation} error document: ${problem}`, expectation.label);
  }
  if (status === 503) {
    const retryAfter = answer.headers['retry-after'];
    if (!retryAfter || !/^\d+$/.test(String(retryAfter))) ledger.find('503-without-retry-after', operation, probe, answer, 'a 503 must carry Retry-After (seconds)', expectation.label);
    const code = generation === 'v1' ? (answer.json as { errors?: { code?: string }[] } | undefined)?.errors?.[0]?.code : (answer.json as { error?: { code?: string } } | undefined)?.error?.code;
    if (allow503 && code !== 'service_unavailable') ledger.find('503-wrong-code', operation, probe, answer, `a 503 must be service_unavailable, not ${String(code)}`, expectation.label);
  }
  return ledger.findings.length === before;
}
