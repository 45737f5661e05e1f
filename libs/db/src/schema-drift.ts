import pg from 'pg';

/**
 * Schema drift checker: compares prisma/schema.prisma (through Prisma's DMMF) with what the SQL migrations
 * actually built in a PostgreSQL database (through pg_catalog), and checks the Citus tenancy rule on the
 * database. Returns human-readable differences; an empty list means the two agree.
 */

/** Tables the checker ignores entirely (bookkeeping of the migration tool). */
export const IGNORED_TABLES: readonly string[] = ['schema_migrations'];

/**
 * Global tables (Citus reference tables). They are exempt from the workspace_id rule, and tenant tables may
 * hold foreign keys to them without workspace_id (Citus allows distributed-to-reference foreign keys).
 */
export const REFERENCE_TABLES: readonly { readonly table: string; readonly reason: string }[] = [
  { table: 'workspaces', reason: 'the tenant itself; key is id' },
  { table: 'users', reason: 'global person identity shared by all workspaces; unique email' },
  {
    table: 'credential_lookups',
    reason: 'authentication finds a token by its verifier before it knows the workspace; global primary key on verifier',
  },
  { table: 'sign_in_links', reason: 'a sign-in link belongs to a user (global identity), not to a workspace; found by its token hash' },
  { table: 'sessions', reason: 'a browser session belongs to a user (global identity) across all their workspaces; found by its id hash' },
  { table: 'device_authorizations', reason: "a device login is started before anyone (or any workspace) is known and approved by a user; found by its codes' hashes" },
];

/**
 * Indexes that exist only in SQL because Prisma cannot declare them (partial indexes). Any other index the
 * schema does not declare is reported as drift, and an allow-listed index that is missing is reported too.
 */
/** The federated search's expression GIN indexes (libs/db/src/search.ts; Prisma cannot declare an expression index). */
const SEARCH_INDEX = "gin (to_tsvector('simple', …)): the federated search's full-text index";

export const SQL_ONLY_INDEXES: readonly { readonly table: string; readonly name: string; readonly reason: string }[] = [
  {
    table: 'time_entries',
    name: 'time_entries_one_running_timer_key',
    reason: 'partial unique (workspace_id, member_id) WHERE stopped_at IS NULL: at most one running timer per member',
  },
  {
    table: 'files',
    name: 'files_expired_uncleared_idx',
    reason: "partial (updated_at) WHERE status = 'expired' AND storage_cleared_at IS NULL: the worker's sweep finds the bytes left to remove",
  },
  {
    table: 'outbox_events',
    name: 'outbox_events_unpublished_idx',
    reason: 'partial (workspace_id, sequence) WHERE published_at IS NULL: the outbox relay reads only unpublished events, in sequence order',
  },
  {
    table: 'outbox_events',
    name: 'outbox_events_comment_target_idx',
    reason:
      "expressions (workspace_id, payload #>> '{comment,targetType}', payload #>> '{comment,targetId}', sequence) WHERE aggregate_type = 'comment': a target's comment events in sequence order for its activity",
  },
  {
    table: 'webhook_deliveries',
    name: 'webhook_deliveries_pending_due_idx',
    reason: "partial (workspace_id, subscription_id, next_attempt_at, id) WHERE status = 'pending': the delivery dispatcher's claim reads a subscription's due rows in order",
  },
  {
    table: 'webhook_deliveries',
    name: 'webhook_deliveries_leased_idx',
    reason: "partial (workspace_id, subscription_id) WHERE status = 'pending' AND lease_until IS NOT NULL: the claim counts a subscription's attempts in flight",
  },
  {
    table: 'project_lifecycle_operations',
    name: 'project_lifecycle_operations_one_active_key',
    reason: "partial unique (workspace_id, project_id) WHERE status IN ('queued', 'running'): one active operation per project",
  },
  {
    table: 'invitations',
    name: 'invitations_one_pending_per_email_key',
    reason: "partial unique (workspace_id, email) WHERE status = 'pending': one pending invitation per address",
  },
  {
    table: 'task_occurrences',
    name: 'task_occurrences_schedule_key',
    reason: 'partial unique (workspace_id, recurrence_id, scheduled_for) WHERE external_event_id IS NULL: one occurrence per scheduled instant of a series',
  },
  {
    table: 'task_occurrences',
    name: 'task_occurrences_external_event_key',
    reason: 'partial unique (workspace_id, recurrence_id, external_event_id) WHERE external_event_id IS NOT NULL: one occurrence per external event',
  },
  { table: 'projects', name: 'projects_search_idx', reason: SEARCH_INDEX },
  { table: 'tasks', name: 'tasks_search_idx', reason: SEARCH_INDEX },
  { table: 'time_entries', name: 'time_entries_search_idx', reason: SEARCH_INDEX },
  { table: 'contacts', name: 'contacts_search_idx', reason: SEARCH_INDEX },
  { table: 'call_notes', name: 'call_notes_search_idx', reason: SEARCH_INDEX },
  { table: 'contact_groups', name: 'contact_groups_search_idx', reason: SEARCH_INDEX },
  { table: 'lists', name: 'lists_search_idx', reason: SEARCH_INDEX },
  { table: 'services', name: 'services_search_idx', reason: SEARCH_INDEX },
  { table: 'tags', name: 'tags_search_idx', reason: SEARCH_INDEX },
  { table: 'project_templates', name: 'project_templates_search_idx', reason: SEARCH_INDEX },
  { table: 'products', name: 'products_search_idx', reason: SEARCH_INDEX },
  { table: 'product_groups', name: 'product_groups_search_idx', reason: SEARCH_INDEX },
  { table: 'project_statements', name: 'project_statements_search_idx', reason: SEARCH_INDEX },
  { table: 'documents', name: 'documents_search_idx', reason: SEARCH_INDEX },
  { table: 'files', name: 'files_search_idx', reason: SEARCH_INDEX },
  { table: 'comments', name: 'comments_search_idx', reason: SEARCH_INDEX },
  { table: 'users', name: 'users_search_idx', reason: SEARCH_INDEX },
  { table: 'users', name: 'users_name_search_idx', reason: `${SEARCH_INDEX} (the name alone, for callers without members:pii:read)` },
];

