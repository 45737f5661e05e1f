import { z } from 'zod';
import type { GuardedOutcome } from '@workcell/db';
import { DomainError } from './errors.js';

/**
 * Strong revisions (registry concurrency `if-match`): the API edge parses `If-Match` into the expected
 * revision (428 / 400 there); the data layer compares it in the `UPDATE … WHERE revision = $expected` itself.
 * A write that did not apply is 404 when the row is not in this workspace, 412 precondition_failed when its
 * revision moved on, and 409 conflict when the revision matches but the resource is in the wrong state
 * (e.g. archiving an archived task).
 */
export function ifMatchFailure(outcome: Exclude<GuardedOutcome, 'updated'>, what: string, state: string): DomainError {
  if (outcome === 'not_found') return new DomainError('not_found', `${what} not found`);
  if (outcome === 'version_conflict') return new DomainError('precondition_failed', `the ${what} has changed since its ETag was read; read it again and decide`);
  return new DomainError('conflict', `the ${what} ${state}`);
}

/** The revision the edge parsed from `If-Match`. */
export const expectedRevisionInput = z.number().int().min(1).max(2_147_483_647);
