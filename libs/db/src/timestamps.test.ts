import assert from 'node:assert/strict';
import pg from 'pg';
import { createTestDatabase, type TestDatabase, testConfig } from '@workcell/testing';
import { createDatabase, type Database } from './database.js';
import { Prisma } from './generated/prisma/client.js';
import { parseTimestamptz } from './timestamps.js';

const pgParse = pg.types.getTypeParser(1184, 'text') as (text: string) => Date | number;

/** PostgreSQL's text of an instant in UTC, with `fraction` digits of its microseconds (0: none written). */
function postgresText(ms: number, micros: number, fraction: number): string {
  const iso = new Date(ms).toISOString();
  const digits = `${iso.slice(20, 23)}${String(micros).padStart(3, '0')}`.slice(0, fraction).replace(/0+$/, '');
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${digits ? `.${digits}` : ''}+00`;
}

describe('timestamptz parsing (the fast path of our own statements)', () => {
  it("gives pg's own result for every UTC instant it reads, from year 1000 to 9999, at every fraction length", () => {
    const first = Date.UTC(1000, 0, 1);
    const last = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
    let checked = 0;
    for (let i = 0; i < 20_000; i++) {
      const ms =
        i < 10 ? [first, last, 0, -1, 951_782_400_000, 951_868_800_000, 1_709_164_800_000, 4_107_542_400_000, 253_402_300_799_999, 1_000][i]! : first + Math.floor(Math.random() * (last - first));
      const text = postgresText(ms, Math.floor(Math.random() * 1000), i % 7);
      assert.equal(parseTimestamptz(text).getTime(), (pgParse(text) as Date).getTime(), text);
      checked++;
    }
    assert.equal(checked, 20_000);
  });

  it("hands every other form to pg's parser: another offset, BC, infinity, a year before 1000, malformed text", () => {
    for (const text of [
      '2026-11-29 12:00:00+01',
      '2026-11-29 12:00:00.5-03:30',
      '2026-11-29 12:00:00+05:45:10',
      '0044-03-15 12:00:00+00 BC',
      '0099-01-01 00:00:00+00',
      '0999-12-31 23:59:59.999999+00',
      '12026-01-01 00:00:00+00',
      '2026-11-29 12:00:00.1234567+00',
      '2026-11-29T12:00:00+00',
      '2026-11-29 12:00:00.+00',
    ]) {
      const ours = parseTimestamptz(text);
      const theirs = pgParse(text);
      assert.equal(ours instanceof Date ? ours.getTime() : ours, theirs instanceof Date ? theirs.getTime() : theirs, text);
    }
    assert.equal(parseTimestamptz('infinity') as unknown, Infinity);
    assert.equal(parseTimestamptz('-infinity') as unknown, -Infinity);
  });

  describe('on a database', () => {
    let db: TestDatabase;
    let database: Database;
    beforeAll(async () => {
      db = await createTestDatabase();
      database = createDatabase(testConfig({ DATABASE_URL: db.url }), { poolSize: 1 });
    });
    afterAll(async () => {
      await database?.close();
      await db?.drop();
    });

    it('reads timestamptz values of every form back as the instants PostgreSQL holds', async () => {
      // PostgreSQL's own reading of each instant, as epoch milliseconds in text (null for infinity).
      const [row] = await database.rows<{ epochs: (string | null)[] }>(Prisma.sql`
        WITH v(t) AS (VALUES ('2026-11-29 12:00:00.123456+00'::timestamptz), ('1999-12-31 23:59:59+00'), ('0044-03-15 12:00:00+00 BC'), ('infinity'), ('2026-03-01 00:00:00.5+00'))
        SELECT array_agg(CASE WHEN isfinite(t) THEN (extract(epoch FROM t) * 1000)::bigint::text END) AS epochs FROM v`);
      assert.ok(row);
      // The same values as a timestamptz column, read through the pool's parsers (statementTypes).
      const scalars = await database.rows<{ t: Date | number }>(
        Prisma.sql`SELECT t FROM unnest(${['2026-11-29 12:00:00.123456+00', '1999-12-31 23:59:59+00', '0044-03-15 12:00:00+00 BC', 'infinity', '2026-03-01 00:00:00.5+00']}::timestamptz[]) WITH ORDINALITY AS u(t, n) ORDER BY n`,
      );
      assert.deepEqual(
        scalars.map(({ t }) => (t instanceof Date ? t.getTime() : t)),
        row.epochs.map((epoch) => (epoch === null ? Infinity : Math.floor(Number(epoch)))),
      );
    });
  });
});
