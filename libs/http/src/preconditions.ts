import { DomainError } from '@workcell/domain';

/**
 * Strong revisions (contract 4.4, 7.3): every readable resource sends `ETag: "<revision>"`, and the 14
 * `if-match` operations require `If-Match` with exactly one strong validator of that form.
 *   missing                         → 428 precondition_required
 *   weak (W/"…"), a list, `*`, junk → 400 invalid_precondition
 * A stale revision is detected by the domain's atomic `UPDATE … WHERE revision = $expected` and answers
 * 412 precondition_failed.
 */
export function etagOf(revision: number): string {
  return `"${revision}"`;
}

export function expectedRevisionFrom(header: string | string[] | undefined): number {
  if (header === undefined) throw new DomainError('precondition_required', 'this operation requires If-Match with the resource’s current ETag');
  const value = Array.isArray(header) ? header.join(',') : header.trim();
  const match = /^"([1-9]\d{0,9})"$/.exec(value);
  if (!match || Number(match[1]) > 2_147_483_647) {
    throw new DomainError('invalid_precondition', 'If-Match must be exactly one strong ETag of this resource, e.g. "3" (no W/, lists or *)');
  }
  return Number(match[1]);
}