const TENANT_COLUMN = 'workspace_id';
/** PostgreSQL's identifier limit; longer default names would be truncated, so they are not compared. */
const MAX_IDENTIFIER_LENGTH = 63;

// ─── Normalised shape shared by both sides ───────────────────────────────────

type ReferentialAction = 'Cascade' | 'Restrict' | 'NoAction' | 'SetNull' | 'SetDefault';

/** What a column default must look like; `any` means "some default must exist". */
type DefaultExpectation =
  | { readonly kind: 'none' }
  | { readonly kind: 'any' }
  | { readonly kind: 'expression'; readonly oneOf: readonly string[] }
  | { readonly kind: 'literal'; readonly value: string; readonly compare: 'text' | 'number' | 'json' };

interface ExpectedColumn {
  readonly name: string;
  readonly type: string;
  readonly nullable: boolean;
  readonly default: DefaultExpectation;
}

interface ActualColumn {
  readonly name: string;
  readonly type: string;
  readonly nullable: boolean;
  readonly default: string | null;
}

interface ExpectedIndex {
  readonly kind: 'primary' | 'unique' | 'normal';
  /** The name the database object must carry, or null when it cannot be predicted. */
  readonly name: string | null;
  readonly columns: readonly string[];
  readonly descending: readonly boolean[];
}

interface ActualIndex {
  readonly name: string;
  readonly primary: boolean;
  readonly unique: boolean;
  readonly partial: boolean;
  /** Null entries are expression columns. */
  readonly columns: readonly (string | null)[];
  readonly descending: readonly boolean[];
}

interface ForeignKey {
  readonly name: string | null;
  readonly columns: readonly string[];
  readonly referencedTable: string;
  readonly referencedColumns: readonly string[];
  readonly onDelete: ReferentialAction;
  readonly onUpdate: ReferentialAction;
}

interface ExpectedTable {
  readonly name: string;
  readonly model: string;
  readonly columns: readonly ExpectedColumn[];
  readonly indexes: readonly ExpectedIndex[];
  readonly foreignKeys: readonly ForeignKey[];
}

interface ActualTable {
  readonly name: string;
  readonly columns: readonly ActualColumn[];
  readonly indexes: readonly ActualIndex[];
  readonly foreignKeys: readonly ForeignKey[];
}

interface ExpectedSchema {
  readonly tables: ReadonlyMap<string, ExpectedTable>;
  readonly enums: ReadonlyMap<string, readonly string[]>;
}

interface ActualSchema {
  readonly tables: ReadonlyMap<string, ActualTable>;
  readonly enums: ReadonlyMap<string, readonly string[]>;
}

// ─── The DMMF boundary: only the parts this checker reads ────────────────────

interface DmmfFieldDefaultFunction {
  readonly name: string;
  readonly args: readonly unknown[];
}

