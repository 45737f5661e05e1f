import assert from 'node:assert/strict';
import { getV1Operation, IdempotencyKey, IfMatch, listEnvelope, singleEnvelope, v0Operations } from './index.js';
import { Task } from './v1/tasks.js';

describe('request schemas validate what the OpenAPI documents describe', () => {
  it('If-Match accepts only a quoted strong revision', () => {
    assert.equal(IfMatch.safeParse('"r-42"').success, true);
    for (const bad of ['r-42', 'W/"r-42"', '*', '""']) assert.equal(IfMatch.safeParse(bad).success, false, bad);
    const headers = getV1Operation('updateTask').request.headers;
    assert.ok(headers);
    assert.equal(headers.safeParse({}).success, false);
    assert.equal(headers.safeParse({ 'if-match': '"abc"', 'user-agent': 'x' }).success, true);
  });

  it('Idempotency-Key: 8-255 characters of [A-Za-z0-9._:-], optional', () => {
    assert.equal(IdempotencyKey.safeParse('3f0c9a8e-1b2c-4d5e-8f90-123456789abc').success, true);
    for (const bad of ['short', 'has space in it', 'x'.repeat(256), '-leading-dash']) {
      assert.equal(IdempotencyKey.safeParse(bad).success, false, bad);
    }
    const headers = getV1Operation('createTask').request.headers;
    assert.ok(headers);
    assert.equal(headers.safeParse({}).success, true);
    assert.equal(headers.safeParse({ 'idempotency-key': 'bad key' }).success, false);
  });

  it('list queries coerce and bound cursor pagination and reject unknown parameters', () => {
    const query = getV1Operation('listTasks').request.query;
    assert.ok(query);
    assert.deepEqual(query.parse({ limit: '25', cursor: 'abc' }), { limit: 25, cursor: 'abc' });
    assert.equal(query.safeParse({ limit: '0' }).success, false);
    assert.equal(query.safeParse({ limit: '201' }).success, false);
    assert.equal(query.safeParse({ page: '2' }).success, false);
  });

  it('integer parameters are decimal digits only (v1 limit, v0 page/limit, integer path parameters)', () => {
    const v1 = getV1Operation('listTasks').request.query!;
    const v0 = v0Operations.find((op) => op.operationId === 'legacyGetTasks')!.request.query!;
    const calendar = v0Operations.find((op) => op.path === '/calendar/{token}.ics')!.request.query!;
    const version = getV1Operation('getAutomationDefinitionVersion').request.path!;
    for (const bad of ['0x10', '1e2', '0b11', '0o7', '+2', '-2', ' 2', '2 ', '\t2', '2.0', '2.', '.5', '', '1_0', 'Infinity', 'NaN', '99999999999999999999']) {
      assert.equal(v1.safeParse({ limit: bad }).success, false, `v1 limit ${JSON.stringify(bad)}`);
      assert.equal(v0.safeParse({ page: bad }).success, false, `v0 page ${JSON.stringify(bad)}`);
      assert.equal(v0.safeParse({ limit: bad }).success, false, `v0 limit ${JSON.stringify(bad)}`);
      assert.equal(calendar.safeParse({ page: bad }).success, false, `calendar page ${JSON.stringify(bad)}`);
      assert.equal(version.safeParse({ id: 'a', versionNumber: bad }).success, false, `versionNumber ${JSON.stringify(bad)}`);
    }
    assert.deepEqual(v0.parse({ page: '2', limit: '500' }), { page: 2, limit: 500 });
    assert.deepEqual(version.parse({ id: 'a', versionNumber: '7' }), { id: 'a', versionNumber: 7 });
    assert.equal(v0.safeParse({ limit: '501' }).success, false);
  });

  it('dates and timestamps are bounded to years 0001-9999 (UTC)', () => {
    const projects = getV1Operation('listProjects').request.query!;
    assert.equal(projects.safeParse({ updatedSince: '2026-01-01T00:00:00Z' }).success, true);
    assert.equal(projects.safeParse({ updatedSince: '0001-01-01T00:00:00Z' }).success, true);
    assert.equal(projects.safeParse({ updatedSince: '9999-12-31T23:59:59.999Z' }).success, true);
    for (const bad of ['0000-01-01T00:00:00Z', '0001-01-01T00:30:00+01:00', '9999-12-31T23:00:00-01:00', '+275760-09-13T00:00:00Z', '10000-01-01T00:00:00Z']) {
      assert.equal(projects.safeParse({ updatedSince: bad }).success, false, bad);
    }
    const create = getV1Operation('createProject').request.body!;
    assert.equal(create.safeParse({ name: 'p', startsOn: '0001-01-01' }).success, true);
    assert.equal(create.safeParse({ name: 'p', startsOn: '9999-12-31' }).success, true);
    assert.equal(create.safeParse({ name: 'p', startsOn: '0000-01-01' }).success, false);
  });

  it('path parameters are validated', () => {
    const path = getV1Operation('getTask').request.path;
    assert.ok(path);
    assert.equal(path.safeParse({ id: 'tsk_123' }).success, true);
    assert.equal(path.safeParse({ id: '../etc' }).success, false);
  });

  it('create bodies are strict; finance and billing fields have their own shapes', () => {
    const create = getV1Operation('createTask').request.body;
    assert.ok(create);
    assert.equal(create.safeParse({ title: 'Write report' }).success, true);
    assert.equal(create.safeParse({ title: 'x', teamId: 'other' }).success, false);
    const billing = getV1Operation('setTimeEntryBilling').request.body;
    assert.ok(billing);
    assert.equal(billing.safeParse({ expectedVersion: 'v7', billable: true, billingRate: { amount: '95.00', currency: 'EUR' } }).success, true);
    assert.equal(billing.safeParse({ expectedVersion: 'v7', billable: true, billingRate: { amount: 95, currency: 'EUR' } }).success, false);
  });

  it('planned-work replacement is a full, guarded replacement', () => {
    const op = getV1Operation('replaceTaskPlannedWork');
    assert.deepEqual([op.method, op.concurrency, op.retry], ['PUT', 'cas', 'guarded']);
    assert.equal(op.request.body?.safeParse({ windows: [] }).success, false);
    assert.equal(op.request.body?.safeParse({ expectedVersion: 'v1', windows: [] }).success, true);
  });

  it('envelopes wrap data', () => {
    const now = '2025-01-01T00:00:00Z';
    const task = {
      id: 't1',
      createdAt: now,
      updatedAt: now,
      archivedAt: null,
      title: 'T',
      description: null,
      projectId: null,
      listId: null,
      status: 'open',
      priority: 'normal',
      assigneeIds: [],
      dueAt: null,
      estimateMinutes: null,
      tagIds: [],
      completedAt: null,
      timerStartedAt: null,
      revision: 'r1',
    };
    assert.equal(singleEnvelope(Task).safeParse({ data: task }).success, true);
    assert.equal(listEnvelope(Task).safeParse({ data: [task], meta: { limit: 50, nextCursor: null }, links: { next: null } }).success, true);
  });
});
