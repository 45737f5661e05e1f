import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createDatabase, type Database } from '@workcell/db';
import { type AutomationScheduler, type ProcedureContext, reviveStaleAutomationRuns, runAutomation } from '@workcell/domain';
import { useTestEnvironment } from '@workcell/testing';
import { useV1Cell } from './support/cell.js';
import { assertProblem, assertShape, callApi, listAllPages, type Reply } from './support/v1.js';

/**
 * v1 automations end to end against the running auth, worker and api-v1 with real PostgreSQL and Redis: the action
 * catalog, definitions (validation pointers, flow-implied scopes, compare-and-set, archive/restore), compare-and-set
 * publish into immutable versions (a race at one version), runs started by real events (exactly once, with the
 * owner's authority, conditions), abort of a waiting run, a revoked owner, the loop bound, and exactly-once steps
 * across a worker that dies mid-step and two workers at once.
 */

const env = useTestEnvironment();

type Definition = {
  id: string;
  name: string;
  status: 'draft' | 'published';
  publishedVersion: number | null;
  ownerCredentialId: string | null;
  archivedAt: string | null;
  version: string;
  trigger: { eventType: string; conditions?: Record<string, unknown> };
  steps: { actionId: string; input: Record<string, unknown> }[];
};
type Version = { definitionId: string; number: number; publishedBy: string; note: string | null; steps: unknown[] };
type Run = { id: string; definitionId: string; status: string; stepsCompleted: number; eventId: string; depth: number; resumeAt: string | null; error: { code: string; message: string } | null };
type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
type Operation = { id: string; kind: string; status: string; resourceType: string; resourceId: string };

const AUTOMATE = ['automations:read', 'automations:write', 'tasks:read', 'tasks:write', 'comments:read', 'comments:write'];