interface DmmfField {
  readonly name: string;
  readonly dbName?: string | null;
  readonly kind: 'scalar' | 'enum' | 'object' | 'unsupported';
  readonly type: string;
  readonly nativeType?: readonly [string, readonly string[]] | null;
  readonly isRequired: boolean;
  readonly isList: boolean;
  readonly hasDefaultValue: boolean;
  readonly default?: unknown;
  readonly relationFromFields?: readonly string[];
  readonly relationToFields?: readonly string[];
  readonly relationOnDelete?: string;
  readonly relationOnUpdate?: string;
}

interface DmmfModel {
  readonly name: string;
  readonly dbName: string | null;
  readonly fields: readonly DmmfField[];
}

interface DmmfIndex {
  readonly model: string;
  readonly type: 'id' | 'unique' | 'normal' | 'fulltext';
  readonly dbName?: string | null;
  readonly fields: readonly { readonly name: string; readonly sortOrder?: 'asc' | 'desc' }[];
}

interface DmmfEnum {
  readonly name: string;
  readonly dbName?: string | null;
  readonly values: readonly { readonly name: string; readonly dbName?: string | null }[];
}

interface DmmfDatamodel {
  readonly models: readonly DmmfModel[];
  readonly enums: readonly DmmfEnum[];
  readonly indexes: readonly DmmfIndex[];
}

type GetDmmf = (options: { datamodel: string }) => Promise<{ datamodel: unknown }>;

async function loadDatamodel(schemaText: string): Promise<DmmfDatamodel> {
  // @prisma/internals is CommonJS: under ESM its functions hang off the default export.
  const internals = (await import('@prisma/internals')) as unknown as { getDMMF?: GetDmmf; default?: { getDMMF?: GetDmmf } };
  const getDMMF = internals.getDMMF ?? internals.default?.getDMMF;
  if (!getDMMF) throw new Error('@prisma/internals does not export getDMMF');
  const dmmf = await getDMMF({ datamodel: schemaText });
  return dmmf.datamodel as DmmfDatamodel; // the DMMF boundary
}

// ─── Expected schema from schema.prisma ──────────────────────────────────────

/** Maps a Prisma field to the type string PostgreSQL's format_type() prints for the column. */
export function postgresTypeOf(field: Pick<DmmfField, 'kind' | 'type' | 'nativeType' | 'isList'>, enumDbName: (name: string) => string): string {
  const base = field.kind === 'enum' ? quoteIfNeeded(enumDbName(field.type)) : scalarType(field.type, field.nativeType ?? null);
  return field.isList ? `${base}[]` : base;
}

function scalarType(type: string, nativeType: readonly [string, readonly string[]] | null): string {
  const [native, args] = nativeType ?? [null, []];
  const arg = (i: number): string | undefined => args[i];
  const withLength = (name: string): string => (arg(0) === undefined ? name : `${name}(${arg(0)})`);
  if (native) {
    switch (native) {
      case 'Text':
        return 'text';
      case 'Uuid':
        return 'uuid';
      case 'VarChar':
        return withLength('character varying');
      case 'Char':
        return withLength('character');
      case 'Citext':
        return 'citext';
      case 'Inet':
        return 'inet';
      case 'Xml':
        return 'xml';
      case 'Bit':
        return withLength('bit');
      case 'VarBit':
        return withLength('bit varying');
      case 'SmallInt':
        return 'smallint';
      case 'Integer':
        return 'integer';
      case 'Oid':
        return 'oid';
      case 'BigInt':
        return 'bigint';
      case 'Real':
        return 'real';
      case 'DoublePrecision':
        return 'double precision';
      case 'Decimal':
        return arg(0) === undefined ? 'numeric' : `numeric(${arg(0)},${arg(1) ?? 0})`;
      case 'Money':
        return 'money';
      case 'Boolean':
        return 'boolean';
      case 'Timestamptz':
        return arg(0) === undefined ? 'timestamp with time zone' : `timestamp(${arg(0)}) with time zone`;
      case 'Timestamp':
        return arg(0) === undefined ? 'timestamp without time zone' : `timestamp(${arg(0)}) without time zone`;
      case 'Date':
        return 'date';
      case 'Time':
        return arg(0) === undefined ? 'time without time zone' : `time(${arg(0)}) without time zone`;
      case 'Timetz':
        return arg(0) === undefined ? 'time with time zone' : `time(${arg(0)}) with time zone`;
      case 'Json':
        return 'json';
      case 'JsonB':
        return 'jsonb';
      case 'ByteA':
        return 'bytea';
      default:
        return `unsupported native type @db.${native}`;
    }
  }
  switch (type) {
    case 'String':
      return 'text';
    case 'Int':
      return 'integer';
    case 'BigInt':
      return 'bigint';
    case 'Float':
      return 'double precision';
    case 'Decimal':
      return 'numeric(65,30)';
    case 'Boolean':
      return 'boolean';
    case 'DateTime':
      return 'timestamp(3) without time zone';
    case 'Json':
      return 'jsonb';
    case 'Bytes':
      return 'bytea';
    default:
      return `unsupported Prisma type ${type}`;
  }
}

