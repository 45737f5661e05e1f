import { DomainError } from './errors.js';
import { isUuid } from './ids.js';

/** A family's 404, in the one wording every family answers: `<noun> not found`. */
export const notFoundOf = (noun: string) => (): DomainError => new DomainError('not_found', `${noun} not found`);

/** The stored id of a path id (lower case); a non-UUID names nothing (`notFound`). */
export function idOf(raw: string, notFound: () => DomainError): string {
  if (!isUuid(raw)) throw notFound();
  return raw.toLowerCase();
}

/** The row a lookup found, or `notFound`. */
export async function foundOr<Row>(lookup: Promise<Row | null>, notFound: () => DomainError): Promise<Row> {
  const row = await lookup;
  if (!row) throw notFound();
  return row;
}
