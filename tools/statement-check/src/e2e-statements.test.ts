import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { fingerprintSync } from 'libpg-query';
import { createTestDatabase } from '@workcell/testing';
import type { RecordedStatement } from '@workcell/db';
import { ALLOWED_STATEMENTS } from './allowed.js';
import { analyseStatement, loadParser, type Violation } from './analyse.js';
import { citusDdl, distributionPlan, type DistributionPlan, SCHEMA_REWORK } from './distribution.js';

/** Where the e2e suite's services recorded every distinct statement (tools/e2e/jest.global-setup.js sets it). */
const LOG = fileURLToPath(new URL('../../e2e/statement-log/', import.meta.url));
const DOC = fileURLToPath(new URL('../../../docs/scale-out.md', import.meta.url));

function recorded(): RecordedStatement[] {
  const files = existsSync(LOG) ? readdirSync(LOG).filter((f) => f.endsWith('.jsonl')) : [];
  return files.flatMap((file) =>
    readFileSync(`${LOG}${file}`, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as RecordedStatement),
  );
}

interface Catalogue {
  readonly tables: { table: string; hasWorkspaceId: boolean }[];
  /** Primary keys, unique constraints and unique indexes: their table and columns. */
  readonly uniques: { name: string; table: string; columns: string[] }[];
  readonly foreignKeys: { name: string; table: string; columns: string[]; references: string; referencedColumns: string[] }[];
}

async function catalogue(): Promise<Catalogue> {
  const database = await createTestDatabase();
  const client = new pg.Client({ connectionString: database.url });
  try {
    await client.connect();
    const uniques = await client.query<{ name: string; table: string; columns: string[] }>(`
      SELECT ci.relname AS name, ct.relname AS table,
             ARRAY(SELECT a.attname::text FROM unnest(i.indkey) k JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k) AS columns
      FROM pg_index i JOIN pg_class ci ON ci.oid = i.indexrelid JOIN pg_class ct ON ct.oid = i.indrelid
      JOIN pg_namespace n ON n.oid = ct.relnamespace WHERE n.nspname = 'public' AND i.indisunique`);
    const foreignKeys = await client.query<{ name: string; table: string; columns: string[]; references: string; referencedColumns: string[] }>(`
      SELECT c.conname AS name, ct.relname AS table, cr.relname AS references,
             ARRAY(SELECT a.attname::text FROM unnest(c.conkey) WITH ORDINALITY k(n, o) JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n ORDER BY k.o) AS columns,
             ARRAY(SELECT a.attname::text FROM unnest(c.confkey) WITH ORDINALITY k(n, o) JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.n ORDER BY k.o) AS "referencedColumns"
      FROM pg_constraint c JOIN pg_class ct ON ct.oid = c.conrelid JOIN pg_class cr ON cr.oid = c.confrelid
      JOIN pg_namespace n ON n.oid = ct.relnamespace WHERE n.nspname = 'public' AND c.contype = 'f'`);
    const { rows } = await client.query<{ table: string; has_workspace_id: boolean }>(`
      SELECT t.table_name AS table,
             EXISTS (SELECT 1 FROM information_schema.columns c
                     WHERE c.table_schema = 'public' AND c.table_name = t.table_name AND c.column_name = 'workspace_id') AS has_workspace_id
      FROM information_schema.tables t WHERE t.table_schema = 'public' AND t.table_type = 'BASE TABLE' ORDER BY 1`);
    return { tables: rows.map((r) => ({ table: r.table, hasWorkspaceId: r.has_workspace_id })), uniques: uniques.rows, foreignKeys: foreignKeys.rows };
  } finally {
    await client.end();
    await database.drop();
  }
}

describe('every statement the e2e suite sent can be routed to one workspace (Citus-ready, docs/scale-out.md)', () => {
  let plan: DistributionPlan;
  let schema: Catalogue;
  const statements = recorded();
  beforeAll(async () => {
    await loadParser();
    schema = await catalogue();
    plan = distributionPlan(schema.tables);
  });

  it('the e2e suite recorded what its services sent', () => {
    assert.ok(statements.length > 500, `expected the e2e run's statements under ${LOG} (run the e2e suite first: nx test @workcell/e2e), found ${statements.length}`);
  });

  it('no statement on a distributed table lacks its equality or names two workspaces, except the listed sweeps', () => {
    const allowed = new Map(ALLOWED_STATEMENTS.map((a) => [a.fingerprint, a]));
    const found = new Map<string, { text: string; violations: Violation[] }>();
    for (const { text, values } of statements) {
      const violations = analyseStatement(text, values, plan.distributed);
      if (violations.length === 0) continue;
      const fingerprint = violations.some((v) => v.kind === 'unparsable') ? text : fingerprintSync(text);
      if (!allowed.has(fingerprint)) found.set(fingerprint, { text, violations });
    }
    const report = [...found].map(
      ([fingerprint, { text, violations }]) =>
        `- ${violations.map((v) => `${v.kind} (${v.tables.join(', ')})`).join('; ')} [fingerprint ${fingerprint}]\n  ${text.replace(/\s+/g, ' ').trim().slice(0, 600)}`,
    );
    assert.equal(report.length, 0, `statements Citus could not route to one workspace:\n${report.join('\n')}`);
  });

  it('every listed exception says where it comes from, why, and what a distributed deployment does instead', () => {
    for (const entry of ALLOWED_STATEMENTS) {
      assert.ok(entry.source && entry.why.length > 20 && entry.rework.length > 20, entry.fingerprint);
    }
    assert.equal(new Set(ALLOWED_STATEMENTS.map((a) => a.fingerprint)).size, ALLOWED_STATEMENTS.length);
  });

  it('every unique index includes its distribution column, and foreign keys between distributed tables are co-located', () => {
    const problems: string[] = [];
    for (const { name, table, columns } of schema.uniques) {
      const column = plan.distributed.get(table);
      if (column && !columns.includes(column) && !SCHEMA_REWORK.has(name)) problems.push(`${name} on ${table} (${columns.join(', ')}) lacks ${column}`);
    }
    for (const fk of schema.foreignKeys) {
      const from = plan.distributed.get(fk.table);
      const to = plan.distributed.get(fk.references);
      if (!from || !to || SCHEMA_REWORK.has(fk.name)) continue;
      const at = fk.columns.indexOf(from);
      const colocated = !plan.separate.has(fk.table) && !plan.separate.has(fk.references) && at >= 0 && fk.referencedColumns[at] === to;
      if (!colocated) problems.push(`${fk.name}: ${fk.table} (${fk.columns.join(', ')}) → ${fk.references} (${fk.referencedColumns.join(', ')}) is not on the distribution columns`);
    }
    assert.deepEqual(problems, []);
    for (const name of SCHEMA_REWORK.keys()) {
      assert.ok(
        [...schema.uniques, ...schema.foreignKeys].some((c) => c.name === name),
        `SCHEMA_REWORK names ${name}, which no longer exists`,
      );
    }
  });

  it('docs/scale-out.md carries the distribution DDL of the current schema and every listed exception', () => {
    const doc = readFileSync(DOC, 'utf8');
    assert.ok(doc.includes(citusDdl(plan)), `docs/scale-out.md must contain this DDL verbatim:\n${citusDdl(plan)}`);
    for (const entry of ALLOWED_STATEMENTS) assert.ok(doc.includes(entry.source), `docs/scale-out.md must name ${entry.source}`);
    for (const name of SCHEMA_REWORK.keys()) assert.ok(doc.includes(name), `docs/scale-out.md must name ${name}`);
  });
});
