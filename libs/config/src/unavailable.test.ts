import assert from 'node:assert/strict';
import { DependencyTimeoutError } from '@workcell/config';
import { isDatabaseUnavailable } from './unavailable.js';

describe('isDatabaseUnavailable', () => {
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
      Object.assign(new Error('Raw query failed. Code: `N/A`. Message: `Server has closed the connection.`'), { code: 'P2010', meta: { driverAdapterError: { name: 'DriverAdapterError', cause: { kind: 'ConnectionClosed' } } } }),
      Object.assign(new Error('Raw query failed.'), { code: 'P2010', meta: { driverAdapterError: { cause: { kind: 'ConnectionClosed' } } } }),
    ];
    for (const error of cases) assert.equal(isDatabaseUnavailable(error), true, JSON.stringify(error, Object.getOwnPropertyNames(error as object)));
  });

  it('leaves statements PostgreSQL refused, and anything else, to be errors', () => {
    const cases: unknown[] = [
      // Misusing a finished transaction is a bug, not an outage.
      Object.assign(new Error('Transaction API error: Transaction already closed: A query cannot be executed on a committed transaction.'), { code: 'P2028' }),
      Object.assign(new Error('Unique constraint failed'), { code: 'P2002' }),
      Object.assign(new Error('Raw query failed.'), { code: 'P2010', meta: { driverAdapterError: { cause: { kind: 'postgres', code: '22P02' } } } }), { code: '23505', message: 'duplicate key value' }, new Error('boom'), null, 'text', undefined];
    for (const error of cases) assert.equal(isDatabaseUnavailable(error), false, String(error));
  });
});
