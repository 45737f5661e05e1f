import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { loadConfig } from '@workcell/config';
import { migrate, migrationFiles, rollback } from '@workcell/migrations';
import { createTestDatabase } from '@workcell/testing';
import { findSchemaDrift, SQL_ONLY_INDEXES } from './schema-drift.js';

// The compiled test runs from libs/db/dist/.
const root = new URL('../../../', import.meta.url);
const schemaText = readFileSync(new URL('prisma/schema.prisma', root), 'utf8');

function databaseUrl(database: string): string {
  const url = new URL(loadConfig().database.url);
  url.pathname = `/${database}`;
  return url.toString();
}

const dbmate = (url: string, command: 'up' | 'down'): Promise<string> => (command === 'up' ? migrate(url) : rollback(url));

async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function execute(url: string, sql: string): Promise<void> {
  await withClient(url, async (client) => {
    await client.query(sql);
  });
}

/** A fingerprint of everything in the public schema plus the applied migration versions. */
async function schemaFingerprint(url: string): Promise<string> {
  return withClient(url, async (client) => {
    const { rows } = await client.query<{ fingerprint: string }>(`
      SELECT coalesce(string_agg(x, E'\\n' ORDER BY x), '') AS fingerprint FROM (
        SELECT format('column %s.%s %s %s %s', table_name, column_name, udt_name, is_nullable, column_default) AS x
          FROM information_schema.columns WHERE table_schema = 'public'
        UNION ALL SELECT format('index %s', indexdef) FROM pg_indexes WHERE schemaname = 'public'
        UNION ALL SELECT format('constraint %s %s', conname, pg_get_constraintdef(oid))
          FROM pg_constraint WHERE connamespace = 'public'::regnamespace
        UNION ALL SELECT format('function %s', oid::regprocedure) FROM pg_proc WHERE pronamespace = 'public'::regnamespace
        UNION ALL SELECT format('type %s', typname) FROM pg_type WHERE typnamespace = 'public'::regnamespace AND typtype = 'e'
        UNION ALL SELECT format('migration %s', version) FROM schema_migrations
      ) parts`);
    return rows[0]?.fingerprint ?? '';
  });
}

