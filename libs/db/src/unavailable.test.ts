import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
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
    ];
    for (const error of cases) assert.equal(isDatabaseUnavailable(error), true, JSON.stringify(error, Object.getOwnPropertyNames(error as object)));
  });

  it('leaves statements PostgreSQL refused, and anything else, to be errors', () => {
    const cases: unknown[] = [Object.assign(new Error('Unique constraint failed'), { code: 'P2002' }), { code: '23505', message: 'duplicate key value' }, new Error('boom'), null, 'text', undefined];
    for (const error of cases) assert.equal(isDatabaseUnavailable(error), false, String(error));
  });
});
