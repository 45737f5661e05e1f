// The baseline is the raw stack itself (Fastify and pg with no platform around them), which the tools' module
// boundaries otherwise keep out of tools/.
// eslint-disable-next-line @nx/enforce-module-boundaries
import Fastify from 'fastify';
// eslint-disable-next-line @nx/enforce-module-boundaries
import pg from 'pg';

/**
 * The baseline of `npm run bench`: a bare Fastify server over a `pg` pool, with no authentication, rate limit,
 * envelope or request log, doing the least database work each candidate route must do, on the same tables:
 *   GET  /tasks/:id  one SELECT of the task row
 *   GET  /tasks      the first page of 100 unarchived tasks in id order (v1 listTasks' order)
 *   POST /tasks      a single-row INSERT … RETURNING
 * Usage: node baseline-server.bench.js <port> <database url> <workspace id>
 */

const [port, databaseUrl, workspaceId] = process.argv.slice(2) as [string, string, string];
const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
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
    .finally(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);

await app.listen({ port: Number(port), host: '127.0.0.1' });
process.stdout.write(`baseline listening on ${port}\n`);
