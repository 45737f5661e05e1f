// The baseline is the raw stack itself (Fastify and pg with no platform around them), which the tools' module
// boundaries otherwise keep out of tools/.
// eslint-disable-next-line @nx/enforce-module-boundaries
import Fastify from 'fastify';
// eslint-disable-next-line @nx/enforce-module-boundaries
import pg from 'pg';
import { Redis } from 'ioredis';
import { ADMIT_KNOWN, authorizationEpochKeys, runScript } from '@workcell/redis';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';

/**
 * The baseline of `npm run bench`: a bare Fastify server over a `pg` pool, with no authentication, rate limit,
 * envelope or request log, doing the least database work each candidate route must do, on the same tables:
 *   GET  /tasks/:id  one SELECT of the task row
 *   GET  /tasks      the first page of 100 unarchived tasks in id order (v1 listTasks' order)
 *   POST /tasks      a single-row INSERT … RETURNING
 *   GET  /gated/tasks/:id  the gate's one Redis round trip (the API's admission script, ADMIT_KNOWN, with its keys),
 *                    then the row read: the raw stack with the guarantee the issue keeps (the cost ledger's first line)
 *   GET  /gated-statement/tasks/:id  the same script, then the API's own getTask statement (its text and values as the
 *                    API sent them, recorded by DATABASE_STATEMENT_LOG and written by the harness to <statement file>,
 *                    the task id put in the recorded one's place), unnamed as the API sends it (planned every time):
 *                    the raw stack doing the API's database work
 *   GET  /gated-statement-prepared/tasks/:id  the same, prepared once per connection (what preparing would buy)
 * Usage: node baseline-server.bench.js <port> <database url> <workspace id> <redis url> <redis key prefix> <statement file>
 */

const [port, databaseUrl, workspaceId, redisUrl, redisPrefix, statementFile] = process.argv.slice(2) as [string, string, string, string, string, string];
const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
// As the API's connection is made (libs/redis createRedis): its own key prefix, auto-pipelining.
const redis = new Redis(redisUrl, { keyPrefix: `${redisPrefix}:`, enableAutoPipelining: true });
const epochKeys = authorizationEpochKeys(workspaceId);
const budget = `rl:v1:{${workspaceId}}:c:baseline:read`;
const app = Fastify({ logger: false });

const COLUMNS = 'id, project_id, list_id, assignee_member_id, title, description, status, priority, due_at, estimate_minutes, completed_at, revision, archived_at, created_at, updated_at';

app.get('/readyz', async () => {
  await pool.query('SELECT 1');
  return { status: 'ok' };
});

app.get<{ Params: { id: string } }>('/tasks/:id', async (request, reply) => {
  const { rows } = await pool.query(`SELECT ${COLUMNS} FROM tasks WHERE workspace_id = $1 AND id = $2`, [workspaceId, request.params.id]);
  if (rows.length === 0) return reply.code(404).send({ error: 'not found' });
  return { data: rows[0] };
});

app.get<{ Params: { id: string } }>('/gated/tasks/:id', async (request, reply) => {
  await runScript(redis, ADMIT_KNOWN, [budget, epochKeys.epoch, epochKeys.pending], [60_000, 1_000_000, randomUUID()]);
  const { rows } = await pool.query(`SELECT ${COLUMNS} FROM tasks WHERE workspace_id = $1 AND id = $2`, [workspaceId, request.params.id]);
  if (rows.length === 0) return reply.code(404).send({ error: 'not found' });
  return { data: rows[0] };
});

/** The API's getTask statement, read when first asked for (the harness writes it once the API has sent it). */
let statement: { text: string; values: unknown[]; idIndex: number } | undefined;
async function apiStatement(id: string, prepared: boolean) {
  statement ??= JSON.parse(readFileSync(statementFile, 'utf8')) as { text: string; values: unknown[]; idIndex: number };
  await runScript(redis, ADMIT_KNOWN, [budget, epochKeys.epoch, epochKeys.pending], [60_000, 1_000_000, randomUUID()]);
  const values = statement.values.map((value, index) => (index === statement!.idIndex ? id : value));
  const { rows } = await pool.query(prepared ? { name: 'api-get-task', text: statement.text, values } : { text: statement.text, values });
  return rows[0] as unknown;
}

for (const [path, prepared] of [
  ['/gated-statement/tasks/:id', false],
  ['/gated-statement-prepared/tasks/:id', true],
] as const) {
  app.get<{ Params: { id: string } }>(path, async (request, reply) => {
    const row = await apiStatement(request.params.id, prepared);
    if (row === undefined) return reply.code(404).send({ error: 'not found' });
    return { data: row };
  });
}

app.get<{ Querystring: { limit?: string } }>('/tasks', async (request) => {
  const limit = Math.min(200, Number(request.query.limit ?? 100));
  const { rows } = await pool.query(`SELECT ${COLUMNS} FROM tasks WHERE workspace_id = $1 AND archived_at IS NULL ORDER BY id LIMIT $2`, [workspaceId, limit]);
  return { data: rows };
});

app.post<{ Body: { title?: string } }>('/tasks', async (request, reply) => {
  const title = typeof request.body?.title === 'string' ? request.body.title : 'Baseline task';
  const { rows } = await pool.query(`INSERT INTO tasks (workspace_id, title) VALUES ($1, $2) RETURNING ${COLUMNS}`, [workspaceId, title]);
  const row = rows[0] as { id: string };
  return reply.code(201).header('location', `/tasks/${row.id}`).send({ data: row });
});

const stop = () =>
  void app
    .close()
    .then(() => pool.end())
    .then(() => redis.quit())
    .finally(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);

await app.listen({ port: Number(port), host: '127.0.0.1' });
process.stdout.write(`baseline listening on ${port}\n`);