function quoteIfNeeded(identifier: string): string {
  return /^[a-z_][a-z0-9_]*$/.test(identifier) ? identifier : `"${identifier.replace(/"/g, '""')}"`;
}

function defaultExpectation(field: DmmfField): DefaultExpectation {
  if (!field.hasDefaultValue) return { kind: 'none' };
  const value = field.default;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const fn = value as DmmfFieldDefaultFunction;
    switch (fn.name) {
      case 'uuid':
        // Project convention: UUIDv7 ids get the database default uuidv7() so raw inserts are time-ordered too.
        return fn.args[0] === 7 ? { kind: 'expression', oneOf: ['uuidv7()'] } : { kind: 'none' };
      case 'now':
        return { kind: 'expression', oneOf: ['now()', 'CURRENT_TIMESTAMP'] };
      case 'autoincrement':
      case 'sequence':
      case 'dbgenerated':
        return { kind: 'any' };
      default:
        return { kind: 'none' }; // cuid(), nanoid(), ulid(): generated by the Prisma client, not the database
    }
  }
  if (Array.isArray(value)) return value.length === 0 ? { kind: 'literal', value: '{}', compare: 'text' } : { kind: 'any' };
  if (field.type === 'Json') return { kind: 'literal', value: String(value), compare: 'json' };
  if (typeof value === 'number' || ['Int', 'BigInt', 'Float', 'Decimal'].includes(field.type)) {
    return { kind: 'literal', value: String(value), compare: 'number' };
  }
  return { kind: 'literal', value: String(value), compare: 'text' };
}

function toReferentialAction(value: string | undefined, fallback: ReferentialAction): ReferentialAction {
  switch (value) {
    case 'Cascade':
    case 'Restrict':
    case 'NoAction':
    case 'SetNull':
    case 'SetDefault':
      return value;
    default:
      return fallback;
  }
}

function buildExpectedSchema(datamodel: DmmfDatamodel): ExpectedSchema {
  const enumNames = new Map(datamodel.enums.map((e) => [e.name, e.dbName ?? e.name]));
  const enumDbName = (name: string): string => enumNames.get(name) ?? name;
  const modelsByName = new Map(datamodel.models.map((m) => [m.name, m]));
  const tableOf = (model: DmmfModel): string => model.dbName ?? model.name;
  const columnOf = (model: DmmfModel, fieldName: string): string => {
    const field = model.fields.find((f) => f.name === fieldName);
    return field?.dbName ?? fieldName;
  };

  const tables = new Map<string, ExpectedTable>();
  for (const model of datamodel.models) {
    const table = tableOf(model);
    const columns: ExpectedColumn[] = model.fields
      .filter((f) => f.kind === 'scalar' || f.kind === 'enum')
      .map((f) => ({
        name: f.dbName ?? f.name,
        type: postgresTypeOf(f, enumDbName),
        // Scalar lists are NOT NULL by project convention (Prisma never writes NULL into a list).
        nullable: !f.isRequired && !f.isList,
        default: defaultExpectation(f),
      }));

    const indexes: ExpectedIndex[] = [];
    for (const index of datamodel.indexes) {
      if (index.model !== model.name || index.type === 'fulltext') continue;
      const cols = index.fields.map((f) => columnOf(model, f.name));
      const kind = index.type === 'id' ? 'primary' : index.type;
      const suffix = kind === 'primary' ? 'pkey' : kind === 'unique' ? 'key' : 'idx';
      const defaultName = kind === 'primary' ? `${table}_pkey` : `${table}_${cols.join('_')}_${suffix}`;
      const name = index.dbName ?? (defaultName.length <= MAX_IDENTIFIER_LENGTH ? defaultName : null);
      indexes.push({ kind, name, columns: cols, descending: index.fields.map((f) => f.sortOrder === 'desc') });
    }

    const foreignKeys: ForeignKey[] = [];
    for (const field of model.fields) {
      if (field.kind !== 'object' || !field.relationFromFields?.length) continue;
      const target = modelsByName.get(field.type);
      if (!target) continue;
      const from = field.relationFromFields;
      const allRequired = from.every((name) => model.fields.find((f) => f.name === name)?.isRequired ?? false);
      foreignKeys.push({
        name: null, // DMMF does not carry @relation(map:), so constraint names are not compared
        columns: from.map((name) => columnOf(model, name)),
        referencedTable: tableOf(target),
        referencedColumns: (field.relationToFields ?? []).map((name) => columnOf(target, name)),
        onDelete: toReferentialAction(field.relationOnDelete, allRequired ? 'Restrict' : 'SetNull'),
        onUpdate: toReferentialAction(field.relationOnUpdate, 'Cascade'),
      });
    }
    tables.set(table, { name: table, model: model.name, columns, indexes, foreignKeys });
  }

  const enums = new Map(datamodel.enums.map((e) => [e.dbName ?? e.name, e.values.map((v) => v.dbName ?? v.name)]));
  return { tables, enums };
}

