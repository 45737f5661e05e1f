import { DomainError } from './errors.js';

/** A partial update that names no attribute: 400 validation_failed, in the same words for every resource. */
export function nothingToChange(): DomainError {
  return new DomainError('validation_failed', 'nothing to change: name at least one attribute', [{ pointer: '', message: 'at least one attribute is required' }]);
}

/** The names of the attributes a partial update gives (those not undefined); nothingToChange when it gives none. */
export function givenAttributes(fields: Readonly<Record<string, unknown>>): string[] {
  const given = Object.keys(fields).filter((key) => fields[key] !== undefined);
  if (given.length === 0) throw nothingToChange();
  return given;
}
