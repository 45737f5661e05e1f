import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { useTestEnvironment } from '@workcell/testing';
import { targetsOf, useV1Cell } from './support/cell.js';
import { assertProblem, assertShape, type ListBody } from './support/v1.js';

/**
 * v1 custom fields end to end: definitions (typed, keyed, options, target types; compare-and-set updates that never
 * silently invalidate stored values; archive/restore; idempotent creates) and the values of projects, tasks and
 * contacts (compare-and-set per target, validation with `/values/<key>` pointers, the paired target scope, tenancy,
 * resource grants, events on the target's aggregate, activity and change feed).
 */

const env = useTestEnvironment();

type Option = { key: string; label: string; archived: boolean };
type Definition = {
  id: string;
  archivedAt: string | null;
  key: string;
  label: string;
  fieldType: string;
  targetTypes: string[];
  required: boolean;
  options: Option[];
  version: string;
};
type Values = { targetType: string; targetId: string; values: Record<string, unknown>; version: string };

const DEFS = ['custom-field-definitions:read', 'custom-field-definitions:write'];
const VALUES = ['custom-field-values:read', 'custom-field-values:write'];

describe('v1 custom fields', () => {
  const cell = useV1Cell(env);
  const { call } = cell;
  const { contact, project, task } = targetsOf(cell);
  const other = { workspaceId: '', definitionId: '', taskId: '' };
  let seq = 0;

  const define = async (body: Record<string, unknown> = {}, token = cell.admin) => {
    const reply = await call<{ data: Definition }>('POST', '/v1/custom-field-definitions', token, { key: `field_${++seq}`, label: `Field ${seq}`, fieldType: 'text', targetTypes: ['tasks'], ...body });
    assert.equal(reply.status, 201, JSON.stringify(reply.body).slice(0, 500));
    return reply.body.data;
  };
  const valuesOf = async (segment: string, id: string, token = cell.admin) => {
    const reply = await call<{ data: Values }>('GET', `/v1/${segment}/${id}/custom-field-values`, token);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    return reply.body.data;
  };
  const write = (segment: string, id: string, values: Record<string, unknown>, expectedVersion: string, token = cell.admin, app = cell.v1) =>
    call<{ data: Values }>('PATCH', `/v1/${segment}/${id}/custom-field-values`, token, { expectedVersion, values }, {}, app);
  const written = async (segment: string, id: string, values: Record<string, unknown>, expectedVersion: string) => {
    const reply = await write(segment, id, values, expectedVersion);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    return reply.body.data;
  };
  const listAll = (path: string, token?: string) => cell.listAll<Definition>(path, token);

  beforeAll(async () => {
    other.workspaceId = await cell.otherWorkspace();
    other.definitionId = (
      await cell.database.prisma.customFieldDefinition.create({ data: { workspaceId: other.workspaceId, key: 'foreign', label: 'Foreign', fieldType: 'text', targetTypes: ['task'] } })
    ).id;
    other.taskId = (await cell.database.prisma.task.create({ data: { workspaceId: other.workspaceId, title: 'Foreign task' } })).id;
  });

  describe('definitions', () => {
    it('creates a definition: 201, Location, ETag, the stored shape, and custom_field_definition.created', async () => {
      const reply = await call<{ data: Definition }>('POST', '/v1/custom-field-definitions', cell.admin, {
        key: 'stage',
        label: ' Stage ',
        fieldType: 'select',
        targetTypes: ['projects', 'tasks'],
        options: [
          { key: 'new', label: 'New' },
          { key: 'done', label: 'Done', archived: true },
        ],
      });
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
      const d = reply.body.data;
      assertShape('createCustomFieldDefinition', d);
      assert.equal(reply.headers.get('location'), `/v1/custom-field-definitions/${d.id}`);
      assert.equal(reply.headers.get('etag'), '"1"');
      assert.deepEqual([d.key, d.label, d.fieldType, d.targetTypes, d.required, d.version, d.archivedAt], ['stage', 'Stage', 'select', ['projects', 'tasks'], false, '1', null]);
      assert.deepEqual(d.options, [
        { key: 'new', label: 'New', archived: false },
        { key: 'done', label: 'Done', archived: true },
      ]);
      const got = await call<{ data: Definition }>('GET', `/v1/custom-field-definitions/${d.id}`, cell.admin);
      assert.deepEqual(got.body.data, d);
      const events = await cell.outbox(d.id);
      assert.deepEqual(
        events.map((e) => [e.aggregateType, e.eventType]),
        [['custom_field_definition', 'custom_field_definition.created']],
      );
      assert.deepEqual((events[0]!.payload as { customFieldDefinition: Definition }).customFieldDefinition, d);
    });

    it('every field type, member included, is accepted; key and configuration rules answer 400 with pointers, a taken key 409 /key', async () => {
      for (const fieldType of ['text', 'number', 'date', 'boolean', 'member']) assert.equal((await define({ fieldType })).fieldType, fieldType);
      assert.equal((await define({ fieldType: 'multi-select', options: [{ key: 'a', label: 'A' }] })).fieldType, 'multi-select');
      const before = await cell.database.prisma.customFieldDefinition.count({ where: { workspaceId: cell.workspaceId } });
      const bad = (body: Record<string, unknown>) =>
        call('POST', '/v1/custom-field-definitions', cell.admin, { key: `bad_${++seq}`, label: 'Bad', fieldType: 'text', targetTypes: ['tasks'], ...body });
      assertProblem(await bad({ key: 'Not A Key' }), 400, 'validation_failed', '/key');
      assertProblem(await bad({ fieldType: 'url' }), 400, 'validation_failed', '/fieldType');
      assertProblem(await bad({ targetTypes: [] }), 400, 'validation_failed', '/targetTypes');
      assertProblem(await bad({ targetTypes: ['files'] }), 400, 'validation_failed', '/targetTypes/0');
      assertProblem(await bad({ targetTypes: ['tasks', 'tasks'] }), 400, 'validation_failed', '/targetTypes/1');
      assertProblem(await bad({ options: [{ key: 'a', label: 'A' }] }), 400, 'validation_failed', '/options');
      assertProblem(await bad({ fieldType: 'select' }), 400, 'validation_failed', '/options');
      assertProblem(await bad({ fieldType: 'select', options: [] }), 400, 'validation_failed', '/options');
      assertProblem(
        await bad({
          fieldType: 'select',
          options: [
            { key: 'a', label: 'A' },
            { key: 'a', label: 'Again' },
          ],
        }),
        400,
        'validation_failed',
        '/options/1/key',
      );
      assertProblem(await bad({ fieldType: 'select', options: [{ key: 'A B', label: 'A' }] }), 400, 'validation_failed', '/options/0/key');
      assertProblem(await bad({ label: '' }), 400, 'validation_failed', '/label');
      assertProblem(await bad({ extra: true }), 400, 'validation_failed');
      assert.equal(await cell.database.prisma.customFieldDefinition.count({ where: { workspaceId: cell.workspaceId } }), before);
      const taken = await define();
      assertProblem(await call('POST', '/v1/custom-field-definitions', cell.admin, { key: taken.key, label: 'Twice', fieldType: 'number', targetTypes: ['contacts'] }), 409, 'conflict', '/key');
      assert.equal((await call('DELETE', `/v1/custom-field-definitions/${taken.id}`, cell.admin)).status, 204);
      assertProblem(await call('POST', '/v1/custom-field-definitions', cell.admin, { key: taken.key, label: 'Twice', fieldType: 'number', targetTypes: ['contacts'] }), 409, 'conflict', '/key');
      const racers = await Promise.all(
        [0, 1, 2, 3].map((i) =>
          call('POST', '/v1/custom-field-definitions', cell.admin, { key: 'raced', label: `Racer ${i}`, fieldType: 'text', targetTypes: ['tasks'] }, {}, i % 2 ? cell.v1b : cell.v1),
        ),
      );
      assert.deepEqual(racers.map((r) => r.status).sort(), [201, 409, 409, 409]);
    });

    it('replays an idempotent create with the same key and creates once', async () => {
      const key = `cf-${randomUUID()}`;
      const body = { key: 'idempotent_field', label: 'Idempotent', fieldType: 'number', targetTypes: ['contacts'] };
      const first = await call<{ data: Definition }>('POST', '/v1/custom-field-definitions', cell.admin, body, { 'idempotency-key': key });
      const second = await call<{ data: Definition }>('POST', '/v1/custom-field-definitions', cell.admin, body, { 'idempotency-key': key }, cell.v1b);
      assert.equal(first.status, 201);
      assert.equal(second.status, 201);
      assert.equal(second.headers.get('idempotency-replayed'), 'true');
      assert.deepEqual(second.body, first.body);
      assert.equal(await cell.database.prisma.customFieldDefinition.count({ where: { workspaceId: cell.workspaceId, key: 'idempotent_field' } }), 1);
      assertProblem(await call('POST', '/v1/custom-field-definitions', cell.admin, { ...body, label: 'Changed' }, { 'idempotency-key': key }), 409, 'idempotency_key_reused');
    });

    it('updates are compare-and-set: the current version wins once, a stale one is 409, none is 400; key and fieldType are immutable', async () => {
      const d = await define();
      const reply = await call<{ data: Definition }>('PATCH', `/v1/custom-field-definitions/${d.id}`, cell.admin, { label: 'Renamed', required: true, expectedVersion: d.version });
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      assertShape('updateCustomFieldDefinition', reply.body.data);
      assert.equal(reply.headers.get('etag'), '"2"');
      assert.deepEqual([reply.body.data.label, reply.body.data.required, reply.body.data.version], ['Renamed', true, '2']);
      assertProblem(await call('PATCH', `/v1/custom-field-definitions/${d.id}`, cell.admin, { label: 'Stale', expectedVersion: d.version }), 409, 'version_conflict');
      assertProblem(await call('PATCH', `/v1/custom-field-definitions/${d.id}`, cell.admin, { label: 'No version' }), 400, 'validation_failed', '/expectedVersion');
      assertProblem(await call('PATCH', `/v1/custom-field-definitions/${d.id}`, cell.admin, { expectedVersion: '2' }), 400, 'validation_failed');
      assertProblem(await call('PATCH', `/v1/custom-field-definitions/${d.id}`, cell.admin, { key: 'other', expectedVersion: '2' }), 400, 'validation_failed');
      assertProblem(await call('PATCH', `/v1/custom-field-definitions/${d.id}`, cell.admin, { fieldType: 'number', expectedVersion: '2' }), 400, 'validation_failed');
      assertProblem(await call('PATCH', `/v1/custom-field-definitions/${d.id}`, cell.admin, { options: [{ key: 'a', label: 'A' }], expectedVersion: '2' }), 400, 'validation_failed', '/options');
      const racers = await Promise.all(
        [0, 1, 2, 3].map((i) => call('PATCH', `/v1/custom-field-definitions/${d.id}`, cell.admin, { label: `Racer ${i}`, expectedVersion: '2' }, {}, i % 2 ? cell.v1b : cell.v1)),
      );
      assert.deepEqual(racers.map((r) => r.status).sort(), [200, 409, 409, 409]);
      const events = await cell.outbox(d.id);
      assert.deepEqual(
        events.map((e) => e.eventType),
        ['custom_field_definition.created', 'custom_field_definition.updated', 'custom_field_definition.updated'],
      );
      assert.deepEqual((events[1]!.payload as { changed: string[] }).changed, ['label', 'required']);
      // The field became required on tasks: archive it so the other tests' task values need not hold it.
      assert.equal((await call('DELETE', `/v1/custom-field-definitions/${d.id}`, cell.admin)).status, 204);
    });

    it('archive never deletes: 204, left out of lists, still readable; restore brings it back; events and change feed', async () => {
      const d = await define();
      assert.equal((await call('DELETE', `/v1/custom-field-definitions/${d.id}`, cell.admin)).status, 204);
      assert.ok(!(await listAll('/v1/custom-field-definitions?limit=200')).some((x) => x.id === d.id));
      const seen = await call<{ data: Definition }>('GET', `/v1/custom-field-definitions/${d.id}`, cell.admin);
      assert.ok(seen.body.data.archivedAt !== null);
      assert.equal((await call('DELETE', `/v1/custom-field-definitions/${d.id}`, cell.admin)).status, 204, 'archiving again is fine');
      const restored = await call<{ data: Definition }>('POST', `/v1/custom-field-definitions/${d.id}/restore`, cell.admin);
      assert.equal(restored.status, 200);
      assertShape('restoreCustomFieldDefinition', restored.body.data);
      assert.equal(restored.body.data.archivedAt, null);
      assert.equal(restored.headers.get('etag'), '"3"');
      assert.equal((await call('POST', `/v1/custom-field-definitions/${d.id}/restore`, cell.admin)).status, 200, 'restoring again is fine');
      const events = await cell.outbox(d.id);
      assert.deepEqual(
        events.map((e) => e.eventType),
        ['custom_field_definition.created', 'custom_field_definition.archived', 'custom_field_definition.restored'],
      );
      const changes = await cell.listAll<{ resourceType: string; resourceId: string; action: string }>('/v1/changes?types=custom-field-definitions&limit=200');
      assert.deepEqual(
        changes.filter((c) => c.resourceId === d.id).map((c) => `${c.resourceType} ${c.action}`),
        ['custom-field-definitions created', 'custom-field-definitions archived', 'custom-field-definitions restored'],
      );
    });

    it('lists page with a cursor, filter by target type, and never show another workspace', async () => {
      const onContacts = await define({ targetTypes: ['contacts'] });
      const onTasks = await define({ targetTypes: ['tasks', 'projects'] });
      const first = await call<ListBody<Definition>>('GET', '/v1/custom-field-definitions?limit=2', cell.admin);
      assert.equal(first.status, 200);
      assert.equal(first.body.data.length, 2);
      for (const item of first.body.data) assertShape('listCustomFieldDefinitions', item);
      const all = await listAll('/v1/custom-field-definitions?limit=2');
      assert.equal(new Set(all.map((d) => d.id)).size, all.length, 'no repeats');
      assert.deepEqual(
        all.map((d) => d.id),
        [...all.map((d) => d.id)].sort(),
        'oldest first',
      );
      assert.ok(!all.some((d) => d.id === other.definitionId));
      const contacts = (await listAll('/v1/custom-field-definitions?targetType=contacts&limit=200')).map((d) => d.id);
      assert.ok(contacts.includes(onContacts.id) && !contacts.includes(onTasks.id));
      const projects = (await listAll('/v1/custom-field-definitions?targetType=projects&limit=200')).map((d) => d.id);
      assert.ok(projects.includes(onTasks.id) && !projects.includes(onContacts.id));
      assertProblem(await call('GET', '/v1/custom-field-definitions?targetType=files', cell.admin), 400, 'validation_failed');
      assertProblem(await call('GET', `/v1/custom-field-definitions?targetType=tasks&cursor=${first.body.meta.nextCursor}`, cell.admin), 400, 'validation_failed');
    });
  });

  describe('values', () => {
    it('a target never written reads empty at version 1; writes set and clear, answer every value with the new version, and leave the target alone', async () => {
      const t = await task();
      const text = await define({ fieldType: 'text' });
      const num = await define({ fieldType: 'number' });
      const empty = await valuesOf('tasks', t);
      assertShape('getTaskCustomFieldValues', empty);
      assert.deepEqual(empty, { targetType: 'tasks', targetId: t, values: {}, version: '1' });
      const taskBefore = await cell.database.prisma.task.findFirstOrThrow({ where: { workspaceId: cell.workspaceId, id: t } });
      const reply = await write('tasks', t, { [text.key]: 'Hello', [num.key]: 2.5 }, '1');
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      assertShape('updateTaskCustomFieldValues', reply.body.data);
      assert.equal(reply.headers.get('etag'), '"2"');
      assert.deepEqual(reply.body.data, { targetType: 'tasks', targetId: t, values: { [text.key]: 'Hello', [num.key]: 2.5 }, version: '2' });
      const cleared = await written('tasks', t, { [num.key]: null }, '2');
      assert.deepEqual(cleared.values, { [text.key]: 'Hello' });
      assert.deepEqual(await valuesOf('tasks', t), cleared);
      assert.equal((await call('GET', `/v1/tasks/${t.toUpperCase()}/custom-field-values`, cell.admin)).status, 200);
      const taskAfter = await cell.database.prisma.task.findFirstOrThrow({ where: { workspaceId: cell.workspaceId, id: t } });
      assert.equal(taskAfter.revision, taskBefore.revision, 'the task itself is unchanged');
    });

    it('an archived target keeps its values readable and writable (as the target itself stays readable)', async () => {
      const c = await contact();
      const d = await define({ fieldType: 'text', targetTypes: ['contacts'] });
      const set = await written('contacts', c, { [d.key]: 'before' }, '1');
      assert.equal((await call('DELETE', `/v1/contacts/${c}`, cell.admin)).status, 204);
      assert.deepEqual((await valuesOf('contacts', c)).values, { [d.key]: 'before' });
      assert.deepEqual((await written('contacts', c, { [d.key]: 'after' }, set.version)).values, { [d.key]: 'after' });
    });

    it('values writes are compare-and-set: a stale version is 409 version_conflict, exactly one of concurrent writers wins, first writes included', async () => {
      const t = await task();
      const d = await define({ fieldType: 'number' });
      const firsts = await Promise.all([0, 1, 2, 3].map((i) => write('tasks', t, { [d.key]: i }, '1', cell.admin, i % 2 ? cell.v1b : cell.v1)));
      assert.deepEqual(firsts.map((r) => r.status).sort(), [200, 409, 409, 409]);
      assertProblem(
        firsts.find((r) => r.status === 409)!,
        409,
        'version_conflict',
      );
      const racers = await Promise.all([0, 1, 2, 3].map((i) => write('tasks', t, { [d.key]: 10 + i }, '2', cell.admin, i % 2 ? cell.v1b : cell.v1)));
      assert.deepEqual(racers.map((r) => r.status).sort(), [200, 409, 409, 409]);
      assert.equal((await valuesOf('tasks', t)).version, '3');
      assertProblem(await write('tasks', t, { [d.key]: 1 }, '2'), 409, 'version_conflict');
      assertProblem(await write('tasks', t, { [d.key]: 1 }, 'x'), 409, 'version_conflict');
      assertProblem(await call('PATCH', `/v1/tasks/${t}/custom-field-values`, cell.admin, { values: { [d.key]: 1 } }), 400, 'validation_failed', '/expectedVersion');
      assertProblem(await write('tasks', t, {}, '3'), 400, 'validation_failed', '/values');
      assert.equal((await valuesOf('tasks', t)).version, '3');
    });

    it('every value is checked against its definition: 400 with a pointer per problem, nothing written', async () => {
      const t = await task();
      const d = {
        text: await define({ fieldType: 'text' }),
        number: await define({ fieldType: 'number' }),
        date: await define({ fieldType: 'date' }),
        boolean: await define({ fieldType: 'boolean' }),
        select: await define({
          fieldType: 'select',
          options: [
            { key: 'a', label: 'A' },
            { key: 'old', label: 'Old', archived: true },
          ],
        }),
        multi: await define({
          fieldType: 'multi-select',
          options: [
            { key: 'x', label: 'X' },
            { key: 'y', label: 'Y' },
          ],
        }),
        member: await define({ fieldType: 'member' }),
        contactsOnly: await define({ fieldType: 'text', targetTypes: ['contacts'] }),
      };
      const refused: [string, unknown][] = [
        [d.text.key, ''],
        [d.text.key, 'x'.repeat(2001)],
        [d.text.key, 5],
        [d.number.key, '5'],
        [d.date.key, '2026-02-30'],
        [d.date.key, '2026-03-02T10:00:00Z'],
        [d.boolean.key, 'true'],
        [d.select.key, 'b'],
        [d.select.key, 'old'],
        [d.select.key, ['a']],
        [d.multi.key, []],
        [d.multi.key, ['x', 'x']],
        [d.multi.key, ['x', 'z']],
        [d.member.key, randomUUID()],
        [d.member.key, 'not-a-uuid'],
        [d.contactsOnly.key, 'x'],
        ['no_such_field', 'x'],
      ];
      for (const [key, value] of refused) assertProblem(await write('tasks', t, { [key]: value }, '1'), 400, 'validation_failed', `/values/${key}`);
      const both = await write('tasks', t, { [d.number.key]: 'x', [d.boolean.key]: 1 }, '1');
      assertProblem(both, 400, 'validation_failed', `/values/${d.number.key}`);
      assertProblem(both, 400, 'validation_failed', `/values/${d.boolean.key}`);
      assert.equal(await cell.database.prisma.customFieldValueSet.count({ where: { workspaceId: cell.workspaceId, targetId: t } }), 0, 'nothing written');
      const accepted = await written(
        'tasks',
        t,
        {
          [d.text.key]: 'x'.repeat(2000),
          [d.number.key]: -1e300,
          [d.date.key]: '2028-02-29',
          [d.boolean.key]: false,
          [d.select.key]: 'a',
          [d.multi.key]: ['y', 'x'],
          [d.member.key]: cell.ownerMemberId.toUpperCase(),
        },
        '1',
      );
      assert.deepEqual(accepted.values[d.multi.key], ['y', 'x']);
      assert.equal(accepted.values[d.member.key], cell.ownerMemberId);
      assert.equal(accepted.values[d.boolean.key], false);
    });

    it('a date value lies in 0001-01-01..9999-12-31, the bound of every date of the API (issue 25)', async () => {
      const t = await task();
      const d = await define({ fieldType: 'date' });
      for (const value of ['0000-01-01', '0000-12-31', '10000-01-01', '+010000-01-01']) assertProblem(await write('tasks', t, { [d.key]: value }, '1'), 400, 'validation_failed', `/values/${d.key}`);
      assert.equal(await cell.database.prisma.customFieldValueSet.count({ where: { workspaceId: cell.workspaceId, targetId: t } }), 0, 'nothing written');
      assert.equal((await written('tasks', t, { [d.key]: '0001-01-01' }, '1')).values[d.key], '0001-01-01');
      assert.equal((await valuesOf('tasks', t)).values[d.key], '0001-01-01');
      assert.equal((await written('tasks', t, { [d.key]: '9999-12-31' }, '2')).values[d.key], '9999-12-31');
      assert.equal((await valuesOf('tasks', t)).values[d.key], '9999-12-31');
    });

    it('a member value names an active member: a removed one is refused, stored ones stay readable', async () => {
      const t = await task();
      const d = await define({ fieldType: 'member' });
      const { memberId } = await cell.member([]);
      const set = await written('tasks', t, { [d.key]: memberId }, '1');
      await cell.database.prisma.workspaceMember.updateMany({ where: { workspaceId: cell.workspaceId, id: memberId }, data: { status: 'disabled' } });
      assert.equal((await valuesOf('tasks', t)).values[d.key], memberId);
      assertProblem(await write('tasks', t, { [d.key]: memberId }, set.version), 400, 'validation_failed', `/values/${d.key}`);
      const foreignMember = await cell.database.prisma.workspaceMember.findFirst({ where: { workspaceId: { not: cell.workspaceId } } });
      if (foreignMember) assertProblem(await write('tasks', t, { [d.key]: foreignMember.id }, set.version), 400, 'validation_failed', `/values/${d.key}`);
    });

    it('required applies to later writes: each write must leave a value for every unarchived required field of the target type', async () => {
      const t = await task();
      const c = await contact();
      const optional = await define({ fieldType: 'text', targetTypes: ['tasks', 'contacts'] });
      const before = await written('tasks', t, { [optional.key]: 'set before' }, '1');
      const required = await define({ fieldType: 'number', targetTypes: ['tasks'], required: true });
      assert.deepEqual((await valuesOf('tasks', t)).values, { [optional.key]: 'set before' }, 'stored sets are not re-checked');
      assertProblem(await write('tasks', t, { [optional.key]: 'again' }, before.version), 400, 'validation_failed', `/values/${required.key}`);
      const ok = await written('tasks', t, { [optional.key]: 'again', [required.key]: 1 }, before.version);
      assertProblem(await write('tasks', t, { [required.key]: null }, ok.version), 400, 'validation_failed', `/values/${required.key}`);
      assert.equal((await written('contacts', c, { [optional.key]: 'not required here' }, '1')).version, '2');
      assert.equal((await call('DELETE', `/v1/custom-field-definitions/${required.id}`, cell.admin)).status, 204);
      assert.equal((await written('tasks', await task(), { [optional.key]: 'archived is not required' }, '1')).version, '2');
    });

    it('archived definitions keep their stored values readable and refuse new writes naming them (null included); restore makes them writable', async () => {
      const t = await task();
      const d = await define({ fieldType: 'text' });
      const keep = await define({ fieldType: 'text' });
      const set = await written('tasks', t, { [d.key]: 'kept', [keep.key]: 'other' }, '1');
      assert.equal((await call('DELETE', `/v1/custom-field-definitions/${d.id}`, cell.admin)).status, 204);
      assert.deepEqual((await valuesOf('tasks', t)).values, { [d.key]: 'kept', [keep.key]: 'other' });
      assertProblem(await write('tasks', t, { [d.key]: 'new' }, set.version), 400, 'validation_failed', `/values/${d.key}`);
      assertProblem(await write('tasks', t, { [d.key]: null }, set.version), 400, 'validation_failed', `/values/${d.key}`);
      const next = await written('tasks', t, { [keep.key]: 'changed' }, set.version);
      assert.equal(next.values[d.key], 'kept');
      assert.equal((await call('POST', `/v1/custom-field-definitions/${d.id}/restore`, cell.admin)).status, 200);
      assert.equal((await written('tasks', t, { [d.key]: 'new' }, next.version)).values[d.key], 'new');
    });

    it('a definition change never silently invalidates stored values: options in use and target types holding values cannot be removed (409), archiving an option can', async () => {
      const t = await task();
      const c = await contact();
      const d = await define({
        fieldType: 'multi-select',
        targetTypes: ['tasks', 'contacts', 'projects'],
        options: [
          { key: 'used', label: 'Used' },
          { key: 'free', label: 'Free' },
          { key: 'also', label: 'Also' },
        ],
      });
      const single = await define({
        fieldType: 'select',
        targetTypes: ['tasks'],
        options: [
          { key: 'one', label: 'One' },
          { key: 'two', label: 'Two' },
        ],
      });
      const set = await written('tasks', t, { [d.key]: ['used'], [single.key]: 'one' }, '1');
      await written('contacts', c, { [d.key]: ['also', 'used'] }, '1');
      const update = (id: string, body: Record<string, unknown>, version: string) =>
        call<{ data: Definition }>('PATCH', `/v1/custom-field-definitions/${id}`, cell.admin, { ...body, expectedVersion: version });
      assertProblem(
        await update(
          d.id,
          {
            options: [
              { key: 'free', label: 'Free' },
              { key: 'also', label: 'Also' },
            ],
          },
          '1',
        ),
        409,
        'custom_field_values_in_use',
        '/options',
      );
      assertProblem(await update(single.id, { options: [{ key: 'two', label: 'Two' }] }, '1'), 409, 'custom_field_values_in_use', '/options');
      assertProblem(await update(d.id, { targetTypes: ['tasks', 'projects'] }, '1'), 409, 'custom_field_values_in_use', '/targetTypes');
      assert.equal((await cell.database.prisma.customFieldDefinition.findFirstOrThrow({ where: { workspaceId: cell.workspaceId, id: d.id } })).revision, 1, 'nothing changed');
      // Unused options and target types without values go; options in use can be archived and relabelled.
      const narrowed = await update(
        d.id,
        {
          targetTypes: ['tasks', 'contacts'],
          options: [
            { key: 'used', label: 'Used (old)', archived: true },
            { key: 'also', label: 'Also' },
          ],
        },
        '1',
      );
      assert.equal(narrowed.status, 200, JSON.stringify(narrowed.body));
      assert.deepEqual(
        narrowed.body.data.options.map((o) => `${o.key}:${o.archived}`),
        ['used:true', 'also:false'],
      );
      assert.deepEqual((await valuesOf('tasks', t)).values[d.key], ['used'], 'stored values stay readable');
      assertProblem(await write('tasks', t, { [d.key]: ['used', 'also'] }, set.version), 400, 'validation_failed', `/values/${d.key}`);
      assert.deepEqual((await written('tasks', t, { [d.key]: ['also'] }, set.version)).values[d.key], ['also']);
      // Once no value holds it, the archived option can go.
      assertProblem(await update(d.id, { options: [{ key: 'also', label: 'Also' }] }, '2'), 409, 'custom_field_values_in_use', '/options');
      const contactValues = await valuesOf('contacts', c);
      await written('contacts', c, { [d.key]: ['also'] }, contactValues.version);
      assert.equal((await update(d.id, { options: [{ key: 'also', label: 'Also' }] }, '2')).status, 200);
      const p = await project();
      assertProblem(await write('projects', p, { [d.key]: ['also'] }, '1'), 400, 'validation_failed', `/values/${d.key}`);
    });

    it('a definition change and a values write racing over one option never both succeed (the write share-locks the definition)', async () => {
      for (let round = 0; round < 6; round++) {
        const t = await task();
        const d = await define({
          fieldType: 'select',
          options: [
            { key: 'keep', label: 'Keep' },
            { key: 'drop', label: 'Drop' },
          ],
        });
        const [update, value] = await Promise.all([
          call('PATCH', `/v1/custom-field-definitions/${d.id}`, cell.admin, { options: [{ key: 'keep', label: 'Keep' }], expectedVersion: '1' }),
          write('tasks', t, { [d.key]: 'drop' }, '1', cell.admin, cell.v1b),
        ]);
        const outcome = `${update.status} ${value.status}`;
        assert.ok(outcome === '200 400' || outcome === '409 200', outcome);
        const stored = await cell.database.prisma.customFieldDefinition.findFirstOrThrow({ where: { workspaceId: cell.workspaceId, id: d.id } });
        const held = (await valuesOf('tasks', t)).values[d.key];
        assert.ok((stored.options as { key: string }[]).some((o) => o.key === 'drop') || held === undefined, 'no stored value names a removed option');
      }
    });

    it('projects and contacts have values of their own, and a write appears in the target’s events, activity and change feed', async () => {
      const p = await project();
      const d = await define({ fieldType: 'boolean', targetTypes: ['projects', 'contacts'] });
      const set = await written('projects', p, { [d.key]: true }, '1');
      assertShape('getProjectCustomFieldValues', await valuesOf('projects', p));
      await written('projects', p, { [d.key]: null }, set.version);
      const events = await cell.outbox(p, 'project.custom_field_values_updated');
      assert.deepEqual(
        events.map((e) => e.payload as Record<string, unknown>).map(({ requestId: _r, ...rest }) => rest),
        [
          { targetType: 'projects', targetId: p, changed: [d.key], values: { [d.key]: true }, version: '2' },
          { targetType: 'projects', targetId: p, changed: [d.key], values: { [d.key]: null }, version: '3' },
        ],
      );
      assert.ok(events.every((e) => e.aggregateType === 'project'));
      const activity = await call<ListBody<{ kind: string; summary: string }>>('GET', `/v1/activity?targetType=projects&targetId=${p}`, cell.admin);
      assert.deepEqual(activity.body.data.filter((a) => a.kind === 'custom-field-values-updated').length, 2);
      assert.ok(activity.body.data.some((a) => a.summary.includes(d.key)));
      const withoutValuesScope = await cell.mint(['activity:read', 'projects:read']);
      const hidden = await call<ListBody<{ kind: string }>>('GET', `/v1/activity?targetType=projects&targetId=${p}`, withoutValuesScope);
      assert.ok(!hidden.body.data.some((a) => a.kind === 'custom-field-values-updated'), 'the event needs custom-field-values:read as well');
      const changes = await cell.listAll<{ resourceId: string; action: string }>('/v1/changes?types=projects&limit=200');
      assert.equal(changes.filter((c) => c.resourceId === p && c.action === 'updated').length, 2);
      const c = await contact();
      assert.deepEqual((await written('contacts', c, { [d.key]: false }, '1')).values, { [d.key]: false });
      assertShape('getContactCustomFieldValues', await valuesOf('contacts', c));
      assert.equal((await cell.outbox(c, 'contact.custom_field_values_updated')).length, 1);
    });
  });

  describe('scopes, tenancy and grants', () => {
    it('definitions need their scopes; values need custom-field-values and the target’s own read or write scope', async () => {
      const t = await task();
      const d = await define();
      const defsReader = await cell.mint(['custom-field-definitions:read']);
      assert.equal((await call('GET', '/v1/custom-field-definitions', defsReader)).status, 200);
      assert.equal((await call('GET', `/v1/custom-field-definitions/${d.id}`, defsReader)).status, 200);
      assertProblem(await call('POST', '/v1/custom-field-definitions', defsReader, { key: 'nope', label: 'x', fieldType: 'text', targetTypes: ['tasks'] }), 403, 'insufficient_scope');
      assertProblem(await call('PATCH', `/v1/custom-field-definitions/${d.id}`, defsReader, { label: 'x', expectedVersion: d.version }), 403, 'insufficient_scope');
      assertProblem(await call('DELETE', `/v1/custom-field-definitions/${d.id}`, defsReader), 403, 'insufficient_scope');
      assertProblem(await call('POST', `/v1/custom-field-definitions/${d.id}/restore`, defsReader), 403, 'insufficient_scope');
      assertProblem(await call('GET', '/v1/custom-field-definitions', await cell.mint(VALUES)), 403, 'insufficient_scope');

      const valuesOnly = await cell.mint(VALUES);
      assertProblem(await call('GET', `/v1/tasks/${t}/custom-field-values`, valuesOnly), 403, 'insufficient_scope');
      assertProblem(await write('tasks', t, { [d.key]: 'x' }, '1', valuesOnly), 403, 'insufficient_scope');
      const readers = await cell.mint(['custom-field-values:read', 'tasks:read']);
      assert.equal((await call('GET', `/v1/tasks/${t}/custom-field-values`, readers)).status, 200);
      assertProblem(await write('tasks', t, { [d.key]: 'x' }, '1', readers), 403, 'insufficient_scope');
      const halfWriter = await cell.mint(['custom-field-values:write', 'tasks:read']);
      assertProblem(await write('tasks', t, { [d.key]: 'x' }, '1', halfWriter), 403, 'insufficient_scope');
      const taskWriterOnly = await cell.mint(['custom-field-values:read', 'tasks:write']);
      assertProblem(await write('tasks', t, { [d.key]: 'x' }, '1', taskWriterOnly), 403, 'insufficient_scope');
      const writer = await cell.mint(['custom-field-values:write', 'tasks:write']);
      assert.equal((await write('tasks', t, { [d.key]: 'x' }, '1', writer)).status, 200);
      assertProblem(await call('GET', `/v1/projects/${await project()}/custom-field-values`, readers), 403, 'insufficient_scope');
    });

    it('another workspace’s definitions and targets answer like missing ones (404) and are never changed', async () => {
      for (const id of [other.definitionId, randomUUID(), 'not-a-uuid']) {
        assertProblem(await call('GET', `/v1/custom-field-definitions/${id}`, cell.admin), 404, 'not_found');
        assertProblem(await call('PATCH', `/v1/custom-field-definitions/${id}`, cell.admin, { label: 'Hijacked', expectedVersion: '1' }), 404, 'not_found');
        assertProblem(await call('DELETE', `/v1/custom-field-definitions/${id}`, cell.admin), 404, 'not_found');
        assertProblem(await call('POST', `/v1/custom-field-definitions/${id}/restore`, cell.admin), 404, 'not_found');
      }
      const d = await define();
      for (const id of [other.taskId, randomUUID(), 'not-a-uuid']) {
        assertProblem(await call('GET', `/v1/tasks/${id}/custom-field-values`, cell.admin), 404, 'not_found');
        assertProblem(await write('tasks', id, { [d.key]: 'x' }, '1'), 404, 'not_found');
      }
      const t = await task();
      assertProblem(await write('tasks', t, { foreign: 'x' }, '1'), 400, 'validation_failed', '/values/foreign');
      assertProblem(await call('GET', `/v1/projects/${t}/custom-field-values`, cell.admin), 404, 'not_found');
      const foreign = await cell.database.prisma.customFieldDefinition.findFirstOrThrow({ where: { workspaceId: other.workspaceId, id: other.definitionId } });
      assert.deepEqual([foreign.label, foreign.revision, foreign.archivedAt], ['Foreign', 1, null]);
      assert.equal(await cell.database.prisma.customFieldValueSet.count({ where: { workspaceId: other.workspaceId } }), 0);
      assert.equal(await cell.database.prisma.outboxEvent.count({ where: { aggregateId: { in: [other.definitionId, other.taskId] } } }), 0);
    });

    it('a service account needs no grant for definitions; values follow its grants on the target (404 unreadable, 403 read-only)', async () => {
      const a = await task();
      const b = await task();
      const d = await define();
      const scopes = [...DEFS, ...VALUES, 'tasks:read', 'tasks:write'];
      const none = await cell.serviceAccount(scopes, []);
      assert.equal((await call('GET', `/v1/custom-field-definitions/${d.id}`, none.token)).status, 200);
      const byAccount = await call<{ data: Definition }>('POST', '/v1/custom-field-definitions', none.token, { key: 'by_account', label: 'By SA', fieldType: 'text', targetTypes: ['tasks'] });
      assert.equal(byAccount.status, 201, JSON.stringify(byAccount.body));
      assert.equal((await call('DELETE', `/v1/custom-field-definitions/${byAccount.body.data.id}`, none.token)).status, 204);
      assertProblem(await call('GET', `/v1/tasks/${a}/custom-field-values`, none.token), 404, 'not_found');
      assertProblem(await write('tasks', a, { [d.key]: 'x' }, '1', none.token), 404, 'not_found');

      const reader = await cell.serviceAccount(scopes, [{ resourceType: 'task', resourceId: a, access: 'read' }]);
      assert.equal((await call('GET', `/v1/tasks/${a}/custom-field-values`, reader.token)).status, 200);
      assertProblem(await write('tasks', a, { [d.key]: 'x' }, '1', reader.token), 403, 'insufficient_grant');
      assertProblem(await call('GET', `/v1/tasks/${b}/custom-field-values`, reader.token), 404, 'not_found');
      const writer = await cell.serviceAccount(scopes, [{ resourceType: 'task', resourceId: a, access: 'write' }]);
      assert.equal((await write('tasks', a, { [d.key]: 'x' }, '1', writer.token)).status, 200);
      assertProblem(await write('tasks', b, { [d.key]: 'x' }, '1', writer.token), 404, 'not_found');
      assert.equal(await cell.database.prisma.customFieldValueSet.count({ where: { workspaceId: cell.workspaceId, targetId: b } }), 0);
    });
  });
});
