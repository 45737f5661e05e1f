import assert from 'node:assert/strict';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { routeCoverage } from '@workcell/http';
import { v1Operations } from '@workcell/registry';
import { useTestEnvironment } from '@workcell/testing';
import { startV1Cell, type V1Cell } from './support/cell.js';
import { callApi, type Reply } from './support/v1.js';

/**
 * Every `Location` the v1 API sends names a registry route that answers GET (issue 10: created credentials
 * pointed to routes that do not exist). Driven by the registry: every served operation that declares
 * `Location` must have a request below (a new one fails this test until it is added), is sent, and its
 * Location is matched against the registry's GET templates and fetched with the same credential.
 */

const env = useTestEnvironment();

type Request = { readonly path: string; readonly body?: unknown; readonly headers?: Record<string, string> };
type Data = { data: { id: string } };

const getTemplates = v1Operations.filter((op) => op.method === 'GET').map((op) => new RegExp(`^${op.path.replace(/\{\w+\}/g, '[^/?]+')}(\\?.*)?$`));

describe('v1: every Location names a route that answers GET', () => {
  let cell: V1Cell;
  let token: string;
  let seq = 0;

  beforeAll(async () => {
    cell = await startV1Cell(env);
    token = cell.demo.personalAccessToken;
  });
  afterAll(() => cell?.close());

  const create = async (path: string, body: unknown): Promise<string> => {
    const reply = await callApi<Data>(cell.v1, 'POST', path, token, body);
    assert.equal(reply.status, 201, `${path}: ${JSON.stringify(reply.body)}`);
    return reply.body.data.id;
  };
  const project = () => create('/v1/projects', { name: `Located ${++seq}` });
  const etagOf = async (path: string) => (await callApi(cell.v1, 'GET', path, token)).headers.get('etag')!;
  /** A project lifecycle action (202): the project's current ETag as If-Match. */
  const lifecycle = (action: (id: string) => string, prepare?: (id: string) => Promise<void>) => async (): Promise<Request> => {
    const id = await project();
    await prepare?.(id);
    return { path: action(id), headers: { 'if-match': await etagOf(`/v1/projects/${id}`) } };
  };
  /** Waits until the project's lifecycle operation is done (one at a time per project). */
  const settle = async (id: string, method: string, path: string, expected: string) => {
    const reply = await callApi(cell.v1, method, path, token, undefined, { 'if-match': await etagOf(`/v1/projects/${id}`) });
    assert.equal(reply.status, 202, JSON.stringify(reply.body));
    for (let i = 0; i < 100; i++) {
      const status = ((await callApi<{ data: { status: string } }>(cell.v1, 'GET', `/v1/projects/${id}`, token)).body.data as { status: string }).status;
      if (status === expected) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.fail(`project ${id} never became ${expected}`);
  };

  const recurrence = async (rule: object, startsOn = '2030-01-01') =>
    create('/v1/task-recurrences', { templateTaskId: await create('/v1/tasks', { title: `Template ${++seq}` }), rule, startsOn, timeZone: 'UTC' });
  /** An automation flow waiting an hour on task.created of tasks titled `title`. */
  const automationFlow = (title: string) => ({
    name: `Located ${++seq}`,
    trigger: { eventType: 'task.created', conditions: { 'task.title': title } },
    steps: [{ actionId: 'flow.delay', input: { seconds: 3600 } }],
  });
  /** A running automation run (waiting out its delay). */
  const runningAutomation = async () => {
    const title = `Waiting ${++seq}`;
    const id = await create('/v1/automation-definitions', automationFlow(title));
    assert.equal((await callApi(cell.v1, 'POST', `/v1/automation-definitions/${id}/publish`, token, { expectedVersion: '1' })).status, 201);
    await create('/v1/tasks', { title });
    for (let i = 0; i < 200; i++) {
      const run = await cell.database.prisma.automationRun.findFirst({ where: { workspaceId: cell.workspaceId, definitionId: id, stepsCompleted: 1 } });
      if (run) return run.id;
      await new Promise((r) => setTimeout(r, 100));
    }
    return assert.fail('the automation never started');
  };
  const REQUESTS: Record<string, () => Promise<Request>> = {
    createTag: async () => ({ path: '/v1/tags', body: { name: `Tag ${++seq}` } }),
    createList: async () => ({ path: '/v1/lists', body: { name: `List ${++seq}`, kind: 'tasks' } }),
    createProject: async () => ({ path: '/v1/projects', body: { name: `Project ${++seq}` } }),
    createTask: async () => ({ path: '/v1/tasks', body: { title: `Task ${++seq}` } }),
    createContact: async () => ({ path: '/v1/contacts', body: { kind: 'person', name: `Contact ${++seq}` } }),
    createContactGroup: async () => ({ path: '/v1/contact-groups', body: { name: `Group ${++seq}` } }),
    createCallNote: async () => ({ path: '/v1/call-notes', body: { content: `Note ${++seq}`, contactId: await create('/v1/contacts', { kind: 'person', name: `Noted ${++seq}` }) } }),
    createGroup: async () => ({ path: '/v1/groups', body: { name: `Team ${++seq}` } }),
    createRole: async () => ({ path: '/v1/roles', body: { name: `Role ${++seq}`, permissions: ['projects:read'] } }),
    createProduct: async () => ({ path: '/v1/products', body: { name: `Product ${++seq}`, unit: 'piece' } }),
    createProductGroup: async () => ({ path: '/v1/product-groups', body: { name: `Products ${++seq}` } }),
    createDocument: async () => ({ path: '/v1/documents', body: { title: `Document ${++seq}`, format: 'plain', content: 'Located.' } }),
    createCustomFieldDefinition: async () => ({ path: '/v1/custom-field-definitions', body: { key: `located_${++seq}`, label: 'Located', fieldType: 'text', targetTypes: ['tasks'] } }),
    createFileUploadIntent: async () => ({
      path: '/v1/file-upload-intents',
      body: { name: `file-${++seq}.txt`, contentType: 'text/plain', sizeBytes: 3, checksumSha256: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad' },
    }),
    createInvitation: async () => ({
      path: '/v1/invitations',
      body: { email: `located-${++seq}@example.com`, roleIds: [await create('/v1/roles', { name: `Offered ${++seq}`, permissions: ['tasks:read'] })] },
    }),
    createAppointment: async () => ({ path: '/v1/appointments', body: { title: `Located ${++seq}`, startsAt: '2026-12-01T10:00:00Z', endsAt: '2026-12-01T11:00:00Z' } }),
    createAbsence: async () => ({ path: '/v1/absences', body: { kind: 'vacation', startsOn: `2030-01-${String((++seq % 28) + 1).padStart(2, '0')}`, endsOn: '2030-02-01' } }),
    createService: async () => ({ path: '/v1/services', body: { name: `Service ${++seq}` } }),
    createProjectStatement: async () => ({
      path: '/v1/project-statements',
      body: { projectId: await project(), kind: 'expense', occurredOn: '2026-03-01', description: `Statement ${++seq}`, quantity: '1', unitPrice: { amount: '10', currency: 'EUR' } },
    }),
    createProjectTemplate: async () => ({ path: '/v1/project-templates', body: { name: `Template ${++seq}` } }),
    instantiateProjectTemplate: async () => ({
      path: `/v1/project-templates/${await create('/v1/project-templates', { name: `Template ${++seq}` })}/instantiate`,
      body: { name: `From template ${++seq}`, startsOn: '2026-01-05' },
    }),
    createTimeEntry: async () => ({ path: '/v1/time-entries', body: { startedAt: new Date(Date.now() - 7_200_000).toISOString(), durationSeconds: 600 } }),
    startTaskTimer: async () => ({ path: `/v1/tasks/${await create('/v1/tasks', { title: `Timed ${++seq}` })}/timer/start`, body: {} }),
    createServiceAccount: async () => ({ path: '/v1/service-accounts', body: { name: `Robot ${++seq}` } }),
    createComment: async () => ({ path: '/v1/comments', body: { targetType: 'projects', targetId: await project(), body: `Comment ${++seq}` } }),
    createWebhook: async () => ({ path: '/v1/webhooks', body: { url: 'https://example.test/hook', eventTypes: ['*'] } }),
    createTaskRecurrence: async () => ({
      path: '/v1/task-recurrences',
      body: { templateTaskId: await create('/v1/tasks', { title: `Recurring ${++seq}` }), rule: { frequency: 'daily' }, startsOn: '2030-01-01', timeZone: 'UTC' },
    }),
    recheckTaskRecurrence: async () => ({ path: `/v1/task-recurrences/${await recurrence({ frequency: 'daily', count: 2 }, '2026-01-01')}/recheck` }),
    submitTaskRecurrenceEvent: async () => ({
      path: `/v1/task-recurrences/${await recurrence({ frequency: 'external' })}/events`,
      body: { externalEventId: `located-${++seq}`, eventType: 'located', occurredAt: '2026-11-02T09:00:00Z' },
    }),
    createExport: async () => ({ path: '/v1/exports', body: { resourceTypes: ['tags'], format: 'csv' } }),
    createAutomationDefinition: async () => ({ path: '/v1/automation-definitions', body: automationFlow(`Never ${++seq}`) }),
    publishAutomationDefinition: async () => ({
      path: `/v1/automation-definitions/${await create('/v1/automation-definitions', automationFlow(`Never ${++seq}`))}/publish`,
      body: { expectedVersion: '1' },
    }),
    abortAutomationRun: async () => ({ path: `/v1/automation-runs/${await runningAutomation()}/abort` }),
    completeProject: lifecycle((id) => `/v1/projects/${id}/complete`),
    reopenProject: lifecycle(
      (id) => `/v1/projects/${id}/reopen`,
      (id) => settle(id, 'POST', `/v1/projects/${id}/complete`, 'completed'),
    ),
    archiveProject: lifecycle((id) => `/v1/projects/${id}`),
    restoreProject: lifecycle(
      (id) => `/v1/projects/${id}/restore`,
      (id) => settle(id, 'DELETE', `/v1/projects/${id}`, 'archived'),
    ),
  };

  it('sends each served Location-declaring operation and follows its Location', async () => {
    const served = new Set(routeCoverage(cell.v1.app as NestFastifyApplication).implemented);
    const locating = v1Operations.filter((op) => served.has(op.operationId) && op.responseHeaders.includes('Location'));
    assert.ok(locating.length >= 20, `${locating.length} operations declare Location`);
    const missing = locating.filter((op) => !REQUESTS[op.operationId]).map((op) => op.operationId);
    assert.deepEqual(missing, [], 'every served operation declaring Location has a request in this test');
    for (const op of locating) {
      const request = await REQUESTS[op.operationId]!();
      const reply: Reply = await callApi(cell.v1, op.method, request.path, token, request.body, request.headers);
      assert.equal(reply.status, op.success, `${op.operationId}: ${JSON.stringify(reply.body)}`);
      const location = reply.headers.get('location');
      assert.ok(location, `${op.operationId} sends Location`);
      assert.ok(
        getTemplates.some((t) => t.test(location)),
        `${op.operationId}: Location ${location} names no GET route of the registry`,
      );
      const followed = await callApi(cell.v1, 'GET', location, token);
      assert.equal(followed.status, 200, `${op.operationId}: GET ${location} answered ${followed.status} ${JSON.stringify(followed.body)}`);
    }
  });

  it('the created credentials, which have no GET of their own, send no Location', async () => {
    const pat = await callApi(cell.v1, 'POST', '/v1/credentials', token, { name: 'located', scopes: ['workspace:read'] });
    assert.equal(pat.status, 201, JSON.stringify(pat.body));
    assert.equal(pat.headers.get('location'), null);
    const account = await create('/v1/service-accounts', { name: 'Located robot' });
    const credential = await callApi(cell.v1, 'POST', `/v1/service-accounts/${account}/credentials`, token, { name: 'located', scopes: ['workspace:read'] });
    assert.equal(credential.status, 201, JSON.stringify(credential.body));
    assert.equal(credential.headers.get('location'), null);
    for (const operationId of ['createCredential', 'createServiceAccountCredential']) {
      assert.equal(v1Operations.find((op) => op.operationId === operationId)?.responseHeaders.includes('Location'), false, operationId);
    }
  });
});
