import assert from 'node:assert/strict';
import { analyseStatement, type Distribution, loadParser } from './analyse.js';

const distribution: Distribution = new Map([
  ['tasks', 'workspace_id'],
  ['projects', 'workspace_id'],
  ['outbox_events', 'workspace_id'],
  ['workspaces', 'id'],
]);
const W = '0193a000-0000-7000-8000-000000000001';
const OTHER = '0193a000-0000-7000-8000-000000000002';
const kinds = (text: string, values: unknown[] = [W, W, W]) => analyseStatement(text, values, distribution).map((v) => `${v.kind}:${v.tables.join(',')}`);

describe('the Citus routing rule on parse trees', () => {
  beforeAll(() => loadParser());

  it('accepts an equality on workspace_id, qualified or not, parameter or literal', () => {
    assert.deepEqual(kinds('SELECT * FROM tasks WHERE workspace_id = $1 AND id = $2'), []);
    assert.deepEqual(kinds(`SELECT t.id FROM "public"."tasks" AS t WHERE t."workspace_id" = $1::uuid`), []);
    assert.deepEqual(kinds(`DELETE FROM tasks WHERE id = $2 AND workspace_id = '${W}'`), []);
    assert.deepEqual(kinds('UPDATE tasks SET title = $2 WHERE workspace_id = $1 AND id = $3 RETURNING *'), []);
    assert.deepEqual(kinds('SELECT * FROM tasks WHERE workspace_id IN ($1) AND id = $2'), []);
  });

  it('refuses a tenant table without the equality, or with it only under OR, ANY or a range', () => {
    assert.deepEqual(kinds('SELECT * FROM tasks WHERE id = $1'), ['unrouted:tasks']);
    assert.deepEqual(kinds('SELECT * FROM tasks WHERE workspace_id = $1 OR id = $2'), ['unrouted:tasks']);
    assert.deepEqual(kinds('SELECT * FROM tasks WHERE workspace_id = ANY($1)'), ['unrouted:tasks']);
    assert.deepEqual(kinds('SELECT * FROM outbox_events WHERE published_at IS NULL ORDER BY id LIMIT 200 FOR UPDATE SKIP LOCKED'), ['unrouted:outbox_events']);
    assert.deepEqual(kinds('UPDATE tasks SET title = $1 WHERE id = $2'), ['unrouted:tasks']);
  });

  it('follows co-located joins and correlations to the one bound table', () => {
    assert.deepEqual(kinds('SELECT t.* FROM tasks t JOIN projects p ON p.workspace_id = t.workspace_id AND p.id = t.project_id WHERE t.workspace_id = $1'), []);
    assert.deepEqual(kinds('SELECT t.* FROM tasks t JOIN projects p ON p.id = t.project_id WHERE t.workspace_id = $1'), ['unrouted:projects']);
    assert.deepEqual(kinds('SELECT * FROM tasks t WHERE t.workspace_id = $1 AND EXISTS (SELECT 1 FROM projects p WHERE p.workspace_id = t.workspace_id AND p.id = t.project_id)'), []);
    assert.deepEqual(kinds('SELECT * FROM tasks t WHERE t.workspace_id = $1 AND t.project_id IN (SELECT id FROM projects)'), ['unrouted:projects']);
    assert.deepEqual(kinds('SELECT w.name FROM workspaces w JOIN tasks t ON t.workspace_id = w.id WHERE w.id = $1'), []);
  });

  it('follows subqueries and CTEs that expose workspace_id, and their own conditions', () => {
    assert.deepEqual(kinds('WITH x AS (SELECT id, workspace_id FROM tasks WHERE workspace_id = $1) SELECT * FROM x JOIN projects p ON p.workspace_id = x.workspace_id'), []);
    assert.deepEqual(kinds('WITH x AS (SELECT id FROM tasks) SELECT * FROM x'), ['unrouted:tasks']);
    assert.deepEqual(kinds('SELECT * FROM (SELECT workspace_id, id FROM tasks) s WHERE s.workspace_id = $1'), []);
  });

  it('binds an INSERT through its workspace_id column, from VALUES or a SELECT', () => {
    assert.deepEqual(kinds('INSERT INTO tasks (id, workspace_id, title) VALUES ($2, $1, $3) ON CONFLICT (id) DO UPDATE SET title = excluded.title'), []);
    assert.deepEqual(kinds('INSERT INTO tasks (id, title) VALUES ($1, $2)'), ['unrouted:tasks']);
    assert.deepEqual(kinds('INSERT INTO outbox_events (workspace_id, type) SELECT workspace_id, $2 FROM tasks WHERE workspace_id = $1 AND id = $3'), []);
    assert.deepEqual(kinds('INSERT INTO outbox_events (workspace_id, type) SELECT workspace_id, $1 FROM tasks'), ['unrouted:outbox_events,tasks']);
    assert.deepEqual(kinds(`INSERT INTO outbox_events (workspace_id, sequence) SELECT $1::uuid, next_event_sequence($1::uuid) FROM generate_series(1, 3)`), []);
  });

  it('takes row equalities pairwise and IN lists element by element', () => {
    assert.deepEqual(kinds('SELECT * FROM tasks t LEFT JOIN projects p ON (p.workspace_id, p.id) = (t.workspace_id, t.project_id) WHERE t.workspace_id = $1'), []);
    assert.deepEqual(kinds('SELECT * FROM tasks t LEFT JOIN projects p ON (p.id, p.workspace_id) = (t.workspace_id, t.project_id) WHERE t.workspace_id = $1'), ['unrouted:projects']);
    assert.deepEqual(kinds('SELECT * FROM tasks WHERE workspace_id IN ($1, $2) AND id IN ($3, $4)', [W, W, 'a', 'b']), []);
    assert.deepEqual(kinds('SELECT * FROM tasks WHERE workspace_id IN ($1, $2)', [W, OTHER]), ['two-workspaces:tasks']);
    assert.deepEqual(kinds('SELECT * FROM tasks WHERE workspace_id IN (NULL) AND id IN (NULL)'), []);
  });

  it('binds a column pinned in every branch of an OR, as Prisma batches lookups', () => {
    assert.deepEqual(kinds('SELECT * FROM tasks WHERE (workspace_id = $1 AND id = $2) OR (workspace_id = $3 AND id = $4)', [W, 'a', W, 'b']), []);
    assert.deepEqual(kinds('SELECT * FROM tasks WHERE (workspace_id = $1 AND id = $2) OR (workspace_id = $3 AND id = $4)', [W, 'a', OTHER, 'b']), ['two-workspaces:tasks']);
    assert.deepEqual(kinds('SELECT * FROM tasks WHERE (workspace_id = $1 AND id = $2) OR id = $3'), ['unrouted:tasks']);
  });

  it('lets a subquery see the CTEs of its level', () => {
    const search =
      'WITH ws AS (SELECT $1::uuid AS id) SELECT h.id FROM ((SELECT r.id FROM ws, tasks r WHERE r.workspace_id = ws.id) UNION ALL (SELECT r.id FROM ws, projects r WHERE r.workspace_id = ws.id)) h';
    assert.deepEqual(kinds(search), []);
    assert.deepEqual(kinds(search.replace('r.workspace_id = ws.id)) h', 'true)) h')), ['unrouted:projects']);
  });

  it('finds two workspaces by differing literals or recorded parameter values', () => {
    assert.deepEqual(kinds(`SELECT * FROM tasks WHERE workspace_id = $1 UNION ALL SELECT * FROM tasks WHERE workspace_id = $2`, [W, OTHER]), ['two-workspaces:tasks']);
    assert.deepEqual(kinds(`SELECT * FROM tasks WHERE workspace_id = $1 UNION ALL SELECT * FROM tasks WHERE workspace_id = $2`, [W, W]), []);
    assert.deepEqual(kinds(`SELECT * FROM tasks t, projects p WHERE t.workspace_id = '${W}' AND p.workspace_id = '${OTHER}'`), ['two-workspaces:projects,tasks']);
  });

  it('leaves statements on other tables alone, and reports what PostgreSQL cannot parse', () => {
    assert.deepEqual(kinds('SELECT 1'), []);
    assert.deepEqual(kinds('BEGIN'), []);
    assert.deepEqual(kinds('SELECT * FROM schema_migrations'), []);
    assert.deepEqual(kinds('SELEC nonsense'), ['unparsable:']);
  });
});