describe('v1 automations', () => {
  const cell = useV1Cell(env);
  let seq = 0;

  const call = <T = unknown>(method: string, path: string, token: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply<T>> =>
    callApi<T>(cell.v1, method, path, token, body, headers);
  /** A flow on task.created of tasks titled `title` (so each test's definitions see only its own tasks). */
  const onTask = (title: string, steps: unknown[]) => ({ name: `Automation ${++seq}`, trigger: { eventType: 'task.created', conditions: { 'task.title': title } }, steps });
  const define = async (body: unknown, token = cell.admin) => {
    const reply = await call<{ data: Definition }>('POST', '/v1/automation-definitions', token, body);
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    return reply.body.data;
  };
  const publish = async (d: Definition, token = cell.admin) => {
    const reply = await call<{ data: Version }>('POST', `/v1/automation-definitions/${d.id}/publish`, token, { expectedVersion: d.version });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    return reply.body.data;
  };
  const task = async (title: string) => {
    const reply = await call<{ data: { id: string } }>('POST', '/v1/tasks', cell.admin, { title });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    return reply.body.data.id;
  };
  const runsOf = (definitionId: string) => listAllPages<Run>(cell.v1, `/v1/automation-runs?definitionId=${definitionId}`, cell.admin);
  const tasksTitled = (title: string) => cell.database.prisma.task.count({ where: { workspaceId: cell.workspaceId, title } });
  /** Polls until `check` holds (the worker runs asynchronously); fails after 20 s. */
  const eventually = async <T>(what: string, read: () => Promise<T>, check: (value: T) => boolean): Promise<T> => {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const value = await read();
      if (check(value)) return value;
      assert.ok(Date.now() < deadline, `${what}: ${JSON.stringify(value)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  /** Until the relay has published every outbox event so far (so every trigger they could fire has fired). */
  const relayed = () =>
    eventually(
      'the relay published the outbox',
      () => cell.database.prisma.outboxEvent.count({ where: { workspaceId: cell.workspaceId, publishedAt: null } }),
      (n) => n === 0,
    );
  const credentialOf = async (token: string) => (await call<{ data: { credentialId: string } }>('GET', '/v1/auth/context', token)).body.data.credentialId;

  describe('action catalog', () => {
    it('lists the actions with their required scopes and JSON Schema inputs', async () => {
      const reply = await call<{ data: { id: string; requiredScopes: string[]; inputSchema: Record<string, unknown> }[] }>('GET', '/v1/automation-actions', cell.admin);
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      assert.deepEqual(
        reply.body.data.map((a) => a.id),
        ['tasks.create', 'tasks.update', 'comments.create', 'flow.delay'],
      );
      for (const a of reply.body.data) assertShape('listAutomationActions', a);
      assert.deepEqual(reply.body.data.find((a) => a.id === 'tasks.create')!.requiredScopes, ['tasks:write']);
      assert.equal(reply.body.data.find((a) => a.id === 'flow.delay')!.inputSchema['type'], 'object');
      // Paged like every list.
      const paged = await listAllPages<{ id: string }>(cell.v1, '/v1/automation-actions?limit=3', cell.admin);
      assert.deepEqual(
        paged.map((a) => a.id),
        reply.body.data.map((a) => a.id),
      );
    });
  });

  describe('definitions', () => {
    it('creates a draft: 201, Location, ETag, shape; reads and lists it', async () => {
      const reply = await call<{ data: Definition }>('POST', '/v1/automation-definitions', cell.admin, onTask('draft', [{ actionId: 'tasks.create', input: { title: 'x' } }]));
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
      const d = reply.body.data;
      assertShape('createAutomationDefinition', d);
      assert.equal(reply.headers.get('location'), `/v1/automation-definitions/${d.id}`);
      assert.deepEqual([d.status, d.publishedVersion, d.ownerCredentialId, d.version], ['draft', null, null, '1']);
      const got = await call<{ data: Definition }>('GET', `/v1/automation-definitions/${d.id}`, cell.admin);
      assert.equal(got.status, 200);
      assert.deepEqual(got.body.data, d);
      const drafts = await listAllPages<Definition>(cell.v1, '/v1/automation-definitions?status=draft', cell.admin);
      assert.ok(drafts.some((x) => x.id === d.id));
      const published = await listAllPages<Definition>(cell.v1, '/v1/automation-definitions?status=published', cell.admin);
      assert.ok(!published.some((x) => x.id === d.id));
    });

    it('refuses an invalid flow with pointers, writing nothing', async () => {
      const before = await cell.database.prisma.automationDefinition.count();
      const reply = await call('POST', '/v1/automation-definitions', cell.admin, {
        name: 'Bad',
        trigger: { eventType: 'task.exploded' },
        steps: [
          { actionId: 'tasks.teleport', input: {} },
          { actionId: 'tasks.create', input: { title: 42 } },
          { actionId: 'flow.delay', input: { seconds: 8 * 24 * 3600 } },
          { actionId: 'comments.create', input: { targetType: 'tasks', targetId: '{{event.data.task.id}}', body: 'templated id passes' } },
        ],
      });
      assertProblem(reply, 400, 'validation_failed', '/trigger/eventType');
      assertProblem(reply, 400, 'validation_failed', '/steps/0/actionId');
      assertProblem(reply, 400, 'validation_failed', '/steps/1/input/title');
      assertProblem(reply, 400, 'validation_failed', '/steps/2/input/seconds');
      const pointers = (reply.body as { errors: { source?: { pointer?: string } }[] }).errors.map((e) => e.source?.pointer);
      assert.ok(!pointers.some((p) => p?.startsWith('/steps/3')), JSON.stringify(pointers));
      assert.equal(await cell.database.prisma.automationDefinition.count(), before);
    });

    it('needs the scopes the flow implies on create, update and publish (403 naming them)', async () => {
      const narrow = await cell.mint(['automations:read', 'automations:write', 'tasks:read']);
      const flow = onTask('scoped', [{ actionId: 'tasks.create', input: { title: 'y' } }]);
      const refused = await call<{ errors: { meta?: { missingScopes?: string[] } }[] }>('POST', '/v1/automation-definitions', narrow, flow);
      assertProblem(refused, 403, 'insufficient_scope');
      assert.match(JSON.stringify(refused.body), /tasks:write/);
      // A delay-only flow implies no write scope: allowed. Changing it to a task flow is refused; so is publishing one.
      const d = await define(onTask('scoped', [{ actionId: 'flow.delay', input: { seconds: 5 } }]), narrow);
      assertProblem(await call('PATCH', `/v1/automation-definitions/${d.id}`, narrow, { expectedVersion: d.version, steps: flow.steps }), 403, 'insufficient_scope');
      const full = await define(flow);
      assertProblem(await call('POST', `/v1/automation-definitions/${full.id}/publish`, narrow, { expectedVersion: full.version }), 403, 'insufficient_scope');
      // The trigger's event must be readable by the credential too (tasks:read here).
      const blind = await cell.mint(['automations:read', 'automations:write']);
      assertProblem(await call('POST', '/v1/automation-definitions', blind, onTask('scoped', [{ actionId: 'flow.delay', input: { seconds: 5 } }])), 403, 'insufficient_scope');
      // Reading needs automations:read.
      const none = await cell.mint(['tasks:read']);
      assertProblem(await call('GET', '/v1/automation-definitions', none), 403, 'insufficient_scope');
    });

    it('updates the draft by compare-and-set, archives and restores', async () => {
      const d = await define(onTask('cas', [{ actionId: 'tasks.create', input: { title: 'z' } }]));
      const updated = await call<{ data: Definition }>('PATCH', `/v1/automation-definitions/${d.id}`, cell.admin, { expectedVersion: d.version, name: 'Renamed' });
      assert.equal(updated.status, 200, JSON.stringify(updated.body));
      assert.deepEqual([updated.body.data.name, updated.body.data.version], ['Renamed', '2']);
      assertProblem(await call('PATCH', `/v1/automation-definitions/${d.id}`, cell.admin, { expectedVersion: d.version, name: 'Stale' }), 409, 'version_conflict');
      assertProblem(
        await call('PATCH', `/v1/automation-definitions/${d.id}`, cell.admin, { expectedVersion: '2', steps: [{ actionId: 'nope', input: {} }] }),
        400,
        'validation_failed',
        '/steps/0/actionId',
      );
      assert.equal((await call('DELETE', `/v1/automation-definitions/${d.id}`, cell.admin)).status, 204);
      assertProblem(await call('PATCH', `/v1/automation-definitions/${d.id}`, cell.admin, { expectedVersion: '3', name: 'Archived' }), 409, 'conflict');
      assertProblem(await call('POST', `/v1/automation-definitions/${d.id}/publish`, cell.admin, { expectedVersion: '3' }), 409, 'conflict');
      const restored = await call<{ data: Definition }>('POST', `/v1/automation-definitions/${d.id}/restore`, cell.admin);
      assert.equal(restored.status, 200);
      assert.equal(restored.body.data.archivedAt, null);
    });

    it('ids in step inputs must name something of this workspace on create, update and publish; templates are not ids (issue 25)', async () => {
      const otherWorkspace = await cell.otherWorkspace();
      const foreignTask = (await cell.database.prisma.task.create({ data: { workspaceId: otherWorkspace, title: 'Foreign' } })).id;
      const foreignProject = (await cell.database.prisma.project.create({ data: { workspaceId: otherWorkspace, name: 'Foreign' } })).id;
      const ownTask = await task('own');
      const fine = { actionId: 'tasks.create', input: { title: 'fine' } };
      const cases: [{ actionId: string; input: Record<string, unknown> }, string][] = [
        [{ actionId: 'tasks.update', input: { taskId: foreignTask, priority: 'high' } }, '/taskId'],
        [{ actionId: 'tasks.update', input: { taskId: randomUUID(), priority: 'high' } }, '/taskId'],
        [{ actionId: 'tasks.create', input: { title: 'x', projectId: foreignProject } }, '/projectId'],
        [{ actionId: 'tasks.create', input: { title: 'x', projectId: randomUUID() } }, '/projectId'],
        [{ actionId: 'tasks.create', input: { title: 'x', tagIds: ['{{event.data.task.id}}', randomUUID()] } }, '/tagIds/1'],
        [{ actionId: 'comments.create', input: { targetType: 'tasks', targetId: foreignTask, body: 'x' } }, '/targetId'],
        [{ actionId: 'comments.create', input: { targetType: 'projects', targetId: randomUUID(), body: 'x' } }, '/targetId'],
      ];
      const draft = await define(onTask('references', [fine]));
      for (const [step, pointer] of cases) {
        const body = onTask('references', [fine, step]);
        assertProblem(await call('POST', '/v1/automation-definitions', cell.admin, body), 400, 'validation_failed', `/steps/1/input${pointer}`);
        assertProblem(
          await call('PATCH', `/v1/automation-definitions/${draft.id}`, cell.admin, { expectedVersion: draft.version, steps: body.steps }),
          400,
          'validation_failed',
          `/steps/1/input${pointer}`,
        );
        // A draft stored before this check (written behind the API's back) is refused when published.
        const stored = await cell.database.prisma.automationDefinition.create({ data: { workspaceId: cell.workspaceId, name: 'Stored', trigger: body.trigger, steps: body.steps as Json[] } });
        assertProblem(await call('POST', `/v1/automation-definitions/${stored.id}/publish`, cell.admin, { expectedVersion: '1' }), 400, 'validation_failed', `/steps/1/input${pointer}`);
        assert.equal(await cell.database.prisma.automationVersion.count({ where: { workspaceId: cell.workspaceId, definitionId: stored.id } }), 0);
      }
      // This workspace's ids and templates (checked when the run resolves them) pass.
      const ok = await define(
        onTask('references', [
          { actionId: 'tasks.update', input: { taskId: ownTask, priority: 'high' } },
          { actionId: 'tasks.update', input: { taskId: '{{event.data.task.id}}', tagIds: ['{{event.data.task.id}}'] } },
          { actionId: 'comments.create', input: { targetType: 'tasks', targetId: ownTask, body: 'x' } },
        ]),
      );
      await publish(ok);
    });

    it('keeps tenants apart: another workspace’s definition, versions and runs are 404', async () => {
      const otherWorkspace = await cell.otherWorkspace();
      const foreign = await cell.database.prisma.automationDefinition.create({ data: { workspaceId: otherWorkspace, name: 'Foreign', trigger: { eventType: 'task.created' }, steps: [] } });
      assertProblem(await call('GET', `/v1/automation-definitions/${foreign.id}`, cell.admin), 404, 'not_found');
      assertProblem(await call('GET', `/v1/automation-definitions/${foreign.id}/versions`, cell.admin), 404, 'not_found');
      assertProblem(await call('POST', `/v1/automation-definitions/${foreign.id}/publish`, cell.admin, { expectedVersion: '1' }), 404, 'not_found');
      assertProblem(await call('GET', `/v1/automation-runs/${randomUUID()}`, cell.admin), 404, 'not_found');
      assertProblem(await call('POST', `/v1/automation-runs/${randomUUID()}/abort`, cell.admin), 404, 'not_found');
      assert.ok(!(await listAllPages<Definition>(cell.v1, '/v1/automation-definitions', cell.admin)).some((x) => x.id === foreign.id));
    });
  });

  describe('publish and versions', () => {
    it('publishes immutable versions by compare-and-set; the publisher becomes the owner', async () => {
      const d = await define(onTask('publish', [{ actionId: 'tasks.create', input: { title: 'v' } }]));
      const reply = await call<{ data: Version }>('POST', `/v1/automation-definitions/${d.id}/publish`, cell.admin, { expectedVersion: d.version, note: 'first' });
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
      assertShape('publishAutomationDefinition', reply.body.data);
      assert.equal(reply.headers.get('location'), `/v1/automation-definitions/${d.id}/versions/1`);
      assert.deepEqual([reply.body.data.number, reply.body.data.note, reply.body.data.publishedBy], [1, 'first', await credentialOf(cell.admin)]);
      assertProblem(await call('POST', `/v1/automation-definitions/${d.id}/publish`, cell.admin, { expectedVersion: d.version }), 409, 'version_conflict');
      const after = (await call<{ data: Definition }>('GET', `/v1/automation-definitions/${d.id}`, cell.admin)).body.data;
      assert.deepEqual([after.status, after.publishedVersion, after.ownerCredentialId, after.version], ['published', 1, await credentialOf(cell.admin), '2']);
      // The draft changes; version 1 does not.
      const changed = await call<{ data: Definition }>('PATCH', `/v1/automation-definitions/${d.id}`, cell.admin, {
        expectedVersion: '2',
        steps: [{ actionId: 'tasks.create', input: { title: 'w' } }],
      });
      assert.equal(changed.status, 200);
      const second = await publish(changed.body.data);
      assert.equal(second.number, 2);
      const versions = await listAllPages<Version>(cell.v1, `/v1/automation-definitions/${d.id}/versions`, cell.admin);
      assert.deepEqual(
        versions.map((v) => v.number),
        [1, 2],
      );
      const first = await call<{ data: Version }>('GET', `/v1/automation-definitions/${d.id}/versions/1`, cell.admin);
      assert.equal(first.status, 200);
      assert.deepEqual(first.body.data.steps, [{ actionId: 'tasks.create', input: { title: 'v' } }]);
      assertProblem(await call('GET', `/v1/automation-definitions/${d.id}/versions/3`, cell.admin), 404, 'not_found');
      // No write path updates a version, and the database refuses one.
      await assert.rejects(cell.database.prisma.automationVersion.updateMany({ where: { definitionId: d.id }, data: { note: 'changed' } }), /immutable/);
    });

    it('two concurrent publishes at one version: one 201, one 409 version_conflict, one version', async () => {
      const d = await define(onTask('race', [{ actionId: 'tasks.create', input: { title: 'r' } }]));
      const replies = await Promise.all([0, 1].map(() => call('POST', `/v1/automation-definitions/${d.id}/publish`, cell.admin, { expectedVersion: d.version })));
      assert.deepEqual(replies.map((r) => r.status).sort(), [201, 409]);
      assertProblem(
        replies.find((r) => r.status === 409)!,
        409,
        'version_conflict',
      );
      assert.equal(await cell.database.prisma.automationVersion.count({ where: { definitionId: d.id } }), 1);
    });
  });

  describe('runs', () => {
    it('a real event starts exactly one run, whose action acts through the domain with the owner’s authority', async () => {
      const d = await define({
        name: 'Comment on high-priority tasks',
        trigger: { eventType: 'task.created', conditions: { 'task.title': 'run me', 'task.priority': 'high' } },
        steps: [{ actionId: 'comments.create', input: { targetType: 'tasks', targetId: '{{event.data.task.id}}', body: 'Seen by automation' } }],
      });
      await publish(d);
      const low = await call<{ data: { id: string } }>('POST', '/v1/tasks', cell.admin, { title: 'run me', priority: 'low' });
      const high = await call<{ data: { id: string } }>('POST', '/v1/tasks', cell.admin, { title: 'run me', priority: 'high' });
      const [run] = await eventually(
        'one succeeded run',
        () => runsOf(d.id),
        (runs) => runs.length === 1 && runs[0]!.status === 'succeeded',
      );
      assertShape('getAutomationRun', run);
      assert.deepEqual([run!.stepsCompleted, run!.depth, run!.error], [1, 1, null]);
      const comments = await listAllPages<{ body: string; author: unknown }>(cell.v1, `/v1/comments?targetType=tasks&targetId=${high.body.data.id}`, cell.admin);
      assert.deepEqual(
        comments.map((c) => c.body),
        ['Seen by automation'],
      );
      assert.equal((await listAllPages(cell.v1, `/v1/comments?targetType=tasks&targetId=${low.body.data.id}`, cell.admin)).length, 0);
      // The relay publishing the event again (a rolled-back relay run) inserts no second run.
      await relayed();
      await cell.database.prisma.outboxEvent.updateMany({ where: { workspaceId: cell.workspaceId, id: run!.eventId }, data: { publishedAt: null } });
      await relayed();
      assert.equal((await runsOf(d.id)).length, 1);
      const got = await call<{ data: Run }>('GET', `/v1/automation-runs/${run!.id}`, cell.admin);
      assert.equal(got.status, 200);
      const succeeded = await listAllPages<Run>(cell.v1, `/v1/automation-runs?definitionId=${d.id}&status=succeeded`, cell.admin);
      assert.equal(succeeded.length, 1);
      assert.equal((await listAllPages<Run>(cell.v1, `/v1/automation-runs?definitionId=${d.id}&status=failed`, cell.admin)).length, 0);
    });

    it('tasks.update changes the triggering task; a delay is resumed by the worker’s delayed job, each step once', async () => {
      const title = `delayed ${randomUUID()}`;
      const d = await define(
        onTask(title, [
          { actionId: 'tasks.update', input: { taskId: '{{event.data.task.id}}', priority: 'urgent' } },
          { actionId: 'flow.delay', input: { seconds: 1 } },
          { actionId: 'tasks.create', input: { title: `${title} after` } },
        ]),
      );
      await publish(d);
      const trigger = await task(title);
      const [run] = await eventually(
        'a succeeded run',
        () => runsOf(d.id),
        (runs) => runs.length === 1 && runs[0]!.status === 'succeeded',
      );
      assert.deepEqual([run!.stepsCompleted, run!.resumeAt], [3, null]);
      const updated = await call<{ data: { priority: string } }>('GET', `/v1/tasks/${trigger}`, cell.admin);
      assert.equal(updated.body.data.priority, 'urgent');
      assert.equal(await tasksTitled(`${title} after`), 1);
    });

    it('revives a running run whose job was lost (untouched for a minute, not waiting)', async () => {
      const d = await define(onTask('lost job', [{ actionId: 'flow.delay', input: { seconds: 3600 } }]));
      await publish(d);
      await task('lost job');
      const [run] = await eventually(
        'a waiting run',
        () => runsOf(d.id),
        (runs) => runs.length === 1 && runs[0]!.stepsCompleted === 1,
      );
      const resumed: { runId: string; step: number }[] = [];
      const scheduler: AutomationScheduler = { resume: async (job) => void resumed.push({ runId: job.runId, step: job.step }) };
      const ctx = { database: cell.database, config: cell.config, now: () => new Date() };
      // Waiting out its delay: not revived.
      await cell.database.prisma.automationRun.updateMany({ where: { id: run!.id }, data: { updatedAt: new Date(Date.now() - 120_000) } });
      await reviveStaleAutomationRuns(ctx, scheduler);
      assert.ok(!resumed.some((r) => r.runId === run!.id));
      // Its resume time long past and nothing happened since: its continuation is enqueued again (same job id).
      await cell.database.prisma.automationRun.updateMany({ where: { id: run!.id }, data: { updatedAt: new Date(Date.now() - 120_000), resumeAt: new Date(Date.now() - 90_000) } });
      await reviveStaleAutomationRuns(ctx, scheduler);
      assert.deepEqual(
        resumed.filter((r) => r.runId === run!.id),
        [{ runId: run!.id, step: 1 }],
      );
      assert.equal((await call('POST', `/v1/automation-runs/${run!.id}/abort`, cell.admin)).status, 202);
    });

    it('an archived definition triggers nothing', async () => {
      const d = await define(onTask('archived trigger', [{ actionId: 'tasks.create', input: { title: 'never' } }]));
      await publish(d);
      assert.equal((await call('DELETE', `/v1/automation-definitions/${d.id}`, cell.admin)).status, 204);
      await task('archived trigger');
      await relayed();
      assert.equal((await runsOf(d.id)).length, 0);
      assert.equal(await tasksTitled('never'), 0);
    });

    it('an owner credential revoked before the run: the run fails owner_unauthorized and writes nothing', async () => {
      const owner = await cell.mint(AUTOMATE);
      const d = await define(onTask('revoked owner', [{ actionId: 'tasks.create', input: { title: 'by revoked owner' } }]), owner);
      await publish(d, owner);
      const credentialId = await credentialOf(owner);
      await cell.database.changeAuthorization(cell.workspaceId, () =>
        cell.database.prisma.credential.updateMany({ where: { workspaceId: cell.workspaceId, id: credentialId }, data: { status: 'revoked', revokedAt: new Date() } }),
      );
      await task('revoked owner');
      const [run] = await eventually(
        'a failed run',
        () => runsOf(d.id),
        (runs) => runs.length === 1 && runs[0]!.status === 'failed',
      );
      assert.equal(run!.error?.code, 'owner_unauthorized');
      assert.equal(await tasksTitled('by revoked owner'), 0);
    });

    it('an automation’s own writes never trigger it again, and a chain across definitions stops at the depth bound', async () => {
      const self = await define(onTask('echo', [{ actionId: 'tasks.create', input: { title: 'echo' } }]));
      await publish(self);
      await task('echo');
      await eventually(
        'one succeeded run',
        () => runsOf(self.id),
        (runs) => runs.length === 1 && runs[0]!.status === 'succeeded',
      );
      await relayed();
      assert.equal((await runsOf(self.id)).length, 1);
      assert.equal(await tasksTitled('echo'), 2);
      // A and B each create a task the other is triggered by: depths 1..5 run, depth 6 is refused (loop_bound).
      const a = await define(onTask('ping', [{ actionId: 'tasks.create', input: { title: 'pong' } }]));
      const b = await define(onTask('pong', [{ actionId: 'tasks.create', input: { title: 'ping' } }]));
      await publish(a);
      await publish(b);
      await task('ping');
      const bounded = await eventually(
        'a run refused by the loop bound',
        async () => [...(await runsOf(a.id)), ...(await runsOf(b.id))],
        (runs) => runs.some((r) => r.error?.code === 'loop_bound'),
      );
      await eventually(
        'the chain settled',
        async () => [...(await runsOf(a.id)), ...(await runsOf(b.id))],
        (runs) => runs.every((r) => r.status !== 'running'),
      );
      await relayed();
      const runs = [...(await runsOf(a.id)), ...(await runsOf(b.id))];
      assert.equal(runs.length, 6, JSON.stringify(runs));
      assert.deepEqual(runs.map((r) => r.depth).sort(), [1, 2, 3, 4, 5, 6]);
      assert.deepEqual(
        runs.filter((r) => r.status === 'failed').map((r) => [r.depth, r.error?.code]),
        [[6, 'loop_bound']],
      );
      assert.ok(bounded.length > 0);
    });

    it('aborts a waiting run (202, Location, automations:run); its later steps are never applied', async () => {
      const d = await define(
        onTask('abort me', [
          { actionId: 'flow.delay', input: { seconds: 3600 } },
          { actionId: 'tasks.create', input: { title: 'after abort' } },
        ]),
      );
      await publish(d);
      await task('abort me');
      const [run] = await eventually(
        'a waiting run',
        () => runsOf(d.id),
        (runs) => runs.length === 1 && runs[0]!.stepsCompleted === 1,
      );
      assert.equal(run!.status, 'running');
      assert.ok(run!.resumeAt !== null);
      const reader = await cell.mint(['automations:read', 'automations:write']);
      assertProblem(await call('POST', `/v1/automation-runs/${run!.id}/abort`, reader), 403, 'insufficient_scope');
      const reply = await call<{ data: Operation }>('POST', `/v1/automation-runs/${run!.id}/abort`, cell.admin);
      assert.equal(reply.status, 202, JSON.stringify(reply.body));
      assert.equal(reply.headers.get('location'), `/v1/automation-runs/${run!.id}`);
      assert.deepEqual([reply.body.data.status, reply.body.data.resourceType, reply.body.data.resourceId], ['succeeded', 'automation-runs', run!.id]);
      const aborted = (await call<{ data: Run }>('GET', `/v1/automation-runs/${run!.id}`, cell.admin)).body.data;
      assert.equal(aborted.status, 'aborted');
      assertProblem(await call('POST', `/v1/automation-runs/${run!.id}/abort`, cell.admin), 409, 'automation_run_not_running');
      // The delayed continuation runs (here at once): it finds the run aborted and applies nothing.
      const outcome = await runAutomation(
        { database: cell.database, config: cell.config, now: () => new Date() },
        { resume: async () => undefined },
        { workspaceId: cell.workspaceId, runId: run!.id, step: 1 },
        { attempt: 1, attempts: 3 },
      );
      assert.equal(outcome.outcome, 'skipped');
      assert.equal(await tasksTitled('after abort'), 0);
    });

    describe('exactly once across worker failures', () => {
      const procedureContext = (database: Database): ProcedureContext => ({ database, config: cell.config, now: () => new Date() });
      const scheduler: AutomationScheduler = { resume: async () => undefined };

      it('a worker that dies mid-step applies nothing; a restarted worker and a second one at once apply each step once', async () => {
        const title = `resume ${randomUUID()}`;
        const d = await define(
          onTask(title, [
            { actionId: 'tasks.create', input: { title: `${title} A` } },
            { actionId: 'flow.delay', input: { seconds: 3600 } },
            { actionId: 'tasks.create', input: { title: `${title} B` } },
            { actionId: 'comments.create', input: { targetType: 'tasks', targetId: '{{event.data.task.id}}', body: `${title} C` } },
          ]),
        );
        await publish(d);
        const trigger = await task(title);
        // The cell's worker applies step 0 and the delay; the continuation is an hour away, so the rest is ours.
        const [run] = await eventually(
          'a waiting run',
          () => runsOf(d.id),
          (runs) => runs.length === 1 && runs[0]!.stepsCompleted === 2,
        );
        const job = { workspaceId: cell.workspaceId, runId: run!.id, step: 2 };
        // The worker "dies" inside step 2's transaction (its task insert fails): the step rolls back, the cursor stays.
        const fault = `automation_fault_${randomUUID().replace(/-/g, '')}`;
        await cell.database.prisma.$executeRawUnsafe(
          `CREATE FUNCTION ${fault}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.title = '${title} B' THEN RAISE EXCEPTION 'worker died'; END IF; RETURN NEW; END $$`,
        );
        await cell.database.prisma.$executeRawUnsafe(`CREATE TRIGGER ${fault} BEFORE INSERT ON tasks FOR EACH ROW EXECUTE FUNCTION ${fault}()`);
        try {
          await assert.rejects(runAutomation(procedureContext(cell.database), scheduler, job, { attempt: 1, attempts: 3 }));
        } finally {
          await cell.database.prisma.$executeRawUnsafe(`DROP TRIGGER ${fault} ON tasks`);
          await cell.database.prisma.$executeRawUnsafe(`DROP FUNCTION ${fault}()`);
        }
        assert.equal((await call<{ data: Run }>('GET', `/v1/automation-runs/${run!.id}`, cell.admin)).body.data.stepsCompleted, 2);
        assert.equal(await tasksTitled(`${title} B`), 0);
        // Two fresh workers (own pools) retry the job at once: each remaining step is applied once.
        const workers = [createDatabase(cell.config, { poolSize: 2 }), createDatabase(cell.config, { poolSize: 2 })];
        try {
          const outcomes = await Promise.all(workers.map((db) => runAutomation(procedureContext(db), scheduler, job, { attempt: 2, attempts: 3 })));
          assert.ok(
            outcomes.some((o) => o.outcome === 'succeeded'),
            JSON.stringify(outcomes),
          );
        } finally {
          for (const db of workers) await db.close();
        }
        const done = (await call<{ data: Run }>('GET', `/v1/automation-runs/${run!.id}`, cell.admin)).body.data;
        assert.deepEqual([done.status, done.stepsCompleted], ['succeeded', 4]);
        assert.equal(await tasksTitled(`${title} A`), 1);
        assert.equal(await tasksTitled(`${title} B`), 1);
        const comments = await listAllPages<{ body: string }>(cell.v1, `/v1/comments?targetType=tasks&targetId=${trigger}`, cell.admin);
        assert.deepEqual(
          comments.map((c) => c.body),
          [`${title} C`],
        );
        // A duplicate of the job after the end does nothing.
        assert.equal((await runAutomation(procedureContext(cell.database), scheduler, job, { attempt: 1, attempts: 3 })).outcome, 'skipped');
      });
    });
  });
});
