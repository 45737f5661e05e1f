import assert from 'node:assert/strict';
import pg from 'pg';
import { Redis } from 'ioredis';
import { postgresRefusing, redisReplying, startImpostor } from './impostors.js';

describe('impostors', () => {
  it('a PostgreSQL at max_connections: pg reads FATAL 53300 at connect; an SSL request is declined', async () => {
    const server = await startImpostor(postgresRefusing(), 'postgresql');
    const connection = { connectionString: `${server.url}/any`, user: 'u', password: 'p' };
    try {
      const client = new pg.Client(connection);
      client.on('error', () => undefined);
      await assert.rejects(client.connect(), { code: '53300', severity: 'FATAL', message: 'sorry, too many clients already' });
      const pool = new pg.Pool(connection);
      await assert.rejects(pool.query('SELECT 1'), { code: '53300' });
      await pool.end();
      // The 'N' is read: pg requiring TLS gives up rather than waiting.
      const tls = new pg.Client({ ...connection, ssl: { rejectUnauthorized: false } });
      tls.on('error', () => undefined);
      await assert.rejects(tls.connect(), /does not support SSL/);
    } finally {
      await server.close();
    }
  });

  it('a Redis loading its dataset: the connection becomes ready, every command is answered -LOADING', async () => {
    const server = await startImpostor(redisReplying(), 'redis');
    const redis = new Redis(server.url, { connectionName: 'impostor-test', maxRetriesPerRequest: 0 });
    redis.on('error', () => undefined);
    try {
      await assert.rejects(redis.get('k'), (error: Error) => error.name === 'ReplyError' && error.message.startsWith('LOADING '));
      await assert.rejects(redis.eval('return 1', 0), /^ReplyError: LOADING/);
      assert.equal(redis.status, 'ready');
    } finally {
      redis.disconnect();
      await server.close();
    }
  });
});
