import { randomBytes } from 'node:crypto';

/**
 * A UUIDv7 made here rather than by the database's uuidv7() default (the same layout: 48 bits of Unix milliseconds,
 * then random bits), for a row whose id must be known before the statement that inserts it, e.g. to write the
 * row and the event that names it in one statement. Prisma's `@default(uuid(7))` is made client-side the same way.
 */
export function uuidv7(): string {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(Date.now(), 0, 6);
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
