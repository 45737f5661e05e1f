import assert from 'node:assert/strict';
import ICAL from 'ical.js';
import type { Database, DemoTokens } from '@workcell/db';
import { type RunningApp, useTestEnvironment } from '@workcell/testing';
import { startV0Cell, type V0Cell } from './support/v0.js';

const env = useTestEnvironment();

describe('v0 calendar feed GET /calendar/{token}.ics (RFC 5545)', () => {
  let cell: V0Cell;
  let database: Database;
  let tokens: DemoTokens;
  let v0: RunningApp;
  const tricky = 'Review, approve; then \\ ship\nnext: “Großartig” — ünïcödé '.repeat(3);

  beforeAll(async () => {
    cell = await startV0Cell(env);
    ({ database, demo: tokens, v0 } = cell);
    await database.prisma.task.create({
      data: { workspaceId: tokens.workspaceId, title: tricky, assigneeMemberId: cell.team.memberId, startDate: new Date('2030-01-01'), dueDate: new Date('2030-01-03') },
    });
  });
  afterAll(() => cell?.close());

  const feed = (query = '', token = tokens.calendarFeedToken) => fetch(`${v0.url}/calendar/${token}.ics${query}`);

  it('serves valid iCalendar that a standards-following parser reads', async () => {
    const res = await feed();
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/calendar; charset=utf-8/);
    const text = await res.text();
    assert.ok(text.endsWith('\r\n'));
    const lines = text.slice(0, -2).split('\r\n');
    assert.ok(!text.replace(/\r\n/g, '').includes('\n'), 'every line ends with CRLF');
    for (const line of lines) assert.ok(Buffer.byteLength(line, 'utf8') <= 75, `line over 75 octets: ${line}`);
    const calendar = new ICAL.Component(ICAL.parse(text));
    assert.equal(calendar.name, 'vcalendar');
    assert.equal(calendar.getFirstPropertyValue('version'), '2.0');
    assert.match(String(calendar.getFirstPropertyValue('prodid')), /Workcell/);
    const events = calendar.getAllSubcomponents('vevent');
    assert.equal(events.length, 6 + 2 + 1, 'six dated demo tasks, two planned-work windows, one extra task');
    for (const event of events) {
      assert.ok(event.getFirstPropertyValue('uid'));
      assert.ok(event.getFirstPropertyValue('dtstamp'));
      assert.ok(event.getFirstPropertyValue('dtstart'));
    }
    const extra = events.find((e) => String(e.getFirstPropertyValue('summary')).startsWith('Review, approve'));
    assert.equal(extra?.getFirstPropertyValue('summary'), tricky, 'escaping and folding round-trip');
    assert.ok(text.includes('Review\\, approve\\; then \\\\ ship\\nnext'));
  });

  it('keeps UIDs stable between requests', async () => {
    const uids = async () => new ICAL.Component(ICAL.parse(await (await feed()).text())).getAllSubcomponents('vevent').map((e) => String(e.getFirstPropertyValue('uid')));
    assert.deepEqual(await uids(), await uids());
  });

  it('pages through the events with page and limit', async () => {
    const page = async (n: number) => new ICAL.Component(ICAL.parse(await (await feed(`?page=${n}&limit=4`)).text())).getAllSubcomponents('vevent').map((e) => String(e.getFirstPropertyValue('uid')));
    const all = [...(await page(1)), ...(await page(2)), ...(await page(3))];
    assert.equal(all.length, 9);
    assert.equal(new Set(all).size, 9);
    assert.deepEqual(await page(4), []);
  });

  it('answers 400 for invalid page or limit', async () => {
    for (const query of ['?page=0', '?limit=0', '?limit=501', '?page=x', '?limit=1.5']) {
      const res = await feed(query);
      assert.equal(res.status, 400, query);
      assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'invalid_request');
    }
  });

  it("includes the member's scheduled work as timed events, without windows on archived tasks", async () => {
    const member = await database.prisma.workspaceMember.findFirstOrThrow({ where: { workspaceId: tokens.workspaceId } });
    const window = async (archivedAt: Date | null) => {
      const task = await database.prisma.task.create({ data: { workspaceId: tokens.workspaceId, title: `Planned ${archivedAt ? 'archived' : 'live'}`, archivedAt } });
      return database.prisma.plannedWork.create({
        data: { workspaceId: tokens.workspaceId, taskId: task.id, memberId: member.id, windowStart: new Date('2031-02-03T09:30:00Z'), windowEnd: new Date('2031-02-03T11:00:00Z'), minutes: 90 },
      });
    };
    const live = await window(null);
    const archived = await window(new Date());
    const events = new ICAL.Component(ICAL.parse(await (await feed('?limit=500')).text())).getAllSubcomponents('vevent');
    const event = events.find((e) => e.getFirstPropertyValue('uid') === `planned-work-${live.id}@workcell`);
    assert.ok(event, 'the planned-work window is in the feed');
    assert.equal(event.getFirstPropertyValue('summary'), 'Planned live');
    assert.equal((event.getFirstPropertyValue('dtstart') as ICAL.Time).toJSDate().toISOString(), '2031-02-03T09:30:00.000Z');
    assert.equal((event.getFirstPropertyValue('dtend') as ICAL.Time).toJSDate().toISOString(), '2031-02-03T11:00:00.000Z');
    assert.ok(!events.some((e) => e.getFirstPropertyValue('uid') === `planned-work-${archived.id}@workcell`));
    await database.prisma.plannedWork.deleteMany({ where: { id: { in: [live.id, archived.id] } } });
  });

  it('answers 404 with no detail for an unknown or revoked token', async () => {
    const unknown = await feed('', 'A'.repeat(43));
    assert.equal(unknown.status, 404);
    const body = await unknown.text();
    assert.ok(!body.includes('A'.repeat(43)));
    assert.deepEqual(JSON.parse(body), { error: { code: 'not_found', message: 'not found' } });
    await database.prisma.calendarFeedToken.updateMany({ where: { workspaceId: tokens.workspaceId }, data: { revokedAt: new Date() } });
    assert.equal((await feed()).status, 404);
  });
});
