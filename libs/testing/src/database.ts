import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { loadConfig } from '@workcell/config';
import { migrate, migrationsDigest } from '@workcell/migrations';

/**
 * Each test file gets its own database, cloned from a migrated template. The template's name carries a
 * digest of the migrations, so a changed migration builds a new template once and every later clone
 * costs milliseconds instead of a migration run.
 */

/** Serialises template builds and clean-ups across concurrent test processes ("wctp"). */
export const TEMPLATE_LOCK = 0x77_63_74_70;

/** `database` on the PostgreSQL server itself (DATABASE_DIRECT_URL's: creating, cloning and dropping need sessions). */
function serverUrl(database: string): string {
  const url = new URL(loadConfig().database.directUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function withAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl('postgres') });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

let templateName: Promise<string> | undefined;

/**
 * How long a template of other migrations is kept after it was last used. Several checkouts on one machine (two
 * branches, a CI clone beside a working tree) test at once with different migrations, hence different templates:
 * dropping every other template as soon as one's own is built pulled a template out from under a concurrent
 * CREATE DATABASE … TEMPLATE in another checkout, failing its tests at random.
 */
export const TEMPLATE_RETENTION_MS = 24 * 60 * 60 * 1000;
const USED_AT = /^workcell test template, last used at (\d+)$/;

/** Records that `name` was just used (the database's comment), so other checkouts keep it. */
async function markTemplateUsed(admin: pg.Client, name: string, now: number): Promise<void> {
  await admin.query(`COMMENT ON DATABASE ${quote(name)} IS 'workcell test template, last used at ${now}'`);
}

/** Drops the templates other than `keep` that nobody used within the retention (or that carry no use mark). */
export async function dropUnusedTemplates(admin: pg.Client, keep: string, now: number): Promise<string[]> {
  const { rows } = await admin.query<{ datname: string; note: string | null }>(
    "SELECT datname, shobj_description(oid, 'pg_database') AS note FROM pg_database WHERE datname LIKE 'wc\\_tpl\\_%' AND datname <> $1",
    [keep],
  );
  const dropped: string[] = [];
  for (const { datname, note } of rows) {
    const usedAt = Number(USED_AT.exec(note ?? '')?.[1] ?? 0);
    if (now - usedAt < TEMPLATE_RETENTION_MS) continue;
    await admin.query(`DROP DATABASE IF EXISTS ${quote(datname)} WITH (FORCE)`);
    dropped.push(datname);
  }
  return dropped;
}

/**
 * PostgreSQL ends a backend a moment after its client disconnects; a database is renamed (or used as a template)
 * only once no session is left in it, so wait for dbmate's session to be gone instead of failing on 55006.
 */
async function waitUntilUnused(admin: pg.Client, database: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await admin.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [database]);
    if ((rows[0]?.n ?? 0) === 0) return;
    if (Date.now() > deadline) throw new Error(`database ${database} still has sessions after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Builds (once per migration digest) and returns the name of the migrated template database. */
export function ensureTemplateDatabase(): Promise<string> {
  templateName ??= withAdmin(async (admin) => {
    const name = `wc_tpl_${migrationsDigest().slice(0, 16)}`;
    await admin.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK]);
    try {
      // Databases left behind by test processes that died before their cleanup ran.
      const stale = await admin.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname LIKE 'wc\\_t\\_%'");
      for (const { datname } of stale.rows) {
        const pid = Number(/^wc_t_(\d+)_/.exec(datname)?.[1]);
        if (pid && !pidAlive(pid)) await admin.query(`DROP DATABASE IF EXISTS ${quote(datname)} WITH (FORCE)`);
      }
      const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (exists.rowCount === 0) {
        const building = `${name}_build`;
        await admin.query(`DROP DATABASE IF EXISTS ${quote(building)} WITH (FORCE)`);
        await admin.query(`CREATE DATABASE ${quote(building)}`);
        await migrate(serverUrl(building));
        await waitUntilUnused(admin, building);
        await admin.query(`ALTER DATABASE ${quote(building)} RENAME TO ${quote(name)}`);
      }
      const now = Date.now();
      await markTemplateUsed(admin, name, now);
      await dropUnusedTemplates(admin, name, now);
      return name;
    } finally {
      await admin.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK]);
    }
  });
  return templateName;
}

export interface TestDatabase {
  readonly name: string;
  readonly url: string;
  drop(): Promise<void>;
}

/** A fresh, migrated database of its own. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const template = await ensureTemplateDatabase();
  const name = `wc_t_${process.pid}_${randomBytes(4).toString('hex')}`;
  await withAdmin((admin) => admin.query(`CREATE DATABASE ${quote(name)} TEMPLATE ${quote(template)}`));
  return {
    name,
    url: serverUrl(name),
    drop: () => dropDatabase(name),
  };
}

/** PostgreSQL's "database is being accessed by other users": a session arrived while FORCE was terminating the others. */
const OBJECT_IN_USE = '55006';

/**
 * Drops a test database, ending its sessions (FORCE). A connection that a closing pool or a reconnecting client
 * opens in the instant between FORCE's termination and the drop makes the drop fail with 55006; that session is
 * ended by the next attempt, so a few attempts always finish (a database that stays busy still fails, loudly).
 */
export async function dropDatabase(name: string, attempts = 5): Promise<void> {
  await withAdmin(async (admin) => {
    for (let attempt = 1; ; attempt++) {
      try {
        await admin.query(`DROP DATABASE IF EXISTS ${quote(name)} WITH (FORCE)`);
        return;
      } catch (error) {
        if ((error as { code?: string }).code !== OBJECT_IN_USE || attempt >= attempts) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
      }
    }
  });
}

/** Registers before/after hooks giving the current test file its own database. */
export function useTestDatabase(): { readonly url: string; readonly name: string } {
  let db: TestDatabase | undefined;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db?.drop();
  });
  return {
    get url() {
      if (!db) throw new Error('useTestDatabase(): the database exists only inside tests and hooks');
      return db.url;
    },
    get name() {
      if (!db) throw new Error('useTestDatabase(): the database exists only inside tests and hooks');
      return db.name;
    },
  };
}
