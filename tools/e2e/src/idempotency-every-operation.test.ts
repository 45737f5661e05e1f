import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { V1_SCOPES } from '@workcell/credentials';
import { routeCoverage } from '@workcell/http';
import { v1Operations } from '@workcell/registry';
import { useTestEnvironment } from '@workcell/testing';
import { startV1Cell, type V1Cell } from './support/cell.js';
import { callApi, type Reply } from './support/v1.js';

/**
 * Issue 11, for every served idempotent v1 operation (driven by the registry): the key of a keyed request is
 * completed by the operation's own mutation, in the statement or transaction that makes the change, so no crash
 * between the commit and the response can let a retry run the operation a second time; and a retry with the key
 * (on the other API instance) answers the first response again, status, body, Location and ETag, writing nothing.
 */

const env = useTestEnvironment();

interface Call {
  readonly path: string;
  readonly body?: unknown;
}

/** Idempotent operations that write nothing: no change to commit the key with, so it completes after the request. */
const WRITES_NOTHING = new Set(['previewTaskRecurrence']);

describe('v1: every served idempotent operation completes its key with its change', () => {
  let cell: V1Cell;
  let token: string;

  beforeAll(async () => {
    cell = await startV1Cell(env);
    token = await cell.mint(V1_SCOPES);
  });
  afterAll(() => cell?.close());

  const post = (path: string, body?: unknown, headers: Record<string, string> = {}, app = cell.v1) => callApi<{ data: { id: string } }>(app, 'POST', path, token, body ?? {}, headers);
  const created = async (path: string, body: unknown): Promise<string> => {
    const reply = await post(path, body);
    assert.equal(reply.status, 201, `${path}: ${JSON.stringify(reply.body)}`);
    return reply.body.data.id;
  };
  /** A resource created and archived: what its restore needs. */
  const archived = async (path: string, body: unknown): Promise<Call> => {
    const id = await created(path, body);
    const reply = await callApi(cell.v1, 'DELETE', `${path}/${id}`, token);
    assert.ok(reply.status < 300, `${path}: ${JSON.stringify(reply.body)}`);
    return { path: `${path}/${id}/restore` };
  };
  const task = () => created('/v1/tasks', { title: `Task ${randomUUID()}` });
  const project = () => created('/v1/projects', { name: `Project ${randomUUID()}` });
  const contact = () => created('/v1/contacts', { kind: 'person', name: `Contact ${randomUUID()}` });
  const template = () => created('/v1/project-templates', { name: `Template ${randomUUID()}` });
  const role = () => created('/v1/roles', { name: `Role ${randomUUID()}`, permissions: ['tasks:read'] });
  const recurrence = async (rule: object, startsOn = '2030-01-01') => created('/v1/task-recurrences', { templateTaskId: await task(), rule, startsOn, timeZone: 'UTC' });
  const money = { amount: '10.00', currency: 'EUR' };
  /** An automation flow waiting an hour on task.created of tasks titled `title` (by default one no task has). */
  const automationFlow = (title = `never ${randomUUID()}`) => ({
    name: 'Keyed automation',
    trigger: { eventType: 'task.created', conditions: { 'task.title': title } },
    steps: [{ actionId: 'flow.delay', input: { seconds: 3600 } }],
  });
  /** A running automation run (waiting out its delay): a published definition triggered by a task. */
  const runningAutomation = async () => {
    const title = `waiting ${randomUUID()}`;
    const id = await created('/v1/automation-definitions', automationFlow(title));
    assert.equal((await post(`/v1/automation-definitions/${id}/publish`, { expectedVersion: '1' })).status, 201);
    await created('/v1/tasks', { title });
    for (let i = 0; i < 200; i++) {
      const run = await cell.database.prisma.automationRun.findFirst({ where: { workspaceId: cell.workspaceId, definitionId: id, stepsCompleted: 1 } });
      if (run) return run.id;
      await new Promise((r) => setTimeout(r, 100));
    }
    return assert.fail('the automation never started');
  };
  /** A file upload of the 3 bytes `abc`; an intent whose bytes were PUT to its upload URL; an available file. */
  const fileUpload = () => ({ name: `file-${randomUUID()}.txt`, contentType: 'text/plain', sizeBytes: 3, checksumSha256: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad' });
  const uploadedIntent = async () => {
    const intent = (await post('/v1/file-upload-intents', fileUpload())).body.data as unknown as { id: string; fileId: string; uploadUrl: string };
    const put = await fetch(`${cell.v1.url}${new URL(intent.uploadUrl).pathname}`, { method: 'PUT', body: 'abc', headers: { 'content-type': 'text/plain' } });
    assert.equal(put.status, 204);
    return intent;
  };
  const availableFile = async () => {
    const intent = await uploadedIntent();
    assert.equal((await post(`/v1/file-upload-intents/${intent.id}/complete`)).status, 200);
    return intent.fileId;
  };
  let timedTask: string | undefined;

  /** A request each served idempotent operation answers with success, built on what it needs. */
  const requests: Record<string, () => Promise<Call>> = {
    createTask: async () => ({ path: '/v1/tasks', body: { title: 'Keyed task' } }),
    createProject: async () => ({ path: '/v1/projects', body: { name: 'Keyed project' } }),
    createProjectTemplate: async () => ({ path: '/v1/project-templates', body: { name: 'Keyed template' } }),
    instantiateProjectTemplate: async () => ({ path: `/v1/project-templates/${await template()}/instantiate`, body: { name: 'From a template', startsOn: '2026-12-01' } }),
    startTaskTimer: async () => {
      timedTask = await task();
      return { path: `/v1/tasks/${timedTask}/timer/start` };
    },
    stopTaskTimer: async () => {
      // The member's one running timer may be startTaskTimer's.
      if (timedTask) await post(`/v1/tasks/${timedTask}/timer/stop`);
      const id = await task();
      assert.equal((await post(`/v1/tasks/${id}/timer/start`)).status, 201);
      return { path: `/v1/tasks/${id}/timer/stop` };
    },
    createTimeEntry: async () => ({ path: '/v1/time-entries', body: { taskId: await task(), startedAt: '2026-11-02T09:00:00Z', endedAt: '2026-11-02T10:00:00Z' } }),
    restoreTimeEntry: async () => archived('/v1/time-entries', { taskId: await task(), startedAt: '2026-11-03T09:00:00Z', endedAt: '2026-11-03T10:00:00Z' }),
    createContact: async () => ({ path: '/v1/contacts', body: { kind: 'organization', name: 'Keyed contact' } }),
    restoreContact: async () => archived('/v1/contacts', { kind: 'person', name: 'Archived contact' }),
    createCallNote: async () => ({ path: '/v1/call-notes', body: { contactId: await contact(), content: 'Called.' } }),
    restoreCallNote: async () => archived('/v1/call-notes', { contactId: await contact(), content: 'Archived note.' }),
    createContactGroup: async () => ({ path: '/v1/contact-groups', body: { name: 'Keyed group' } }),
    restoreContactGroup: async () => archived('/v1/contact-groups', { name: 'Archived group' }),
    createList: async () => ({ path: '/v1/lists', body: { name: 'Keyed list', kind: 'tasks' } }),
    restoreList: async () => archived('/v1/lists', { name: 'Archived list', kind: 'projects' }),
    createService: async () => ({ path: '/v1/services', body: { name: 'Keyed service' } }),
    restoreService: async () => archived('/v1/services', { name: 'Archived service' }),
    createTag: async () => ({ path: '/v1/tags', body: { name: 'Keyed tag' } }),
    restoreTag: async () => archived('/v1/tags', { name: 'Archived tag' }),
    createProduct: async () => ({ path: '/v1/products', body: { name: 'Keyed product', unit: 'piece' } }),
    restoreProduct: async () => archived('/v1/products', { name: 'Archived product', unit: 'hour' }),
    createProductGroup: async () => ({ path: '/v1/product-groups', body: { name: 'Keyed product group' } }),
    restoreProductGroup: async () => archived('/v1/product-groups', { name: 'Archived product group' }),
    createDocument: async () => ({ path: '/v1/documents', body: { title: 'Keyed document', format: 'markdown', content: '# Keyed', targetType: 'projects', targetId: await project() } }),
    createExport: async () => ({ path: '/v1/exports', body: { resourceTypes: ['tags', 'lists'], format: 'jsonl' } }),
    restoreDocument: async () => archived('/v1/documents', { title: 'Archived document', format: 'plain', content: 'Archived.' }),
    createCustomFieldDefinition: async () => ({
      path: '/v1/custom-field-definitions',
      body: { key: 'keyed_field', label: 'Keyed field', fieldType: 'select', targetTypes: ['tasks'], options: [{ key: 'a', label: 'A' }] },
    }),
    restoreCustomFieldDefinition: async () => archived('/v1/custom-field-definitions', { key: 'archived_field', label: 'Archived field', fieldType: 'text', targetTypes: ['contacts'] }),
    createFileUploadIntent: async () => ({ path: '/v1/file-upload-intents', body: fileUpload() }),
    completeFileUpload: async () => ({ path: `/v1/file-upload-intents/${(await uploadedIntent()).id}/complete` }),
    createFileDownloadIntent: async () => ({ path: `/v1/files/${await availableFile()}/download-intents` }),
    restoreFile: async () => {
      const { fileId } = await uploadedIntent();
      assert.equal((await callApi(cell.v1, 'DELETE', `/v1/files/${fileId}`, token)).status, 204);
      return { path: `/v1/files/${fileId}/restore` };
    },
    createProjectStatement: async () => ({ path: '/v1/project-statements', body: { projectId: await project(), kind: 'expense', occurredOn: '2026-11-02', quantity: '2', unitPrice: money } }),
    restoreProjectStatement: async () => archived('/v1/project-statements', { projectId: await project(), kind: 'revenue', occurredOn: '2026-11-03', quantity: '1', unitPrice: money }),
    createRole: async () => ({ path: '/v1/roles', body: { name: 'Keyed role', permissions: ['projects:read'] } }),
    createGroup: async () => ({ path: '/v1/groups', body: { name: 'Keyed group of members' } }),
    createServiceAccount: async () => ({ path: '/v1/service-accounts', body: { name: 'Keyed service account' } }),
    createComment: async () => ({ path: '/v1/comments', body: { targetType: 'tasks', targetId: await task(), body: 'Keyed comment' } }),
    // The owner's own calendar and absences (distinct dates: absences of one member may not overlap).
    createAppointment: async () => ({ path: '/v1/appointments', body: { title: 'Keyed appointment', startsAt: '2026-12-01T10:00:00Z', endsAt: '2026-12-01T11:00:00Z' } }),
    createMemberAppointment: async () => ({
      path: `/v1/members/${cell.ownerMemberId}/appointments`,
      body: { title: 'Keyed delegated appointment', startsAt: '2026-12-01T10:00:00Z', endsAt: '2026-12-01T11:00:00Z', visibility: 'private' },
    }),
    createAbsence: async () => ({ path: '/v1/absences', body: { kind: 'vacation', startsOn: '2027-01-04', endsOn: '2027-01-09' } }),
    createMemberAbsence: async () => ({ path: `/v1/members/${cell.ownerMemberId}/absences`, body: { kind: 'sick', startsOn: '2027-02-01', endsOn: '2027-02-02', status: 'approved' } }),
    createInvitation: async () => ({ path: '/v1/invitations', body: { email: `keyed-${randomUUID()}@example.com`, roleIds: [await role()] } }),
    resendInvitation: async () => {
      const id = await created('/v1/invitations', { email: `resent-${randomUUID()}@example.com`, roleIds: [await role()] });
      // Past the one-resend-a-minute bound (what a minute of waiting would do).
      await cell.database.prisma.invitation.updateMany({ where: { workspaceId: cell.workspaceId, id }, data: { lastSentAt: new Date(Date.now() - 120_000) } });
      return { path: `/v1/invitations/${id}/resend` };
    },
    createTaskRecurrence: async () => ({ path: '/v1/task-recurrences', body: { templateTaskId: await task(), rule: { frequency: 'daily' }, startsOn: '2030-01-01', timeZone: 'Europe/Berlin' } }),
    restoreTaskRecurrence: async () => archived('/v1/task-recurrences', { templateTaskId: await task(), rule: { frequency: 'weekly' }, startsOn: '2030-01-01', timeZone: 'UTC' }),
    previewTaskRecurrence: async () => ({ path: `/v1/task-recurrences/${await recurrence({ frequency: 'daily' })}/preview`, body: { count: 3 } }),
    recheckTaskRecurrence: async () => ({ path: `/v1/task-recurrences/${await recurrence({ frequency: 'daily', count: 3 }, '2026-01-01')}/recheck` }),
    submitTaskRecurrenceEvent: async () => ({
      path: `/v1/task-recurrences/${await recurrence({ frequency: 'external' })}/events`,
      body: { externalEventId: randomUUID(), eventType: 'keyed', occurredAt: '2026-11-02T09:00:00Z' },
    }),
    createAutomationDefinition: async () => ({ path: '/v1/automation-definitions', body: automationFlow() }),
    restoreAutomationDefinition: async () => archived('/v1/automation-definitions', automationFlow()),
    abortAutomationRun: async () => ({ path: `/v1/automation-runs/${await runningAutomation()}/abort` }),
  };

  const keyOf = (key: string) => cell.database.prisma.idempotencyRecord.findFirstOrThrow({ where: { workspaceId: cell.workspaceId, key }, select: { state: true, completedBy: true, result: true } });
  // The worker's own writes (an accepted export finishing) may land between a request and its retry: not the retry's.
  const WORKER_EVENTS = ['export.succeeded', 'export.failed'];
  const outboxSize = () => cell.database.prisma.outboxEvent.count({ where: { workspaceId: cell.workspaceId, eventType: { notIn: WORKER_EVENTS } } });
  const auditSize = () => cell.database.prisma.auditEvent.count({ where: { workspaceId: cell.workspaceId } });
  const headersOf = (reply: Reply) => ({ location: reply.headers.get('location'), etag: reply.headers.get('etag') });

  it('has a request for every served idempotent operation', () => {
    const served = new Set(routeCoverage(cell.v1.app as NestFastifyApplication).implemented);
    const idempotent = v1Operations.filter((op) => op.idempotent && served.has(op.operationId)).map((op) => op.operationId);
    assert.deepEqual(Object.keys(requests).sort(), idempotent.sort());
  });

  it.each(Object.keys(requests))('%s: the mutation completes the key; a retry answers the first response again and writes nothing', async (operationId) => {
    const { path, body } = await requests[operationId]!();
    const key = randomUUID();
    const first = await post(path, body, { 'idempotency-key': key });
    assert.ok([200, 201, 202].includes(first.status), `${operationId}: ${first.status} ${JSON.stringify(first.body)}`);
    assert.equal(first.headers.get('idempotency-replayed'), 'false');
    const stored = await keyOf(key);
    assert.equal(stored.state, 'completed');
    assert.equal(stored.completedBy, WRITES_NOTHING.has(operationId) ? 'request' : 'mutation', `${operationId}: its key must commit with its change`);
    const [events, audits] = [await outboxSize(), await auditSize()];
    const retry = await post(path, body, { 'idempotency-key': key }, cell.v1b);
    assert.equal(retry.status, first.status);
    assert.equal(retry.headers.get('idempotency-replayed'), 'true');
    assert.deepEqual(retry.body, first.body);
    assert.deepEqual(headersOf(retry), headersOf(first));
    assert.equal(await outboxSize(), events);
    assert.equal(await auditSize(), audits);
  });
});