// ─── Actual schema from pg_catalog ───────────────────────────────────────────

const ACTION_CODES: Readonly<Record<string, ReferentialAction>> = { a: 'NoAction', r: 'Restrict', c: 'Cascade', n: 'SetNull', d: 'SetDefault' };

async function loadActualSchema(client: pg.Client, schema: string): Promise<ActualSchema> {
  const tableRows = await client.query<{ oid: number; name: string }>(
    `SELECT c.oid::int AS oid, c.relname AS name
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relkind IN ('r', 'p')`,
    [schema],
  );
  const columnRows = await client.query<{ table_oid: number; attnum: number; name: string; type: string; not_null: boolean; default: string | null }>(
    `SELECT a.attrelid::int AS table_oid, a.attnum::int AS attnum, a.attname AS name,
            format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull AS not_null,
            pg_get_expr(d.adbin, d.adrelid) AS default
       FROM pg_attribute a
       JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
       LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
      WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped
      ORDER BY a.attrelid, a.attnum`,
    [schema],
  );
  const indexRows = await client.query<{ table_oid: number; name: string; primary: boolean; unique: boolean; partial: boolean; keys: number[]; options: number[] }>(
    `SELECT i.indrelid::int AS table_oid, ic.relname AS name, i.indisprimary AS primary, i.indisunique AS unique,
            i.indpred IS NOT NULL AS partial,
            (i.indkey::int2[])[0:i.indnkeyatts - 1]::int[] AS keys,
            (i.indoption::int2[])[0:i.indnkeyatts - 1]::int[] AS options
       FROM pg_index i
       JOIN pg_class ic ON ic.oid = i.indexrelid
       JOIN pg_class c ON c.oid = i.indrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1`,
    [schema],
  );
  const fkRows = await client.query<{ table_oid: number; name: string; ref_oid: number; keys: number[]; ref_keys: number[]; on_delete: string; on_update: string }>(
    `SELECT con.conrelid::int AS table_oid, con.conname AS name, con.confrelid::int AS ref_oid,
            con.conkey::int[] AS keys, con.confkey::int[] AS ref_keys,
            con.confdeltype AS on_delete, con.confupdtype AS on_update
       FROM pg_constraint con JOIN pg_namespace n ON n.oid = con.connamespace
      WHERE n.nspname = $1 AND con.contype = 'f'`,
    [schema],
  );
  const enumRows = await client.query<{ name: string; labels: string[] }>(
    `SELECT t.typname AS name, array_agg(e.enumlabel ORDER BY e.enumsortorder)::text[] AS labels
       FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid JOIN pg_namespace n ON n.oid = t.typnamespace
      WHERE n.nspname = $1
      GROUP BY t.typname`,
    [schema],
  );

  const tableNames = new Map(tableRows.rows.map((r) => [r.oid, r.name]));
  const attributeNames = new Map<string, string>();
  for (const c of columnRows.rows) attributeNames.set(`${c.table_oid}:${c.attnum}`, c.name);
  const attribute = (tableOid: number, attnum: number): string | null => attributeNames.get(`${tableOid}:${attnum}`) ?? null;
  const requireAttribute = (tableOid: number, attnum: number): string => attribute(tableOid, attnum) ?? `#${attnum}`;

  const tables = new Map<string, ActualTable>();
  for (const { oid, name } of tableRows.rows) {
    tables.set(name, {
      name,
      columns: columnRows.rows.filter((c) => c.table_oid === oid).map((c) => ({ name: c.name, type: c.type, nullable: !c.not_null, default: c.default })),
      indexes: indexRows.rows
        .filter((i) => i.table_oid === oid)
        .map((i) => ({
          name: i.name,
          primary: i.primary,
          unique: i.unique,
          partial: i.partial,
          columns: i.keys.map((k) => (k === 0 ? null : attribute(oid, k))),
          descending: i.options.map((o) => (o & 1) === 1),
        })),
      foreignKeys: fkRows.rows
        .filter((f) => f.table_oid === oid)
        .map((f) => ({
          name: f.name,
          columns: f.keys.map((k) => requireAttribute(oid, k)),
          referencedTable: tableNames.get(f.ref_oid) ?? `oid ${f.ref_oid}`,
          referencedColumns: f.ref_keys.map((k) => requireAttribute(f.ref_oid, k)),
          onDelete: ACTION_CODES[f.on_delete] ?? 'NoAction',
          onUpdate: ACTION_CODES[f.on_update] ?? 'NoAction',
        })),
    });
  }
  return { tables, enums: new Map(enumRows.rows.map((r) => [r.name, r.labels])) };
}

