import type { CasOutcome } from '@workcell/db';
import { DomainError } from './errors.js';

/**
 * Compare-and-set (registry concurrency `cas`): a resource exposes its stored `revision` as the opaque
 * string `version`; a write sends it back as `expectedVersion` and the database compares it in the
 * `UPDATE … WHERE revision = $expected` itself, so of concurrent writers with the same version exactly one
 * wins and the others get 409 `version_conflict` (never a lost update).
 */

export function versionOf(revision: number): string {
  return String(revision);
}

/** The revision an `expectedVersion` names; a string that is no version of ours matches nothing (-1). */
export function expectedRevision(expectedVersion: string): number {
  return /^[1-9]\d{0,9}$/.test(expectedVersion) && Number(expectedVersion) <= 2_147_483_647 ? Number(expectedVersion) : -1;
}

/** The error of a compare-and-set write that did not apply: 404 when the row is gone, else 409. */
export function casFailure(outcome: Exclude<CasOutcome, 'updated'>, what: string): DomainError {
  return outcome === 'not_found'
    ? new DomainError('not_found', `${what} not found`)
    : new DomainError('version_conflict', `the ${what} has changed since expectedVersion was read; read it again and retry`);
}