describe('schema drift: schema.prisma against the migrated database', () => {
  it('agree', async () => {
    const db = await createTestDatabase();
    try {
      assert.deepEqual(await findSchemaDrift(schemaText, db.url), []);
    } finally {
      await db.drop();
    }
  });

  const cases: readonly { name: string; sql: string; expected: readonly RegExp[] }[] = [
    {
      name: 'a column that became nullable',
      sql: 'ALTER TABLE tasks ALTER COLUMN title DROP NOT NULL',
      expected: [/^column tasks\.title: nullability differs \(schema\.prisma: NOT NULL, database: NULL\)$/],
    },
    {
      name: 'a dropped declared index',
      sql: 'DROP INDEX tasks_workspace_id_project_id_idx',
      expected: [/^index \(workspace_id, project_id\) on tasks is declared in schema\.prisma but missing in the database$/],
    },
    {
      name: 'a column the schema does not declare',
      sql: 'ALTER TABLE projects ADD COLUMN rogue int',
      expected: [/^column projects\.rogue \(integer\) exists in the database but not in schema\.prisma/],
    },
    {
      name: 'a changed column type',
      sql: 'ALTER TABLE files ALTER COLUMN size_bytes TYPE integer',
      expected: [/^column files\.size_bytes: type differs \(schema\.prisma: bigint, database: integer\)$/],
    },
    {
      name: 'a changed id default',
      sql: 'ALTER TABLE tags ALTER COLUMN id SET DEFAULT gen_random_uuid()',
      expected: [/^column tags\.id: default differs \(schema\.prisma: uuidv7\(\), database: gen_random_uuid\(\)\)$/],
    },
    {
      name: 'a dropped table',
      sql: 'DROP TABLE task_tags',
      expected: [/^table task_tags \(model TaskTag\) is declared in schema\.prisma but missing in the database$/],
    },
    {
      name: 'a table the schema does not declare, without workspace_id',
      sql: 'CREATE TABLE rogue_things (id uuid PRIMARY KEY)',
      expected: [/^table rogue_things exists in the database but not in schema\.prisma$/, /^tenancy: table rogue_things has no workspace_id column/],
    },
    {
      name: 'an undeclared unique index that crosses tenants',
      sql: 'CREATE UNIQUE INDEX tasks_global_id_key ON tasks (id)',
      expected: [
        /^unique index tasks_global_id_key \(id\) on tasks exists in the database but not in schema\.prisma/,
        /^tenancy: unique index tasks_global_id_key \(id\) on tasks does not include workspace_id$/,
      ],
    },
    {
      name: 'a dropped foreign key',
      sql: 'ALTER TABLE time_entries DROP CONSTRAINT time_entries_workspace_id_task_id_fkey',
      expected: [/^foreign key time_entries\(workspace_id, task_id\) -> tasks\(workspace_id, id\) is declared in schema\.prisma but missing/],
    },
    {
      name: 'a foreign key with a different delete rule',
      sql: `ALTER TABLE call_notes DROP CONSTRAINT call_notes_workspace_id_contact_id_fkey,
              ADD CONSTRAINT call_notes_workspace_id_contact_id_fkey FOREIGN KEY (workspace_id, contact_id)
              REFERENCES contacts (workspace_id, id) ON DELETE CASCADE ON UPDATE RESTRICT`,
      expected: [/^foreign key call_notes\(workspace_id, contact_id\) -> contacts\(workspace_id, id\): ON DELETE differs \(schema\.prisma: Restrict, database: Cascade\)$/],
    },
    {
      name: 'an extra enum value',
      sql: "ALTER TYPE task_status ADD VALUE 'blocked'",
      expected: [/^enum type task_status: values differ/],
    },
    {
      name: 'a missing allow-listed SQL-only index',
      sql: 'DROP INDEX time_entries_one_running_timer_key',
      expected: [/^SQL-only index time_entries_one_running_timer_key on time_entries .* is missing in the database$/],
    },
  ];

  for (const { name, sql, expected } of cases) {
    it(`reports ${name}`, async () => {
      const db = await createTestDatabase();
      try {
        await execute(db.url, sql);
        const drift = await findSchemaDrift(schemaText, db.url);
        assert.equal(drift.length, expected.length, `expected ${expected.length} difference(s), got:\n${drift.join('\n')}`);
        for (const pattern of expected) {
          assert.ok(
            drift.some((line) => pattern.test(line)),
            `no difference matches ${pattern}; got:\n${drift.join('\n')}`,
          );
        }
      } finally {
        await db.drop();
      }
    });
  }

  it('allow-lists SQL-only indexes with a reason each', () => {
    for (const entry of SQL_ONLY_INDEXES) assert.ok(entry.reason.length > 10, `${entry.name} needs a reason`);
  });
});

describe('migrations: up is idempotent, down removes everything, up again restores', () => {
  const name = `wc_drift_${process.pid}_${randomBytes(4).toString('hex')}`;
  const url = databaseUrl(name);
  const admin = databaseUrl('postgres');

  beforeAll(async () => {
    await execute(admin, `CREATE DATABASE "${name}"`);
  });

  afterAll(async () => {
    await execute(admin, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  });

  it('applies to an empty database without drift', async () => {
    await dbmate(url, 'up');
    assert.deepEqual(await findSchemaDrift(schemaText, url), []);
  });

  it('changes nothing when run a second time', async () => {
    const fingerprint = await schemaFingerprint(url);
    await dbmate(url, 'up');
    assert.equal(await schemaFingerprint(url), fingerprint);
    assert.deepEqual(await findSchemaDrift(schemaText, url), []);
  });

  it('drops everything it created on down, and up works again', async () => {
    // dbmate rolls back one migration per `down`: undo every one, newest first, each through its own down section.
    for (const _file of migrationFiles()) await dbmate(url, 'down');
    const leftovers = await withClient(url, async (client) => {
      const { rows } = await client.query<{ object: string }>(`
        SELECT 'table ' || relname AS object FROM pg_class
         WHERE relnamespace = 'public'::regnamespace AND relkind IN ('r', 'p', 'v', 'm', 'S') AND relname NOT LIKE 'schema_migrations%'
        UNION ALL SELECT 'type ' || typname FROM pg_type
         WHERE typnamespace = 'public'::regnamespace AND typtype IN ('e', 'c', 'd') AND typname NOT LIKE '%schema_migrations%'
        UNION ALL SELECT 'function ' || oid::regprocedure FROM pg_proc WHERE pronamespace = 'public'::regnamespace`);
      return rows.map((r) => r.object);
    });
    assert.deepEqual(leftovers, []);
    await dbmate(url, 'up');
    assert.deepEqual(await findSchemaDrift(schemaText, url), []);
  });
});