// ─── Comparison ──────────────────────────────────────────────────────────────

const list = (columns: readonly (string | null)[]): string => `(${columns.map((c) => c ?? '<expression>').join(', ')})`;
const sameList = <T>(a: readonly T[], b: readonly T[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

/** Splits a pg_get_expr default into its literal text (casts and quotes removed), or null for an expression. */
function defaultLiteral(expression: string): string | null {
  let text = expression.trim();
  // Strip trailing casts such as ::text, ::character varying, ::member_status, ::text[] (possibly repeated).
  for (;;) {
    const stripped = text.replace(/::(?:"[^"]+"|[a-z_][a-z0-9_ ]*(?:\([0-9, ]+\))?)(?:\[\])?$/i, '');
    if (stripped === text) break;
    text = stripped.trim();
  }
  while (text.startsWith('(') && text.endsWith(')')) text = text.slice(1, -1).trim();
  const quoted = /^'((?:[^']|'')*)'$/.exec(text);
  if (quoted) return (quoted[1] ?? '').replace(/''/g, "'");
  if (/^-?\d+(\.\d+)?$/.test(text) || text === 'true' || text === 'false') return text;
  return null;
}

function jsonEqual(a: string, b: string): boolean {
  try {
    return JSON.stringify(canonicalJson(JSON.parse(a))) === JSON.stringify(canonicalJson(JSON.parse(b)));
  } catch {
    return a === b;
  }
}

function canonicalJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonicalJson);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([k, v]) => [k, canonicalJson(v)]),
    );
  }
  return value;
}

function describeDefault(expected: DefaultExpectation): string {
  switch (expected.kind) {
    case 'none':
      return 'no default';
    case 'any':
      return 'a default';
    case 'expression':
      return expected.oneOf.join(' or ');
    case 'literal':
      return `'${expected.value}'`;
  }
}

function defaultMatches(expected: DefaultExpectation, actual: string | null): boolean {
  switch (expected.kind) {
    case 'none':
      return actual === null;
    case 'any':
      return actual !== null;
    case 'expression':
      return actual !== null && expected.oneOf.some((e) => e.toLowerCase() === actual.trim().toLowerCase());
    case 'literal': {
      if (actual === null) return false;
      const literal = defaultLiteral(actual);
      if (literal === null) return false;
      if (expected.compare === 'number') return Number(literal) === Number(expected.value);
      if (expected.compare === 'json') return jsonEqual(literal, expected.value);
      return literal === expected.value;
    }
  }
}

function compareColumns(expected: ExpectedTable, actual: ActualTable, problems: string[]): void {
  const actualColumns = new Map(actual.columns.map((c) => [c.name, c]));
  const expectedNames = new Set(expected.columns.map((c) => c.name));
  for (const column of expected.columns) {
    const found = actualColumns.get(column.name);
    const where = `${expected.name}.${column.name}`;
    if (!found) {
      problems.push(`column ${where} is declared in schema.prisma (model ${expected.model}) but missing in the database`);
      continue;
    }
    if (found.type !== column.type) problems.push(`column ${where}: type differs (schema.prisma: ${column.type}, database: ${found.type})`);
    if (found.nullable !== column.nullable) {
      const word = (nullable: boolean): string => (nullable ? 'NULL' : 'NOT NULL');
      problems.push(`column ${where}: nullability differs (schema.prisma: ${word(column.nullable)}, database: ${word(found.nullable)})`);
    }
    if (!defaultMatches(column.default, found.default)) {
      problems.push(`column ${where}: default differs (schema.prisma: ${describeDefault(column.default)}, database: ${found.default ?? 'no default'})`);
    }
  }
  for (const column of actual.columns) {
    if (!expectedNames.has(column.name)) {
      problems.push(`column ${actual.name}.${column.name} (${column.type}) exists in the database but not in schema.prisma (model ${expected.model})`);
    }
  }
}

