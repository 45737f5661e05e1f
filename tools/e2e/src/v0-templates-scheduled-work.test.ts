import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { useTestEnvironment } from '@workcell/testing';
import { callV0, useV0Cell } from './support/v0.js';

/**
 * v0 GET /projectTemplates, GET /projectTemplates/{_id} and GET /scheduledWork over the v1 procedures
 * (listProjectTemplates, getProjectTemplate, listPlannedWork), end to end: the token's team only, archived
 * templates gone, page/limit paging and validation, and the scheduled-work window filters.
 */

const env = useTestEnvironment();

type LegacyError = { error: { code: string; message: string } };
type LegacyTemplate = { _id: string; name: string; taskBlueprints: unknown[] };
type LegacyWork = { _id: string; taskId: string; memberId: string; startsAt: string; endsAt: string; plannedMinutes: number };

describe('v0 project templates and scheduled work', () => {
  const cell = useV0Cell(env);
  const { teamToken } = cell;
  const other = { workspaceId: '', templateId: '', token: '' };
  const templates: string[] = [];
  let archivedTemplate: string;

  const get = <T = unknown>(path: string, token: string | undefined) => callV0<T>(cell.v0, 'GET', path, token);
  const legacyCode = (reply: { body: unknown; text: string }) => {
    const error = (reply.body as LegacyError | undefined)?.error;
    assert.ok(error && typeof error.code === 'string', `expected the legacy error shape, got ${reply.text}`);
    return error.code;
  };

  beforeAll(async () => {
    for (let i = 0; i < 3; i++) {
      templates.push(
        (
          await cell.database.prisma.projectTemplate.create({
            data: { workspaceId: cell.workspaceId, name: `Template ${i}`, body: { tasks: [{ title: 'Kick-off', description: null, offsetDays: 0 }] } },
          })
        ).id,
      );
    }
    archivedTemplate = (await cell.database.prisma.projectTemplate.create({ data: { workspaceId: cell.workspaceId, name: 'Old', archivedAt: new Date() } })).id;
    other.workspaceId = await cell.otherWorkspace();
    other.templateId = (await cell.database.prisma.projectTemplate.create({ data: { workspaceId: other.workspaceId, name: 'Foreign' } })).id;
    other.token = await teamToken(null, other.workspaceId);
  });

  describe('GET /projectTemplates and /projectTemplates/{_id}', () => {
    it('lists the team’s unarchived templates with _id, paged by page and limit', async () => {
      const token = await teamToken();
      const all = await get<LegacyTemplate[]>('/projectTemplates', token);
      assert.equal(all.status, 200, all.text);
      assert.deepEqual(all.body.map((t) => t._id).sort(), [...templates].sort());
      assert.deepEqual(all.body[0]!.taskBlueprints, [{ title: 'Kick-off', description: null, offsetDays: 0 }]);
      assert.ok(!('id' in all.body[0]!));
      const page2 = await get<LegacyTemplate[]>('/projectTemplates?page=2&limit=2', token);
      assert.deepEqual(
        page2.body.map((t) => t._id),
        [all.body[2]!._id],
      );
      assert.deepEqual(
        (await get<LegacyTemplate[]>('/projectTemplates', other.token)).body.map((t) => t._id),
        [other.templateId],
      );
    });

    it('reads one template; archived, foreign and unknown ids are 404; 401 without a token', async () => {
      const token = await teamToken();
      const one = await get<LegacyTemplate>(`/projectTemplates/${templates[0]}`, token);
      assert.equal(one.status, 200, one.text);
      assert.equal(one.body._id, templates[0]);
      for (const id of [archivedTemplate, other.templateId, randomUUID()]) {
        const missing = await get(`/projectTemplates/${id}`, token);
        assert.equal(missing.status, 404, id);
        assert.ok(!missing.text.includes('Foreign'));
      }
      assert.equal((await get('/projectTemplates', undefined)).status, 401);
    });

    it('validates page and limit (400 invalid_request)', async () => {
      const token = await teamToken();
      for (const path of ['/projectTemplates', `/projectTemplates/${templates[0]}`]) {
        for (const query of ['page=0', 'page=x', 'limit=0', 'limit=501']) {
          const reply = await get(`${path}?${query}`, token);
          assert.equal(reply.status, 400, `${path}?${query}: ${reply.text}`);
          assert.equal(legacyCode(reply), 'invalid_request');
        }
      }
    });
  });

  describe('GET /scheduledWork', () => {
    let taskId: string;
    let foreignTaskId: string;
    const now = Date.now();
    const at = (days: number, hour = 9) => new Date(now + days * 86_400_000 + hour * 3_600_000);

    beforeAll(async () => {
      taskId = (await cell.database.prisma.task.create({ data: { workspaceId: cell.workspaceId, title: 'Scheduled' } })).id;
      for (const days of [-1, 1, 2, 400]) {
        await cell.database.prisma.plannedWork.create({ data: { workspaceId: cell.workspaceId, taskId, memberId: cell.ownerMemberId, windowStart: at(days), windowEnd: at(days, 10), minutes: 60 } });
      }
      const foreignMember = await cell.database.prisma.workspaceMember.create({
        data: { workspaceId: other.workspaceId, userId: (await cell.database.prisma.user.create({ data: { email: `v0-${randomUUID()}@example.test`, name: 'F' } })).id },
      });
      foreignTaskId = (await cell.database.prisma.task.create({ data: { workspaceId: other.workspaceId, title: 'Foreign' } })).id;
      await cell.database.prisma.plannedWork.create({
        data: { workspaceId: other.workspaceId, taskId: foreignTaskId, memberId: foreignMember.id, windowStart: at(1), windowEnd: at(1, 10), minutes: 60 },
      });
    });

    it('lists the team’s planned work around now by default, with _id, paged by page and limit', async () => {
      const token = await teamToken();
      const reply = await get<LegacyWork[]>(`/scheduledWork?limit=500`, token);
      assert.equal(reply.status, 200, reply.text);
      const mine = reply.body.filter((w) => w.taskId === taskId);
      assert.deepEqual(mine.map((w) => w.startsAt).sort(), [at(-1), at(1), at(2)].map((d) => d.toISOString()).sort());
      assert.ok(!reply.body.some((w) => w.taskId === foreignTaskId));
      assert.ok(mine.every((w) => typeof w._id === 'string' && w.memberId === cell.ownerMemberId && w.plannedMinutes === 60));
      const page2 = await get<LegacyWork[]>(`/scheduledWork?taskId=${taskId}&page=2&limit=2`, token);
      assert.equal(page2.body.length, 1);
    });

    it('takes the v1 filters (from, to, memberId, taskId) from the query', async () => {
      const token = await teamToken();
      const from = at(0, 0).toISOString();
      const windowed = await get<LegacyWork[]>(`/scheduledWork?from=${from}&to=${at(3, 0).toISOString()}&taskId=${taskId}`, token);
      assert.deepEqual(
        windowed.body.map((w) => w.startsAt).sort(),
        [at(1), at(2)].map((d) => d.toISOString()),
      );
      const later = await get<LegacyWork[]>(`/scheduledWork?from=${at(300).toISOString()}&taskId=${taskId}`, token);
      assert.deepEqual(
        later.body.map((w) => w.startsAt),
        [at(400).toISOString()],
      );
      assert.deepEqual((await get<LegacyWork[]>(`/scheduledWork?memberId=${randomUUID()}`, token)).body, []);
    });

    it('validates page, limit and the window (400 invalid_request); 401 without a token', async () => {
      const token = await teamToken();
      for (const query of [
        'page=0',
        'page=x',
        'limit=0',
        'limit=501',
        'from=yesterday',
        `from=${at(5).toISOString()}&to=${at(1).toISOString()}`,
        `from=${at(0).toISOString()}&to=${at(400).toISOString()}`,
      ]) {
        const reply = await get(`/scheduledWork?${query}`, token);
        assert.equal(reply.status, 400, `${query}: ${reply.text}`);
        assert.equal(legacyCode(reply), 'invalid_request');
      }
      assert.equal((await get('/scheduledWork', undefined)).status, 401);
    });
  });
});
