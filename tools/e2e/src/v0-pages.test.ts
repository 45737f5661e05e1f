import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Database } from '@workcell/db';
import { useTestEnvironment } from '@workcell/testing';
import { callV0, startV0Cell, type Team, type V0Cell } from './support/v0.js';

/**
 * Issue 11: a v0 page N is found by one indexed statement (the row before it) instead of a walk over the v1
 * pages from the start. Page N of every v0 paged collection must hold exactly what it held before: the rows
 * of the first page of 500 (which has no rows before it, so no seek) cut into pages, in id order, another
 * team's rows (inserted interleaved, so their ids sit between ours) never, archived or removed rows never.
 */

const env = useTestEnvironment();

type Legacy = { _id: string } & Record<string, unknown>;

/** Rows per team and table; every third of ours is archived (or removed, or otherwise out of the v1 list). */
const ROWS = 7;

describe('v0 pages by number', () => {
  let cell: V0Cell;
  let database: Database;
  let ours: Team;
  let theirs: Team;

  const sql = (text: string, ...values: unknown[]) => database.prisma.$executeRawUnsafe(text, ...values);

  /** One row of each listed table for `team`; `out` marks a row that the v1 list leaves out. */
  async function insertRows(team: Team, i: number, out: boolean): Promise<void> {
    const ws = team.workspaceId;
    const archived = out ? new Date() : null;
    const name = `row ${i} ${randomUUID().slice(0, 8)}`;
    for (const table of ['projects', 'services', 'project_templates', 'contact_groups', 'lists', 'products', 'product_groups', 'tags']) {
      await sql(`INSERT INTO ${table} (workspace_id, name, archived_at) VALUES ($1::uuid, $2, $3)`, ws, name, archived);
    }
    await sql(`INSERT INTO tasks (workspace_id, title, archived_at) VALUES ($1::uuid, $2, $3)`, ws, name, archived);
    await sql(`INSERT INTO contacts (workspace_id, display_name, archived_at) VALUES ($1::uuid, $2, $3)`, ws, name, archived);
    await sql(`INSERT INTO legacy_webhooks (workspace_id, url, archived_at) VALUES ($1::uuid, $2, $3)`, ws, `https://example.test/${name.replace(/ /g, '-')}`, archived);
    const started = new Date(Date.UTC(2026, 0, 1, 8) + i * 3_600_000);
    await sql(
      `INSERT INTO time_entries (workspace_id, member_id, started_at, stopped_at, duration_seconds, archived_at) VALUES ($1::uuid, $2::uuid, $3, $4, 1800, $5)`,
      ws,
      team.memberId,
      started,
      new Date(started.getTime() + 1_800_000),
      archived,
    );
    // A call note without a contact is left out of the v1 list like an archived one.
    const contact = out ? null : ((await database.prisma.contact.findFirst({ where: { workspaceId: ws, archivedAt: null }, select: { id: true } }))?.id ?? null);
    await sql(`INSERT INTO call_notes (workspace_id, content, contact_id) VALUES ($1::uuid, $2, $3::uuid)`, ws, name, contact);
    const project = (await database.prisma.project.findFirstOrThrow({ where: { workspaceId: ws, archivedAt: null }, select: { id: true } })).id;
    await sql(
      `INSERT INTO project_statements (workspace_id, project_id, kind, occurred_on, amount, currency, archived_at) VALUES ($1::uuid, $2::uuid, $3::project_statement_kind, '2026-01-02', 10, 'EUR', $4)`,
      ws,
      project,
      i % 2 === 0 ? 'budget' : 'expense',
      archived,
    );
    const user = await database.prisma.user.create({ data: { email: `${randomUUID()}@pages.test`, name } });
    await sql(`INSERT INTO workspace_members (workspace_id, user_id, removed_at) VALUES ($1::uuid, $2::uuid, $3)`, ws, user.id, archived);
    // Planned work of an archived task is left out.
    const task = (await database.prisma.task.findFirstOrThrow({ where: { workspaceId: ws, title: name }, select: { id: true } })).id;
    const windowStart = new Date(Date.now() + 86_400_000 + i * 3_600_000);
    await sql(
      `INSERT INTO planned_work (workspace_id, member_id, task_id, window_start, window_end, minutes) VALUES ($1::uuid, $2::uuid, $3::uuid, $4, $5, 60)`,
      ws,
      team.memberId,
      task,
      windowStart,
      new Date(windowStart.getTime() + 3_600_000),
    );
  }

  beforeAll(async () => {
    cell = await startV0Cell(env);
    database = cell.database;
    ours = cell.team;
    theirs = await cell.otherTeam('Their team');
    for (let i = 0; i < ROWS; i++) {
      await insertRows(ours, i, i % 3 === 2);
      await insertRows(theirs, i, false);
    }
  });

  afterAll(() => cell?.close());

  const COLLECTIONS = [
    '/tasks',
    '/projects',
    '/users',
    '/services',
    '/projectTemplates',
    '/scheduledWork',
    '/times',
    '/contacts',
    '/contactgroups',
    '/callnotes',
    '/lists',
    '/products',
    '/productgroups',
    '/journalEntries',
    '/webhooks',
    '/tags',
  ];

  for (const path of COLLECTIONS) {
    it(`${path}: page N of size L is rows (N-1)·L … N·L-1 of the whole list, in id order, of the token's team only`, async () => {
      const token = await ours.token();
      const all = await callV0<Legacy[]>(cell.v0, 'GET', `${path}?limit=500`, token);
      assert.equal(all.status, 200, all.text);
      const ids = all.body.map((item) => item._id);
      assert.ok(ids.length >= 4, `${path} lists ${ids.length} rows`);
      assert.deepEqual(ids, [...ids].sort(), 'id (creation) order');
      const foreign = await callV0<Legacy[]>(cell.v0, 'GET', `${path}?limit=500`, await theirs.token());
      assert.ok(foreign.body.length >= ROWS);
      assert.ok(!foreign.body.some((item) => ids.includes(item._id)), 'no row of the other team');
      for (const limit of [1, 2, 3]) {
        const pageToken = await ours.token();
        const pages = Math.ceil(ids.length / limit) + 1;
        for (let page = 1; page <= pages; page++) {
          const reply = await callV0<Legacy[]>(cell.v0, 'GET', `${path}?page=${page}&limit=${limit}`, pageToken);
          assert.equal(reply.status, 200, reply.text);
          assert.deepEqual(reply.body, all.body.slice((page - 1) * limit, page * limit), `${path} page ${page} of ${limit}`);
        }
      }
    });
  }
});
