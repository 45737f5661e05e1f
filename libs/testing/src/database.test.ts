import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { loadConfig } from '@workcell/config';
import { dropUnusedTemplates, ensureTemplateDatabase, TEMPLATE_LOCK, TEMPLATE_RETENTION_MS } from './database.js';

/**
 * Two checkouts with different migrations test on one machine at once: each keeps the other's template while it
 * is in use, and only templates unused for the retention go (a template dropped under a concurrent CREATE DATABASE
 * … TEMPLATE failed whole test files at random). The test holds the template lock, as the harness's own clean-up
 * does, so that no concurrent test process cleans up between its setup and its check.
 */
describe('template databases of other checkouts', () => {
  const suffix = randomBytes(4).toString('hex');
  const fresh = `wc_tpl_zz_fresh_${suffix}`;
  const stale = `wc_tpl_zz_stale_${suffix}`;
  const unmarked = `wc_tpl_zz_unmarked_${suffix}`;
  let admin: pg.Client;
  let own: string;

  beforeAll(async () => {
    // Built (and its own clean-up run) first, so the clean-up under test is the only one that sees the fakes.
    own = await ensureTemplateDatabase();
    const url = new URL(loadConfig().database.url);
    url.pathname = '/postgres';
    admin = new pg.Client({ connectionString: url.toString() });
    await admin.connect();
    // Held until the fakes are gone: another test process's clean-up (ensureTemplateDatabase, which takes the same
    // lock) would otherwise drop them under this test, the fresh one before it is even marked.
    await admin.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK]);
    const now = Date.now();
    for (const name of [fresh, stale, unmarked]) await admin.query(`CREATE DATABASE "${name}"`);
    await admin.query(`COMMENT ON DATABASE "${fresh}" IS 'workcell test template, last used at ${now - 60_000}'`);
    await admin.query(`COMMENT ON DATABASE "${stale}" IS 'workcell test template, last used at ${now - TEMPLATE_RETENTION_MS - 60_000}'`);
  });

  afterAll(async () => {
    for (const name of [fresh, stale, unmarked]) await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK]);
    await admin.end();
  });

  it('keeps one in use within the retention, drops stale and unmarked ones, never its own', async () => {
    const dropped = await dropUnusedTemplates(admin, own, Date.now());
    assert.ok(dropped.includes(stale), 'a template unused beyond the retention is dropped');
    assert.ok(dropped.includes(unmarked), 'a template without a use mark is dropped');
    assert.ok(!dropped.includes(fresh), 'a template another checkout used a minute ago is kept');
    assert.ok(!dropped.includes(own));
    const { rows } = await admin.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname = ANY($1)', [[fresh, own]]);
    assert.deepEqual(rows.map((r) => r.datname).sort(), [fresh, own].sort());
  });
});