function isAllowListed(table: string, index: string): boolean {
  return SQL_ONLY_INDEXES.some((entry) => entry.table === table && entry.name === index);
}

function compareIndexes(expected: ExpectedTable, actual: ActualTable, problems: string[]): void {
  const matched = new Set<string>();
  for (const index of expected.indexes) {
    const label = `${index.kind === 'primary' ? 'primary key' : index.kind === 'unique' ? 'unique index' : 'index'} ${list(index.columns)} on ${expected.name}`;
    const candidates = actual.indexes.filter(
      (a) => !matched.has(a.name) && !a.partial && a.primary === (index.kind === 'primary') && a.unique === (index.kind !== 'normal') && sameList(a.columns, index.columns),
    );
    const found = candidates.find((a) => index.name === null || a.name === index.name) ?? candidates[0];
    if (!found) {
      const sameColumns = actual.indexes.find((a) => !a.partial && sameList(a.columns, index.columns));
      if (index.kind === 'primary') {
        const pk = actual.indexes.find((a) => a.primary);
        problems.push(`${label} is declared in schema.prisma but the database has ${pk ? `primary key ${list(pk.columns)}` : 'no primary key'}`);
      } else if (sameColumns) {
        const kind = sameColumns.primary ? 'the primary key' : sameColumns.unique ? 'a unique index' : 'a non-unique index';
        problems.push(`${label} is declared in schema.prisma but the database has ${kind} ${sameColumns.name} on those columns`);
      } else {
        problems.push(`${label} is declared in schema.prisma but missing in the database`);
      }
      continue;
    }
    matched.add(found.name);
    if (index.name !== null && found.name !== index.name) {
      problems.push(`${label}: name differs (schema.prisma: ${index.name}, database: ${found.name})`);
    }
    if (!sameList(found.descending, index.descending)) problems.push(`${label}: sort order differs`);
  }
  for (const index of actual.indexes) {
    if (matched.has(index.name) || isAllowListed(actual.name, index.name)) continue;
    const kind = index.primary ? 'primary key' : index.unique ? 'unique index' : 'index';
    problems.push(
      `${kind} ${index.name} ${list(index.columns)}${index.partial ? ' (partial)' : ''} on ${actual.name} exists in the database but not in schema.prisma` +
        ' (declare it, or add it to SQL_ONLY_INDEXES with a reason)',
    );
  }
}

function foreignKeyKey(fk: ForeignKey): string {
  const pairs = fk.columns.map((c, i) => `${c}->${fk.referencedColumns[i] ?? '?'}`).sort();
  return `${fk.referencedTable}:${pairs.join(',')}`;
}

function describeForeignKey(table: string, fk: ForeignKey): string {
  return `foreign key ${table}${list(fk.columns)} -> ${fk.referencedTable}${list(fk.referencedColumns)}`;
}

function compareForeignKeys(expected: ExpectedTable, actual: ActualTable, problems: string[]): void {
  const actualByKey = new Map(actual.foreignKeys.map((fk) => [foreignKeyKey(fk), fk]));
  const expectedKeys = new Set<string>();
  for (const fk of expected.foreignKeys) {
    const key = foreignKeyKey(fk);
    expectedKeys.add(key);
    const found = actualByKey.get(key);
    const label = describeForeignKey(expected.name, fk);
    if (!found) {
      problems.push(`${label} is declared in schema.prisma but missing in the database`);
      continue;
    }
    if (found.onDelete !== fk.onDelete) problems.push(`${label}: ON DELETE differs (schema.prisma: ${fk.onDelete}, database: ${found.onDelete})`);
    if (found.onUpdate !== fk.onUpdate) problems.push(`${label}: ON UPDATE differs (schema.prisma: ${fk.onUpdate}, database: ${found.onUpdate})`);
  }
  for (const fk of actual.foreignKeys) {
    if (!expectedKeys.has(foreignKeyKey(fk))) {
      problems.push(`${describeForeignKey(actual.name, fk)} (${fk.name ?? 'unnamed'}) exists in the database but not in schema.prisma`);
    }
  }
}

