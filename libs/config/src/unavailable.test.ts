import assert from 'node:assert/strict';
import { DependencyTimeoutError } from './dependency-budget.js';
import { isDependencyUnavailable } from './unavailable.js';

describe('isDependencyUnavailable', () => {
  it('recognises lost and unreachable connections, also wrapped', () => {
    const cases: unknown[] = [
      Object.assign(new Error("Can't reach database server at 127.0.0.1:5432"), { code: 'P1001' }),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      new Error('query failed', { cause: Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }) }),
      { name: 'DriverAdapterError', cause: { kind: 'DatabaseNotReachable' } },
      { code: '57P01', message: 'terminating connection due to administrator command' },
      { code: '08006' },
      // Timeouts: the request's dependency budget ran out (the client discarded its connection), Prisma could not
      // start a transaction within maxWait, or a transaction outlived its timeout.
      new DependencyTimeoutError('PostgreSQL', 500),
      new Error('wrapped', { cause: new DependencyTimeoutError('PostgreSQL', 500) }),
      new Error('Query read timeout'),
      Object.assign(new Error('Transaction API error: Unable to start a transaction in the given time.'), { code: 'P2028' }),
      Object.assign(new Error('Transaction API error: A commit cannot be executed on an expired transaction. The timeout for this transaction was 15000 ms'), { code: 'P2028' }),
      new Error('Client has encountered a connection error and is not queryable'),
      // A raw query's failure keeps the adapter's error in meta, not in cause.
      Object.assign(new Error('Raw query failed. Code: `N/A`. Message: `Server has closed the connection.`'), {
        code: 'P2010',
        meta: { driverAdapterError: { name: 'DriverAdapterError', cause: { kind: 'ConnectionClosed' } } },
      }),
      Object.assign(new Error('Raw query failed.'), { code: 'P2010', meta: { driverAdapterError: { cause: { kind: 'ConnectionClosed' } } } }),
      // Up but refusing work: too many connections (pg's, the adapter's and Prisma's forms), out of resources,
      // not accepting connections yet. libs/http problems.test.ts meets the real ones from an impostor server.
      { code: '53300', severity: 'FATAL', message: 'sorry, too many clients already' },
      { code: '53100', message: 'could not extend file: No space left on device' },
      { code: '57P03', message: 'the database system is not yet accepting connections' },
      Object.assign(new Error('Too many database connections opened: sorry, too many clients already'), {
        code: 'P2037',
        meta: { driverAdapterError: { cause: { kind: 'TooManyConnections', originalCode: '53300' } } },
      }),
      Object.assign(new Error('Database error. Code: `53200`.'), { code: 'P2039', meta: { driverAdapterError: { cause: { kind: 'postgres', originalCode: '53200', code: '53200' } } } }),
      // Redis: a server loading its dataset, a replica without its master, a cluster down or resharding, a
      // connection that closed or is not open.
      Object.assign(new Error('LOADING Redis is loading the dataset in memory'), { name: 'ReplyError' }),
      Object.assign(new Error("MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to 'no'."), { name: 'ReplyError' }),
      Object.assign(new Error('CLUSTERDOWN The cluster is down'), { name: 'ReplyError' }),
      Object.assign(new Error('TRYAGAIN Multiple keys request during rehashing of slot'), { name: 'ReplyError' }),
      // A failover demoted the master this connection writes to (issue 25).
      Object.assign(new Error("READONLY You can't write against a read only replica."), { name: 'ReplyError' }),
      // pg's own connect timeout on a pool's new connection (libs/db BudgetedClient).
      new Error('timeout expired'),
      new Error('Too many Cluster redirections. Last error: ReplyError: CLUSTERDOWN Hash slot not served'),
      new Error('Connection is closed.'),
      new Error("Stream isn't writeable and enableOfflineQueue options is false"),
      Object.assign(new Error('Reached the max retries per request limit (which is 1). Refer to "maxRetriesPerRequest" option for details.'), { name: 'MaxRetriesPerRequestError' }),
      // A prepared read that a migration made stale, refused inside a transaction (libs/db prepared-reads.test.ts).
      { code: '0A000', message: 'cached plan must not change result type' },
    ];
    for (const error of cases) assert.equal(isDependencyUnavailable(error), true, JSON.stringify(error, Object.getOwnPropertyNames(error as object)));
  });

  it('leaves statements PostgreSQL refused, and anything else, to be errors', () => {
    const cases: unknown[] = [
      // Misusing a finished transaction is a bug, not an outage.
      Object.assign(new Error('Transaction API error: Transaction already closed: A query cannot be executed on a committed transaction.'), { code: 'P2028' }),
      Object.assign(new Error('Unique constraint failed'), { code: 'P2002' }),
      Object.assign(new Error('Raw query failed.'), { code: 'P2010', meta: { driverAdapterError: { cause: { kind: 'postgres', code: '22P02' } } } }),
      { code: '23505', message: 'duplicate key value' },
      // Refusals for what was asked: a query canceled by its statement timeout, a wrong Redis command or script.
      { code: '57014', message: 'canceling statement due to statement timeout' },
      { code: '0A000', message: 'cannot use subquery in check constraint' },
      Object.assign(new Error('ERR unknown command'), { name: 'ReplyError' }),
      Object.assign(new Error('WRONGTYPE Operation against a key holding the wrong kind of value'), { name: 'ReplyError' }),
      new Error('boom'),
      null,
      'text',
      undefined,
    ];
    for (const error of cases) assert.equal(isDependencyUnavailable(error), false, String(error));
  });
});
