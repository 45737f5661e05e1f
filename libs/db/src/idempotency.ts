import type { Database } from './database.js';

/** Deletes idempotency records whose retention has passed; returns how many went. */
export async function purgeExpiredIdempotencyRecords(database: Database, now: Date): Promise<number> {
  const { count } = await database.prisma.idempotencyRecord.deleteMany({ where: { expiresAt: { lt: now } } });
  return count;
}
