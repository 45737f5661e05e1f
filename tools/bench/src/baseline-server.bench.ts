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
import { type CreateStatements, type RecordedRead, UNSEQUENCED_START } from './recorded-statements.js';

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
 * and the write ledger's routes, each running the API's own createTask statements (recorded as above, written by the
 * harness to <create statement file>) with a fresh task id in the recorded one's place:
 *   POST /statement/tasks              the unkeyed createTask statement: the task and its event with the workspace's
 *                                      next sequence (next_event_sequence)
 *   POST /statement-notified/tasks     the same with the NOTIFY waking the relay queued in it, as the API sent it
 *                                      before the fourteenth session (it now wakes after the commit, outbox-wakes.ts)
 *   POST /statement-unsequenced/tasks  the same with a plain sequence (nextval, no counter row held to commit) in
 *                                      place of next_event_sequence
 *   POST /keyed-statement/tasks        the idempotency claim with a fresh key, then the keyed createTask statement
 *                                      (which completes the claimed key): what a keyed create sends
 * Usage: node baseline-server.bench.js <port> <database url> <workspace id> <redis url> <redis key prefix> <statement file> <create statement file>
 */

const [port, databaseUrl, workspaceId, redisUrl, redisPrefix, statementFile, createStatementFile] = process.argv.slice(2) as [string, string, string, string, string, string, string];
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
let statement: RecordedRead | undefined;
async function apiStatement(id: string, prepared: boolean) {
  statement ??= JSON.parse(readFileSync(statementFile, 'utf8')) as RecordedRead;
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

let creates: CreateStatements | undefined;
let unsequencedReady: Promise<unknown> | undefined;

/** A time-ordered id (the uuidv7 layout the API's ids have), so index inserts land where the API's do. */
function timeOrderedId(): string {
  const time = Date.now().toString(16).padStart(12, '0');
  const random = randomUUID();
  return `${time.slice(0, 8)}-${time.slice(8)}-7${random.slice(15, 18)}-${random.slice(19)}`;
}

/** The recorded values with each occurrence of its ids (in columns and inside the event's JSON) replaced. */
function withIds(values: readonly unknown[], replacements: readonly (readonly [string, string])[]): unknown[] {
  return values.map((value) => (typeof value === 'string' ? replacements.reduce((v, [from, to]) => v.replaceAll(from, to), value) : value));
}

const WRITE_VARIANTS: Record<string, (text: string) => string> = {
  '/statement/tasks': (text) => text,
  '/statement-notified/tasks': (text) =>
    changed(text, text.replace(/SELECT appended\.sequence FROM appended\s*$/, `SELECT appended.sequence FROM appended CROSS JOIN pg_notify('workcell_outbox', '${workspaceId}')`)),
  '/statement-unsequenced/tasks': (text) => changed(text, text.replace(/next_event_sequence\((\$\d+)::uuid\)/, "(nextval('bench_event_sequence') + CASE WHEN $1::uuid IS NULL THEN 0 ELSE 0 END)")),
};

/** A variant that would send the recorded statement unchanged measures nothing: its requests fail instead. */
function changed(recorded: string, variant: string): string {
  if (variant === recorded) throw new Error('the recorded createTask statement no longer has the part this route changes');
  return variant;
}
for (const [path, variant] of Object.entries(WRITE_VARIANTS)) {
  app.post(path, async (_request, reply) => {
    creates ??= JSON.parse(readFileSync(createStatementFile, 'utf8')) as CreateStatements;
    if (path === '/statement-unsequenced/tasks') await (unsequencedReady ??= pool.query(`CREATE SEQUENCE IF NOT EXISTS bench_event_sequence START ${UNSEQUENCED_START}`));
    const id = timeOrderedId();
    await pool.query({ text: variant(creates.unkeyed.text), values: withIds(creates.unkeyed.values, [[creates.unkeyed.taskId, id]]) });
    return reply.code(201).header('location', `/tasks/${id}`).send({ data: { id } });
  });
}

app.post('/keyed-statement/tasks', async (_request, reply) => {
  creates ??= JSON.parse(readFileSync(createStatementFile, 'utf8')) as CreateStatements;
  const { claim, keyed } = creates;
  const claimed = await pool.query<{ id: string }>({ text: claim.text, values: claim.values.map((value, index) => (index === claim.keyIndex ? randomUUID() : value)) });
  const id = timeOrderedId();
  await pool.query({
    text: keyed.text,
    values: withIds(keyed.values, [
      [keyed.taskId, id],
      [keyed.recordId, claimed.rows[0]!.id],
    ]),
  });
  return reply.code(201).header('location', `/tasks/${id}`).send({ data: { id } });
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
    .then(() => redis.quit())
    .finally(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);

await app.listen({ port: Number(port), host: '127.0.0.1' });
process.stdout.write(`baseline listening on ${port}\n`);
