import type { Database, Db } from './database.js';
import type { Prisma } from './generated/prisma/client.js';

/** Outcome of a compare-and-set write, decided by the database (`UPDATE … WHERE revision = $expected`). */
export type CasOutcome = 'updated' | 'not_found' | 'version_conflict';

/**
 * One transaction: everything `work` does commits together or not at all (a thrown error rolls it back). Its
 * waits are the client's (createDatabase: start within DEPENDENCY_TIMEOUT_MS, statements within the request's
 * dependency budget), so a transaction never holds a request past its bound.
 */
export function inTransaction<T>(database: Database, work: (tx: Db) => Promise<T>, options?: TransactionOptions): Promise<T> {
  const joined = (database as Joinable)[JOINED];
  return joined ? work(joined) : database.prisma.$transaction((tx) => work(dbOf(tx)), options);
}

/** The Db of one Prisma interactive transaction: its models, and its raw statements through Prisma's client. */
function dbOf(tx: Prisma.TransactionClient): Db {
  return { prisma: tx, rows: <T>(query: Prisma.Sql) => tx.$queryRaw<T[]>(query), execute: (query: Prisma.Sql) => tx.$executeRaw(query) };
}

/** What a transaction may be opened with (Prisma's): isolation level and its own waits. */
export type TransactionOptions = Parameters<Database['prisma']['$transaction']>[1];

/**
 * The transaction a Database made by withinTransaction stands for: inTransaction joins it instead of opening one.
 * Every transaction is opened here (lint forbids `$transaction` elsewhere), so the join cannot be bypassed.
 */
const JOINED = Symbol('the joined transaction');
type Joinable = Database & { readonly [JOINED]?: Db };

/** One transaction that changes a workspace's authorization state, inside Database.changeAuthorization. */
export function inAuthorizationTransaction<T>(database: Database, workspaceId: string, work: (tx: Db) => Promise<T>): Promise<T> {
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
export function inPermissionTransaction<T>(database: Database, workspaceId: string, work: (tx: Db) => Promise<T>): Promise<T> {
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

/**
 * The database as seen from inside `tx`: every statement, Prisma call and nested transaction of a procedure
 * invoked with it runs in `tx` (a nested inTransaction joins it), so a procedure written for the pool can commit or
 * roll back together with its caller's own writes (an automation step and the compare-and-set of the run's cursor).
 * Its `prisma` is the transaction's client: it has no `$transaction`, which only inTransaction calls, and joins.
 */
export function withinTransaction(database: Database, tx: Db): Database {
  const joined: Joinable = {
    [JOINED]: tx,
    prisma: tx.prisma as Database['prisma'],
    rows: (query) => tx.rows(query),
    execute: (query) => tx.execute(query),
    transaction: (work) => work(tx),
    ping: (timeoutMs) => database.ping(timeoutMs),
    changeAuthorization: () => Promise.reject(new Error('an authorization change cannot join another transaction')),
    close: () => Promise.resolve(),
  };
  return joined;
}
