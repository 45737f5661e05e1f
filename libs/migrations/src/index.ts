import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { resolveBinary } from 'dbmate';

const run = promisify(execFile);

/** The repository root, found from this module's own location (libs/migrations/dist/index.js). */
export const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));
export const migrationsDirectory = fileURLToPath(new URL('../../../prisma/migrations/', import.meta.url));

/** Migration files in the order dbmate applies them. */
export function migrationFiles(): string[] {
  return readdirSync(migrationsDirectory)
    .filter((f) => f.endsWith('.sql'))
    .sort();
}

/** A digest of every migration's name and content: equal digests mean equal schemas. */
export function migrationsDigest(): string {
  const hash = createHash('sha256');
  for (const file of migrationFiles()) {
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(migrationsDirectory + file))
      .update('\0');
  }
  return hash.digest('hex');
}

/** dbmate speaks lib/pq, which defaults to TLS; local and compose databases have none unless the URL says so. */
export function dbmateUrl(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  if (!url.searchParams.has('sslmode')) url.searchParams.set('sslmode', 'disable');
  return url.toString();
}

async function dbmate(databaseUrl: string, ...command: string[]): Promise<string> {
  const { stdout } = await run(resolveBinary(), ['--url', dbmateUrl(databaseUrl), '--migrations-dir', migrationsDirectory, '--no-dump-schema', ...command], { timeout: 120_000 });
  return stdout;
}

/** Applies every pending migration (creating the database if it is missing). Idempotent. */
export async function migrate(databaseUrl: string): Promise<string> {
  return dbmate(databaseUrl, '--wait', '--wait-timeout', '30s', 'up');
}

/** Rolls back the most recent migration. */
export async function rollback(databaseUrl: string): Promise<string> {
  return dbmate(databaseUrl, 'rollback');
}

/** Lists applied and pending migrations. */
export async function migrationStatus(databaseUrl: string): Promise<string> {
  return dbmate(databaseUrl, 'status');
}
