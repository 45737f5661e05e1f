import { type Database, type Db, IN_TRANSACTION } from './database.js';
import type { Prisma } from './generated/prisma/client.js';

/** Outcome of a compare-and-set write, decided by the database (`UPDATE … WHERE revision = $expected`). */
export type CasOutcome = 'updated' | 'not_found' | 'version_conflict';

/**
 * One transaction: everything `work` does commits together or not at all (a thrown error rolls it back). On the pool
 * it opens one; on a Db that is a transaction already it joins it, so a function written for the pool, given a
 * caller's transaction (an automation step inside its run's, a device login's redemption), commits or rolls back
 * with the caller's own writes. Its waits are the client's (createDatabase: start within DEPENDENCY_TIMEOUT_MS,
 * statements within the request's dependency budget), so a transaction never holds a request past its bound.
 * Every transaction is opened here (lint forbids `$transaction` elsewhere), so the join cannot be bypassed.
 */
export async function inTransaction<T>(db: Db, work: (tx: Db) => Promise<T>, options?: TransactionOptions): Promise<T> {
  if (isTransaction(db)) return work(db);
  const woken = new Set<string>();
  const result = await (db as Database).prisma.$transaction((tx) => work(dbOf(tx, woken)), options);
  // Committed: the outbox's listeners of the workspaces it wrote events for may read them now.
  for (const workspaceId of woken) db.wakeOutbox(workspaceId);
  return result;
}

/**
 * One transaction for statements only, straight through pg (Database.transaction: the thin path of a hot transaction,
 * the webhook relay's); like inTransaction it joins a transaction `db` is already.
 */
export function inStatementTransaction<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  return isTransaction(db) ? work(db) : (db as Database).transaction(work);
}

/** Whether `db` is one transaction (inTransaction's, Database.transaction's), not the pool. */
export function isTransaction(db: Db): boolean {
  return db[IN_TRANSACTION] === true;
}

/**
 * The Db of one Prisma interactive transaction: its models, and its raw statements through Prisma's client; the
 * workspaces whose outbox listeners it wakes are noted in `woken`, woken by inTransaction once it has committed.
 */
function dbOf(tx: Prisma.TransactionClient, woken: Set<string>): Db {
  return {
    [IN_TRANSACTION]: true,
    prisma: tx,
    rows: <T>(query: Prisma.Sql) => tx.$queryRaw<T[]>(query),
    execute: (query: Prisma.Sql) => tx.$executeRaw(query),
    wakeOutbox: (workspaceId) => void woken.add(workspaceId),
  };
}

/** The pool an authorization change opens its transaction on (a Db that is no transaction is the Database). */
function poolOf(db: Db): Database {
  if (isTransaction(db)) throw new Error('an authorization change opens its own transaction on the pool: it cannot join another transaction');
  return db as Database;
}

/** What a transaction may be opened with (Prisma's): isolation level and its own waits. */
export type TransactionOptions = Parameters<Database['prisma']['$transaction']>[1];

/**
 * One transaction that changes a workspace's authorization state, inside Database.changeAuthorization: opened on the
 * pool, never joined (the epoch's two moves must bracket its commit).
 */
export async function inAuthorizationTransaction<T>(db: Db, workspaceId: string, work: (tx: Db) => Promise<T>): Promise<T> {
  const database = poolOf(db);
  return database.changeAuthorization(workspaceId, () => inTransaction(database, work));
}

/**
 * A transaction that changes who may do what in a workspace (role permissions, role assignment, member
 * status, membership). It first takes the workspace's permission lock (a transaction-scoped advisory
 * lock), so such changes run one after another per workspace: a rule over the whole workspace (at least
 * one administrator remains) checked inside the transaction cannot be broken by two concurrent changes
 * that are each fine alone (write skew). Other workspaces are not blocked. It is an authorization change
 * (Database.changeAuthorization): API instances re-verify the workspace's credentials on their next request.
 */
export async function inPermissionTransaction<T>(db: Db, workspaceId: string, work: (tx: Db) => Promise<T>): Promise<T> {
  const database = poolOf(db);
  return database.changeAuthorization(workspaceId, () =>
    inTransaction(database, async (tx) => {
      await lockPermissions(tx, workspaceId);
      return work(tx);
    }),
  );
}

/**
 * The workspace's permission lock alone, for a transaction that must not interleave with permission changes but
 * changes no authorization itself (creating an invitation, which deleteRole's role_in_use check must see).
 */
export async function lockPermissions(tx: Db, workspaceId: string): Promise<void> {
  await tx.prisma.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`workcell:permissions:${workspaceId}`}::text, 0))`;
}