function compareEnums(expected: ExpectedSchema, actual: ActualSchema, problems: string[]): void {
  for (const [name, values] of expected.enums) {
    const found = actual.enums.get(name);
    if (!found) problems.push(`enum type ${name} is declared in schema.prisma but missing in the database`);
    else if (!sameList(found, values)) {
      problems.push(`enum type ${name}: values differ (schema.prisma: ${values.join(', ')}; database: ${found.join(', ')})`);
    }
  }
  for (const name of actual.enums.keys()) {
    if (!expected.enums.has(name)) problems.push(`enum type ${name} exists in the database but not in schema.prisma`);
  }
}

/** The Citus rule, checked on the database: every tenant key and foreign key carries workspace_id. */
function checkTenancy(actual: ActualSchema, problems: string[]): void {
  const reference = new Set(REFERENCE_TABLES.map((r) => r.table));
  for (const table of actual.tables.values()) {
    if (IGNORED_TABLES.includes(table.name) || reference.has(table.name)) continue;
    const tenantColumn = table.columns.find((c) => c.name === TENANT_COLUMN);
    if (!tenantColumn) {
      problems.push(`tenancy: table ${table.name} has no ${TENANT_COLUMN} column and is not a declared reference table (REFERENCE_TABLES)`);
      continue;
    }
    if (tenantColumn.type !== 'uuid' || tenantColumn.nullable) {
      problems.push(`tenancy: ${table.name}.${TENANT_COLUMN} must be uuid NOT NULL (is ${tenantColumn.type}${tenantColumn.nullable ? ' NULL' : ''})`);
    }
    if (!table.indexes.some((i) => i.primary)) problems.push(`tenancy: table ${table.name} has no primary key`);
    for (const index of table.indexes) {
      if ((index.primary || index.unique) && !index.columns.includes(TENANT_COLUMN)) {
        const kind = index.primary ? 'primary key' : 'unique index';
        problems.push(`tenancy: ${kind} ${index.name} ${list(index.columns)} on ${table.name} does not include ${TENANT_COLUMN}`);
      }
    }
    for (const fk of table.foreignKeys) {
      if (reference.has(fk.referencedTable)) continue;
      const position = fk.columns.indexOf(TENANT_COLUMN);
      if (position < 0 || fk.referencedColumns[position] !== TENANT_COLUMN) {
        problems.push(`tenancy: ${describeForeignKey(table.name, fk)} does not pair ${TENANT_COLUMN} with ${fk.referencedTable}.${TENANT_COLUMN}`);
      }
    }
  }
}

function compareSchemas(expected: ExpectedSchema, actual: ActualSchema): string[] {
  const problems: string[] = [];
  for (const [name, table] of expected.tables) {
    if (!actual.tables.has(name)) problems.push(`table ${name} (model ${table.model}) is declared in schema.prisma but missing in the database`);
  }
  for (const name of actual.tables.keys()) {
    if (!IGNORED_TABLES.includes(name) && !expected.tables.has(name)) problems.push(`table ${name} exists in the database but not in schema.prisma`);
  }
  compareEnums(expected, actual, problems);
  for (const [name, table] of expected.tables) {
    const found = actual.tables.get(name);
    if (!found) continue;
    compareColumns(table, found, problems);
    compareIndexes(table, found, problems);
    compareForeignKeys(table, found, problems);
  }
  for (const entry of SQL_ONLY_INDEXES) {
    const table = actual.tables.get(entry.table);
    if (table && !table.indexes.some((i) => i.name === entry.name)) {
      problems.push(`SQL-only index ${entry.name} on ${entry.table} (${entry.reason}) is missing in the database`);
    }
  }
  checkTenancy(actual, problems);
  return problems;
}

const expectedSchemas = new Map<string, Promise<ExpectedSchema>>();

/** Parsing a schema through Prisma's wasm takes a few hundred milliseconds, so each text is parsed once. */
function expectedSchemaFor(schemaText: string): Promise<ExpectedSchema> {
  let expected = expectedSchemas.get(schemaText);
  if (!expected) {
    expected = loadDatamodel(schemaText).then(buildExpectedSchema);
    expected.catch(() => expectedSchemas.delete(schemaText));
    expectedSchemas.set(schemaText, expected);
  }
  return expected;
}

/**
 * Differences between a Prisma schema and the `public` schema of the database at `databaseUrl`;
 * an empty array means they agree.
 */
export async function findSchemaDrift(schemaText: string, databaseUrl: string): Promise<string[]> {
  const expected = await expectedSchemaFor(schemaText);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return compareSchemas(expected, await loadActualSchema(client, 'public'));
  } finally {
    await client.end();
  }
}
