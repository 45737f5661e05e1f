import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { useTestEnvironment } from '@workcell/testing';
import { useV1Cell } from './support/cell.js';
import { assertProblem, assertShape, errorOf, type ListBody, type Schema } from './support/v1.js';

/**
 * v1 appointments, absences and availability end to end (docs/scheduling.md): the own routes act on the token's
 * member, the delegated ones on /v1/members/{id} with the delegated scope plus a relationship (a shared group or
 * members:write) or, for service accounts, resource grants; overlaps (appointments allowed, absences 409), all-day and
 * time zones, compare-and-set, idempotent creates, tenancy, validation pointers and availability derived at request time.
 */

const env = useTestEnvironment();

type Appointment = Schema<'Appointment'>;
type Absence = Schema<'Absence'>;
type Availability = Schema<'Availability'>;

const OWN = ['appointments:read', 'appointments:write', 'absences:read', 'absences:write', 'availability:read'];
const DELEGATED = ['appointments:delegated:read', 'appointments:delegated:write', 'absences:delegated:read', 'absences:admin:write', 'availability:delegated:read'];

describe('v1 scheduling', () => {
  const fx = useV1Cell(env);
  let seq = 0;
  // Each test gets its own member (a fresh calendar); `token` has the own scopes and the delegated ones.
  const newMember = async (permissions: readonly string[] = [...OWN, ...DELEGATED]) => {
    const m = await fx.member(permissions);
    return { ...m, token: await m.mint(permissions) };
  };
  const shareGroup = async (...memberIds: string[]) => {
    const group = await fx.database.prisma.group.create({ data: { workspaceId: fx.workspaceId, name: `Team ${++seq}` } });
    await fx.database.prisma.groupMember.createMany({ data: memberIds.map((memberId) => ({ workspaceId: fx.workspaceId, groupId: group.id, memberId })) });
    return group.id;
  };
  const appointment = (body: Record<string, unknown> = {}) => ({ title: `Meeting ${++seq}`, startsAt: '2026-12-01T10:00:00Z', endsAt: '2026-12-01T11:00:00Z', ...body });
  const createAppointment = async (token: string, body: Record<string, unknown> = {}, path = '/v1/appointments') => {
    const reply = await fx.call<{ data: Appointment }>('POST', path, token, appointment(body));
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    return reply.body.data;
  };
  const createAbsence = async (token: string, body: Record<string, unknown>, path = '/v1/absences') => {
    const reply = await fx.call<{ data: Absence }>('POST', path, token, { kind: 'vacation', ...body });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    return reply.body.data;
  };
  const list = async <T>(path: string, token: string) => {
    const reply = await fx.call<ListBody<T>>('GET', path, token);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    return reply.body.data;
  };

  describe('appointments (own)', () => {
    it('create, get, list, update and delete; Location, ETag, the registry shape and the events', async () => {
      const m = await newMember();
      const created = await fx.call<{ data: Appointment }>('POST', '/v1/appointments', m.token, appointment({ description: 'Agenda', location: 'Room 1', visibility: 'private' }));
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const a = created.body.data;
      assertShape('createAppointment', a);
      assert.equal(created.headers.get('location'), `/v1/appointments/${a.id}`);
      assert.equal(created.headers.get('etag'), '"1"');
      assert.equal(a.memberId, m.memberId);
      assert.equal(a.timeZone, 'UTC');
      assert.equal(a.visibility, 'private');
      assert.equal(a.description, 'Agenda', 'the owner sees its private appointment in full');

      const got = await fx.call<{ data: Appointment }>('GET', `/v1/appointments/${a.id}`, m.token);
      assert.equal(got.status, 200);
      assert.deepEqual(got.body.data, a);
      assert.deepEqual(
        (await list<Appointment>('/v1/appointments', m.token)).map((x) => x.id),
        [a.id],
      );

      const updated = await fx.call<{ data: Appointment }>('PATCH', `/v1/appointments/${a.id}`, m.token, { expectedVersion: a.version, endsAt: '2026-12-01T12:00:00Z' });
      assert.equal(updated.status, 200, JSON.stringify(updated.body));
      assert.equal(updated.body.data.endsAt, '2026-12-01T12:00:00.000Z');
      assert.equal(updated.headers.get('etag'), '"2"');

      assert.equal((await fx.call('DELETE', `/v1/appointments/${a.id}`, m.token)).status, 204);
      assertProblem(await fx.call('GET', `/v1/appointments/${a.id}`, m.token), 404, 'not_found');
      assertProblem(await fx.call('DELETE', `/v1/appointments/${a.id}`, m.token), 404, 'not_found');
      assert.deepEqual(await list('/v1/appointments', m.token), []);

      const events = await fx.outbox(a.id);
      assert.deepEqual(
        events.map((e) => e.eventType),
        ['appointment.created', 'appointment.updated', 'appointment.deleted'],
      );
      const payload = events[0]!.payload as { appointment: Appointment };
      assert.equal(payload.appointment.title, 'Private', 'events carry a private appointment redacted');
      assert.equal(payload.appointment.description, null);
    });

    it('overlapping appointments are allowed; the list window is [from, to)', async () => {
      const m = await newMember();
      const one = await createAppointment(m.token);
      const two = await createAppointment(m.token);
      const later = await createAppointment(m.token, { startsAt: '2026-12-02T10:00:00Z', endsAt: '2026-12-02T11:00:00Z' });
      assert.deepEqual(
        (await list<Appointment>('/v1/appointments?from=2026-12-01T10:30:00Z&to=2026-12-02T10:00:00Z', m.token)).map((x) => x.id),
        [one.id, two.id],
      );
      assert.deepEqual(
        (await list<Appointment>('/v1/appointments?from=2026-12-01T11:00:00Z', m.token)).map((x) => x.id),
        [later.id],
      );
    });

    it('all-day appointments start and end at local midnights of their zone (end exclusive)', async () => {
      const m = await newMember();
      const a = await createAppointment(m.token, { allDay: true, timeZone: 'Europe/Berlin', startsAt: '2026-12-01T00:00:00+01:00', endsAt: '2026-12-02T00:00:00+01:00' });
      assert.equal(a.startsAt, '2026-11-30T23:00:00.000Z');
      assert.equal(a.timeZone, 'Europe/Berlin');
      const utcMidnight = await fx.call(
        'POST',
        '/v1/appointments',
        m.token,
        appointment({ allDay: true, timeZone: 'Europe/Berlin', startsAt: '2026-12-01T00:00:00Z', endsAt: '2026-12-02T00:00:00Z' }),
      );
      assertProblem(utcMidnight, 400, 'validation_failed', '/startsAt');
      assertProblem(utcMidnight, 400, 'validation_failed', '/endsAt');
      // Across the DST change (Berlin, 2026-03-29): the day has 23 hours and still ends at a local midnight.
      await createAppointment(m.token, { allDay: true, timeZone: 'Europe/Berlin', startsAt: '2026-03-29T00:00:00+01:00', endsAt: '2026-03-30T00:00:00+02:00' });
    });

    it('validation: pointers, nothing written', async () => {
      const m = await newMember();
      const foreignWs = await fx.otherWorkspace();
      const foreignContact = await fx.database.prisma.contact.create({ data: { workspaceId: foreignWs, kind: 'person', displayName: 'Foreign' } });
      assertProblem(await fx.call('POST', '/v1/appointments', m.token, appointment({ endsAt: '2026-12-01T10:00:00Z' })), 400, 'validation_failed', '/endsAt');
      assertProblem(await fx.call('POST', '/v1/appointments', m.token, appointment({ attendeeMemberIds: [fx.ownerMemberId, randomUUID()] })), 400, 'validation_failed', '/attendeeMemberIds/1');
      assertProblem(await fx.call('POST', '/v1/appointments', m.token, appointment({ contactId: foreignContact.id })), 400, 'validation_failed', '/contactId');
      assertProblem(await fx.call('POST', '/v1/appointments', m.token, appointment({ timeZone: 'Mars/Olympus' })), 400, 'validation_failed', '/timeZone');
      assertProblem(await fx.call('POST', '/v1/appointments', m.token, { title: 'x' }), 400, 'validation_failed', '/startsAt');
      const a = await createAppointment(m.token);
      assertProblem(await fx.call('PATCH', `/v1/appointments/${a.id}`, m.token, { expectedVersion: a.version, startsAt: '2026-12-01T11:30:00Z' }), 400, 'validation_failed', '/endsAt');
      assert.deepEqual(
        (await list<Appointment>('/v1/appointments', m.token)).map((x) => x.id),
        [a.id],
      );
      assert.equal((await fx.call<{ data: Appointment }>('GET', `/v1/appointments/${a.id}`, m.token)).body.data.version, '1');
    });

    it('compare-and-set: a stale version is 409; of two concurrent updates with one version exactly one wins', async () => {
      const m = await newMember();
      const a = await createAppointment(m.token);
      const replies = await Promise.all(['A', 'B'].map((title) => fx.call('PATCH', `/v1/appointments/${a.id}`, m.token, { expectedVersion: a.version, title })));
      assert.deepEqual(replies.map((r) => r.status).sort(), [200, 409]);
      assertProblem(
        replies.find((r) => r.status === 409)!,
        409,
        'version_conflict',
      );
      assertProblem(await fx.call('PATCH', `/v1/appointments/${a.id}`, m.token, { expectedVersion: '1', title: 'C' }), 409, 'version_conflict');
    });

    it('an idempotent create answers a retry with the first result', async () => {
      const m = await newMember();
      const key = randomUUID();
      const body = appointment();
      const first = await fx.call<{ data: Appointment }>('POST', '/v1/appointments', m.token, body, { 'idempotency-key': key });
      const second = await fx.call<{ data: Appointment }>('POST', '/v1/appointments', m.token, body, { 'idempotency-key': key });
      assert.equal(first.status, 201);
      assert.equal(second.body.data.id, first.body.data.id);
      assert.equal((await list('/v1/appointments', m.token)).length, 1);
    });

    it('tenancy: another member’s or workspace’s appointment is 404 on the own routes', async () => {
      const m = await newMember();
      const other = await newMember();
      const theirs = await createAppointment(other.token);
      assertProblem(await fx.call('GET', `/v1/appointments/${theirs.id}`, m.token), 404, 'not_found');
      assertProblem(await fx.call('PATCH', `/v1/appointments/${theirs.id}`, m.token, { expectedVersion: '1', title: 'x' }), 404, 'not_found');
      assertProblem(await fx.call('DELETE', `/v1/appointments/${theirs.id}`, m.token), 404, 'not_found');
      assert.deepEqual(await list('/v1/appointments', m.token), [], 'by default a member sees only its own');
      const foreignWs = await fx.otherWorkspace();
      const user = await fx.database.prisma.user.create({ data: { email: `${randomUUID()}@elsewhere.test`, name: 'Foreign' } });
      const foreignMember = await fx.database.prisma.workspaceMember.create({ data: { workspaceId: foreignWs, userId: user.id } });
      const foreign = await fx.database.prisma.appointment.create({
        data: { workspaceId: foreignWs, memberId: foreignMember.id, title: 'x', startsAt: new Date(), endsAt: new Date(Date.now() + 60_000) },
      });
      assertProblem(await fx.call('GET', `/v1/appointments/${foreign.id}`, m.token), 404, 'not_found');
      assertProblem(await fx.call('GET', `/v1/members/${foreignMember.id}/appointments`, fx.admin), 404, 'not_found');
      assertProblem(await fx.call('POST', `/v1/members/${foreignMember.id}/appointments`, fx.admin, appointment()), 404, 'not_found');
    });
  });

  describe('appointments (delegated)', () => {
    it('needs the delegated scope: without it 403 insufficient_scope, and the own routes show only the caller’s own', async () => {
      const m = await newMember();
      const other = await newMember();
      await shareGroup(m.memberId, other.memberId);
      await createAppointment(other.token);
      const ownOnly = await m.mint(OWN);
      assertProblem(await fx.call('GET', `/v1/members/${other.memberId}/appointments`, ownOnly), 403, 'insufficient_scope');
      assertProblem(await fx.call('POST', `/v1/members/${other.memberId}/appointments`, ownOnly, appointment()), 403, 'insufficient_scope');
      assert.deepEqual(await list('/v1/appointments', ownOnly), []);
      // A token's scopes are narrowed to the member's permissions: a token asking for the scope without the key has none.
      const noKey = await fx.member(OWN);
      const asking = await noKey.mint([...OWN, 'appointments:delegated:read']);
      await shareGroup(noKey.memberId, other.memberId);
      assertProblem(await fx.call('GET', `/v1/members/${other.memberId}/appointments`, asking), 403, 'insufficient_scope');
    });

    it('needs a relationship: a shared unarchived group or members:write, otherwise 403 forbidden', async () => {
      const m = await newMember();
      const other = await newMember();
      const mine = await createAppointment(other.token);
      assertProblem(await fx.call('GET', `/v1/members/${other.memberId}/appointments`, m.token), 403, 'forbidden');
      assertProblem(await fx.call('POST', `/v1/members/${other.memberId}/appointments`, m.token, appointment()), 403, 'forbidden');
      const groupId = await shareGroup(m.memberId, other.memberId);
      assert.deepEqual(
        (await list<Appointment>(`/v1/members/${other.memberId}/appointments`, m.token)).map((x) => x.id),
        [mine.id],
      );
      await fx.database.prisma.group.update({ where: { workspaceId_id: { workspaceId: fx.workspaceId, id: groupId } }, data: { archivedAt: new Date() } });
      assertProblem(await fx.call('GET', `/v1/members/${other.memberId}/appointments`, m.token), 403, 'forbidden');
      // The owner holds members:write (every permission): no group needed.
      assert.equal((await fx.call('GET', `/v1/members/${other.memberId}/appointments`, fx.admin)).status, 200);
      // A missing or removed member is 404.
      assertProblem(await fx.call('GET', `/v1/members/${randomUUID()}/appointments`, fx.admin), 404, 'not_found');
      assertProblem(await fx.call('GET', `/v1/members/not-an-id/appointments`, fx.admin), 404, 'not_found');
    });

    it('a delegate creates, updates and deletes in another calendar; private ones are redacted and not changeable', async () => {
      const m = await newMember();
      const other = await newMember();
      await shareGroup(m.memberId, other.memberId);
      const path = `/v1/members/${other.memberId}/appointments`;
      const created = await fx.call<{ data: Appointment }>('POST', path, m.token, appointment());
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.equal(created.body.data.memberId, other.memberId);
      assert.equal(created.headers.get('location'), null, 'no GET of its own: listed through the member');
      const a = created.body.data;
      const updated = await fx.call<{ data: Appointment }>('PATCH', `${path}/${a.id}`, m.token, { expectedVersion: a.version, title: 'Moved' });
      assert.equal(updated.status, 200, JSON.stringify(updated.body));
      assert.equal(updated.body.data.title, 'Moved');
      assertProblem(await fx.call('PATCH', `${path}/${a.id}`, m.token, { expectedVersion: a.version, title: 'Stale' }), 409, 'version_conflict');
      assert.equal((await fx.call('DELETE', `${path}/${a.id}`, m.token)).status, 204);
      assertProblem(await fx.call('DELETE', `${path}/${a.id}`, m.token), 404, 'not_found');

      const secret = await createAppointment(other.token, { visibility: 'private', description: 'Doctor', location: 'Clinic' });
      const seen = (await list<Appointment>(path, m.token)).find((x) => x.id === secret.id)!;
      assert.equal(seen.title, 'Private');
      assert.equal(seen.description, null);
      assert.equal(seen.location, null);
      assert.equal(seen.startsAt, secret.startsAt, 'the time is shown as taken');
      assertProblem(await fx.call('PATCH', `${path}/${secret.id}`, m.token, { expectedVersion: '1', title: 'x' }), 403, 'forbidden');
      assertProblem(await fx.call('DELETE', `${path}/${secret.id}`, m.token), 403, 'forbidden');
      // An appointment of another member is not reachable through this member's path.
      const mine = await createAppointment(m.token);
      assertProblem(await fx.call('PATCH', `${path}/${mine.id}`, m.token, { expectedVersion: '1', title: 'x' }), 404, 'not_found');
    });

    it('service accounts act for no member on the own routes; the delegated ones need resource grants', async () => {
      const other = await newMember();
      const sa = await fx.serviceAccount([...OWN, ...DELEGATED], []);
      assertProblem(await fx.call('GET', '/v1/appointments', sa.token), 403, 'forbidden');
      assertProblem(await fx.call('POST', '/v1/appointments', sa.token, appointment()), 403, 'forbidden');
      assertProblem(await fx.call('GET', `/v1/availability?from=2026-12-01T00:00:00Z&to=2026-12-02T00:00:00Z`, sa.token), 403, 'forbidden');
      assertProblem(await fx.call('POST', `/v1/members/${other.memberId}/appointments`, sa.token, appointment()), 403, 'insufficient_grant');
      assert.deepEqual(await list(`/v1/members/${other.memberId}/appointments`, sa.token), []);
      const theirs = await createAppointment(other.token);
      assertProblem(await fx.call('DELETE', `/v1/members/${other.memberId}/appointments/${theirs.id}`, sa.token), 404, 'not_found');

      const writer = await fx.serviceAccount(DELEGATED, [{ resourceType: 'appointment', resourceId: null, access: 'write' }]);
      const created = await createAppointment(writer.token, {}, `/v1/members/${other.memberId}/appointments`);
      assert.equal(created.memberId, other.memberId);
      assert.equal((await list(`/v1/members/${other.memberId}/appointments`, writer.token)).length, 2);
      const reader = await fx.serviceAccount(DELEGATED, [{ resourceType: 'appointment', resourceId: theirs.id, access: 'read' }]);
      assert.deepEqual(
        (await list<Appointment>(`/v1/members/${other.memberId}/appointments`, reader.token)).map((x) => x.id),
        [theirs.id],
      );
      assertProblem(await fx.call('DELETE', `/v1/members/${other.memberId}/appointments/${theirs.id}`, reader.token), 403, 'insufficient_grant');
      // Through another member's path the appointment is not there, whatever the grant says of it.
      const elsewhere = await newMember();
      for (const sa of [reader, writer]) {
        assertProblem(await fx.call('PATCH', `/v1/members/${elsewhere.memberId}/appointments/${theirs.id}`, sa.token, { expectedVersion: '1', title: 'x' }), 404, 'not_found');
        assertProblem(await fx.call('DELETE', `/v1/members/${elsewhere.memberId}/appointments/${theirs.id}`, sa.token), 404, 'not_found');
      }
      const away = await createAbsence(other.token, { startsOn: '2026-12-21', endsOn: '2026-12-22' });
      const absenceReader = await fx.serviceAccount(DELEGATED, [{ resourceType: 'absence', resourceId: away.id, access: 'read' }]);
      assertProblem(await fx.call('PATCH', `/v1/members/${other.memberId}/absences/${away.id}`, absenceReader.token, { expectedVersion: '1', note: 'x' }), 403, 'insufficient_grant');
      assertProblem(await fx.call('PATCH', `/v1/members/${elsewhere.memberId}/absences/${away.id}`, absenceReader.token, { expectedVersion: '1', note: 'x' }), 404, 'not_found');
      assertProblem(await fx.call('DELETE', `/v1/members/${elsewhere.memberId}/absences/${away.id}`, absenceReader.token), 404, 'not_found');
    });
  });

  describe('service accounts through the grants API', () => {
    type Grant = { resourceType: string; resourceId: string | null; access: 'read' | 'write' };
    const grantsOf = async (accountId: string) => (await fx.call<{ data: { version: string; grants: Grant[] } }>('GET', `/v1/service-accounts/${accountId}/resource-grants`, fx.admin)).body.data;
    const replaceGrants = async (accountId: string, grants: Grant[]) => {
      const reply = await fx.call<{ data: { grants: Grant[] } }>('PUT', `/v1/service-accounts/${accountId}/resource-grants`, fx.admin, {
        expectedVersion: (await grantsOf(accountId)).version,
        grants,
      });
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      return reply.body.data.grants;
    };
    const week = 'from=2026-12-07T00:00:00Z&to=2026-12-14T00:00:00Z';
    const detailOf = (reply: Parameters<typeof errorOf>[0]) => errorOf(reply).detail;

    it('an account made and granted through the API reads and writes members’ calendars on the delegated routes; the 403 names the grant to add', async () => {
      const other = await newMember();
      const account = await fx.call<{ data: { id: string } }>('POST', '/v1/service-accounts', fx.admin, { name: `calendar sync ${++seq}` });
      assert.equal(account.status, 201, JSON.stringify(account.body));
      const accountId = account.body.data.id;
      const credential = await fx.call<{ data: { secret: string } }>('POST', `/v1/service-accounts/${accountId}/credentials`, fx.admin, { name: 'calendar sync', scopes: DELEGATED });
      assert.equal(credential.status, 201, JSON.stringify(credential.body));
      const token = credential.body.data.secret;
      const base = `/v1/members/${other.memberId}`;

      // No grant: each refusal names, as the grants API takes it, the grant that would allow the request.
      const refusedCreate = await fx.call('POST', `${base}/appointments`, token, appointment());
      assertProblem(refusedCreate, 403, 'insufficient_grant');
      assert.match(detailOf(refusedCreate), /\{"resourceType":"appointments","resourceId":null,"access":"write"\}/);
      assert.match(detailOf(refusedCreate), /PUT \/v1\/service-accounts\/\{id\}\/resource-grants/);
      const refusedAvailability = await fx.call('GET', `${base}/availability?${week}`, token);
      assertProblem(refusedAvailability, 403, 'insufficient_grant');
      assert.match(detailOf(refusedAvailability), /\{"resourceType":"appointments","resourceId":null,"access":"read"\} and \{"resourceType":"absences","resourceId":null,"access":"read"\}/);
      assertProblem(await fx.call('POST', `${base}/absences`, token, { kind: 'vacation', startsOn: '2026-12-07', endsOn: '2026-12-08' }), 403, 'insufficient_grant');

      // The grants API takes the types the 403 names (it refused them with 400 before issue 24).
      const granted: Grant[] = [
        { resourceType: 'absences', resourceId: null, access: 'read' },
        { resourceType: 'appointments', resourceId: null, access: 'write' },
      ];
      assert.deepEqual(await replaceGrants(accountId, granted), granted);
      const created = await createAppointment(token, {}, `${base}/appointments`);
      assert.equal(created.memberId, other.memberId);
      const updated = await fx.call<{ data: Appointment }>('PATCH', `${base}/appointments/${created.id}`, token, { expectedVersion: created.version, title: 'Moved by the sync' });
      assert.equal(updated.status, 200, JSON.stringify(updated.body));
      assert.deepEqual(
        (await list<Appointment>(`${base}/appointments`, token)).map((a) => a.id),
        [created.id],
      );
      const absence = await createAbsence(fx.admin, { startsOn: '2026-12-08', endsOn: '2026-12-09' }, `${base}/absences`);
      assert.deepEqual(
        (await list<Absence>(`${base}/absences`, token)).map((a) => a.id),
        [absence.id],
      );
      assert.equal((await fx.call('GET', `${base}/availability?${week}`, token)).status, 200);
      // Absences are read-only for it: creating one names the write grant.
      const readOnly = await fx.call('POST', `${base}/absences`, token, { kind: 'vacation', startsOn: '2026-12-10', endsOn: '2026-12-11' });
      assertProblem(readOnly, 403, 'insufficient_grant');
      assert.match(detailOf(readOnly), /\{"resourceType":"absences","resourceId":null,"access":"write"\}/);

      // A grant on one appointment of another member: that member's calendar shows it (read-only), this one's nothing.
      const third = await newMember();
      const theirs = await createAppointment(third.token);
      assert.deepEqual(await replaceGrants(accountId, [{ resourceType: 'appointments', resourceId: theirs.id, access: 'read' }]), [
        { resourceType: 'appointments', resourceId: theirs.id, access: 'read' },
      ]);
      assert.deepEqual(await list(`${base}/appointments`, token), []);
      assertProblem(await fx.call('PATCH', `${base}/appointments/${created.id}`, token, { expectedVersion: '2', title: 'x' }), 404, 'not_found');
      assertProblem(await fx.call('PATCH', `${base}/appointments/${theirs.id}`, token, { expectedVersion: '1', title: 'x' }), 404, 'not_found');
      assert.deepEqual(
        (await list<Appointment>(`/v1/members/${third.memberId}/appointments`, token)).map((a) => a.id),
        [theirs.id],
      );
      const notWritable = await fx.call('DELETE', `/v1/members/${third.memberId}/appointments/${theirs.id}`, token);
      assertProblem(notWritable, 403, 'insufficient_grant');
      assert.match(detailOf(notWritable), new RegExp(`\\{"resourceType":"appointments","resourceId":"${theirs.id}","access":"write"\\}`));

      // A grant must name an existing resource of its type: a task id is no appointment.
      const task = await fx.call<{ data: { id: string } }>('POST', '/v1/tasks', fx.admin, { title: `Not an appointment ${++seq}` });
      const wrongType = await fx.call('PUT', `/v1/service-accounts/${accountId}/resource-grants`, fx.admin, {
        expectedVersion: (await grantsOf(accountId)).version,
        grants: [{ resourceType: 'absences', resourceId: task.body.data.id, access: 'read' }],
      });
      assertProblem(wrongType, 400, 'validation_failed', '/grants/0/resourceId');
    });
  });

  describe('absences', () => {
    it('own: created requested; dates inclusive start, exclusive end; overlaps 409, adjacent ranges fine', async () => {
      const m = await newMember();
      const created = await fx.call<{ data: Absence }>('POST', '/v1/absences', m.token, { kind: 'vacation', startsOn: '2026-12-07', endsOn: '2026-12-12', note: 'Skiing' });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const a = created.body.data;
      assertShape('createAbsence', a);
      assert.equal(created.headers.get('location'), `/v1/absences/${a.id}`);
      assert.equal(a.status, 'requested');
      assert.equal(a.endsOn, '2026-12-12');
      assertProblem(await fx.call('POST', '/v1/absences', m.token, { kind: 'sick', startsOn: '2026-12-11', endsOn: '2026-12-14' }), 409, 'conflict', '/startsOn');
      await createAbsence(m.token, { kind: 'sick', startsOn: '2026-12-12', endsOn: '2026-12-14' });
      await createAbsence(m.token, { kind: 'other', startsOn: '2026-12-06', endsOn: '2026-12-07' });
      assertProblem(await fx.call('POST', '/v1/absences', m.token, { kind: 'vacation', startsOn: '2026-12-20', endsOn: '2026-12-20' }), 400, 'validation_failed', '/endsOn');
      assertProblem(await fx.call('POST', '/v1/absences', m.token, { kind: 'vacation', startsOn: '2026-12-20', endsOn: '2026-12-21', status: 'approved' }), 400, 'validation_failed', ''); // an unknown key of the own body
      assertProblem(await fx.call('POST', '/v1/absences', m.token, { kind: 'holiday', startsOn: '2026-12-20', endsOn: '2026-12-21' }), 400, 'validation_failed', '/kind');
      assert.equal((await fx.call<{ data: Absence }>('GET', `/v1/absences/${a.id}`, m.token)).body.data.note, 'Skiing');
      assert.deepEqual((await list<Absence>('/v1/absences?from=2026-12-11&to=2026-12-13', m.token)).map((x) => x.startsOn).sort(), ['2026-12-07', '2026-12-12']);
    });

    it('concurrent overlapping creates: exactly one wins', async () => {
      const m = await newMember();
      const replies = await Promise.all([0, 1, 2].map(() => fx.call('POST', '/v1/absences', m.token, { kind: 'vacation', startsOn: '2027-01-04', endsOn: '2027-01-09' })));
      assert.deepEqual(replies.map((r) => r.status).sort(), [201, 409, 409]);
    });

    it('an administrator approves; a decided absence is then the administrator’s to change; rejected ones do not block', async () => {
      const m = await newMember();
      const admin = await newMember();
      const mine = await createAbsence(m.token, { startsOn: '2027-02-01', endsOn: '2027-02-06' });
      const path = `/v1/members/${m.memberId}/absences/${mine.id}`;
      assertProblem(await fx.call('PATCH', path, admin.token, { expectedVersion: mine.version, status: 'approved' }), 403, 'forbidden');
      await shareGroup(m.memberId, admin.memberId);
      const approved = await fx.call<{ data: Absence }>('PATCH', path, admin.token, { expectedVersion: mine.version, status: 'approved' });
      assert.equal(approved.status, 200, JSON.stringify(approved.body));
      assert.equal(approved.body.data.status, 'approved');
      assertProblem(await fx.call('PATCH', `/v1/absences/${mine.id}`, m.token, { expectedVersion: approved.body.data.version, note: 'x' }), 409, 'conflict');
      assertProblem(await fx.call('DELETE', `/v1/absences/${mine.id}`, m.token), 409, 'conflict');
      assertProblem(await fx.call('PATCH', path, admin.token, { expectedVersion: mine.version, status: 'rejected' }), 409, 'version_conflict');
      const rejected = await fx.call<{ data: Absence }>('PATCH', path, admin.token, { expectedVersion: approved.body.data.version, status: 'rejected' });
      assert.equal(rejected.body.data.status, 'rejected');
      await createAbsence(m.token, { startsOn: '2027-02-02', endsOn: '2027-02-03' });
      // Re-approving the rejected one would overlap the new request.
      assertProblem(await fx.call('PATCH', path, admin.token, { expectedVersion: rejected.body.data.version, status: 'approved' }), 409, 'conflict', '/startsOn');
      // An administrator's create defaults to approved; the list filters by status.
      const made = await createAbsence(admin.token, { startsOn: '2027-03-01', endsOn: '2027-03-02' }, `/v1/members/${m.memberId}/absences`);
      assert.equal(made.status, 'approved');
      assert.deepEqual(
        (await list<Absence>(`/v1/members/${m.memberId}/absences?status=approved`, admin.token)).map((x) => x.id),
        [made.id],
      );
      assert.equal((await fx.call('DELETE', path, admin.token)).status, 204);
      assertProblem(await fx.call('GET', `/v1/absences/${mine.id}`, m.token), 404, 'not_found');
      assert.deepEqual(
        (await fx.outbox(mine.id)).map((e) => e.eventType),
        ['absence.created', 'absence.updated', 'absence.updated', 'absence.deleted'],
      );
    });

    it('own requested absences change and delete; scopes: delegated read and admin write', async () => {
      const m = await newMember();
      const other = await newMember();
      await shareGroup(m.memberId, other.memberId);
      const a = await createAbsence(m.token, { startsOn: '2027-04-05', endsOn: '2027-04-07' });
      const moved = await fx.call<{ data: Absence }>('PATCH', `/v1/absences/${a.id}`, m.token, { expectedVersion: a.version, endsOn: '2027-04-08', halfDayEnd: true });
      assert.equal(moved.status, 200, JSON.stringify(moved.body));
      assert.equal(moved.body.data.halfDayEnd, true);
      assertProblem(await fx.call('PATCH', `/v1/absences/${a.id}`, m.token, { expectedVersion: moved.body.data.version, status: 'approved' }), 400, 'validation_failed', '');
      assertProblem(await fx.call('GET', `/v1/absences/${a.id}`, other.token), 404, 'not_found');
      const readOnly = await fx.member([...OWN, 'absences:delegated:read']);
      const reader = await readOnly.mint([...OWN, 'absences:delegated:read']);
      await shareGroup(readOnly.memberId, m.memberId);
      assert.equal((await list(`/v1/members/${m.memberId}/absences`, reader)).length, 1);
      assertProblem(await fx.call('POST', `/v1/members/${m.memberId}/absences`, reader, { kind: 'sick', startsOn: '2027-05-03', endsOn: '2027-05-04' }), 403, 'insufficient_scope');
      assertProblem(await fx.call('GET', `/v1/members/${m.memberId}/absences`, await readOnly.mint(OWN)), 403, 'insufficient_scope');
      assert.equal((await fx.call('DELETE', `/v1/absences/${a.id}`, m.token)).status, 204);
      assert.deepEqual(await list('/v1/absences', m.token), []);
    });
  });

  describe('availability', () => {
    // 2026-11-30 is a Monday.
    const week = 'from=2026-11-30T00:00:00Z&to=2026-12-07T00:00:00Z';

    it('working time minus approved absences, appointments (owned or attended) and nothing else, computed per request', async () => {
      const m = await newMember();
      const admin = await newMember();
      await shareGroup(m.memberId, admin.memberId);
      const meeting = await createAppointment(m.token, { startsAt: '2026-12-01T10:00:00Z', endsAt: '2026-12-01T11:00:00Z' });
      await createAppointment(m.token, { startsAt: '2026-12-01T10:30:00Z', endsAt: '2026-12-01T11:30:00Z' }); // overlaps: counted once
      await createAppointment(admin.token, { startsAt: '2026-12-01T15:00:00Z', endsAt: '2026-12-01T16:00:00Z', attendeeMemberIds: [m.memberId] });
      await createAbsence(admin.token, { startsOn: '2026-12-02', endsOn: '2026-12-03' }, `/v1/members/${m.memberId}/absences`); // approved
      await createAbsence(admin.token, { startsOn: '2026-12-03', endsOn: '2026-12-04', halfDayStart: true }, `/v1/members/${m.memberId}/absences`);
      await createAbsence(m.token, { startsOn: '2026-12-04', endsOn: '2026-12-05' }); // requested: not an absence yet

      const reply = await fx.call<{ data: Availability }>('GET', `/v1/availability?${week}`, m.token);
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      assertShape('getAvailability', reply.body.data);
      const { windows, timeZone, memberId } = reply.body.data;
      assert.equal(timeZone, 'UTC');
      assert.equal(memberId, m.memberId);
      assert.deepEqual(
        windows.map((w) => [w.startsAt, w.availableMinutes, w.reasons]),
        [
          ['2026-11-30T00:00:00Z', 480, ['working-hours']],
          ['2026-12-01T00:00:00Z', 330, ['working-hours', 'appointment']],
          ['2026-12-02T00:00:00Z', 0, ['working-hours', 'absence']],
          ['2026-12-03T00:00:00Z', 240, ['working-hours', 'absence']],
          ['2026-12-04T00:00:00Z', 480, ['working-hours']],
          ['2026-12-05T00:00:00Z', 0, ['working-hours']],
          ['2026-12-06T00:00:00Z', 0, ['working-hours']],
        ],
      );
      // Never stored: a deleted appointment frees its time on the next request.
      await fx.call('DELETE', `/v1/appointments/${meeting.id}`, m.token);
      const again = await fx.call<{ data: Availability }>('GET', `/v1/availability?${week}`, m.token);
      assert.equal(again.body.data.windows[1]!.availableMinutes, 360);
    });

    it('hours and time zones: windows in the requested zone', async () => {
      const m = await newMember();
      await createAppointment(m.token, { startsAt: '2026-12-01T09:00:00Z', endsAt: '2026-12-01T09:30:00Z' });
      const reply = await fx.call<{ data: Availability }>('GET', '/v1/availability?from=2026-12-01T00:00:00%2B01:00&to=2026-12-02T00:00:00%2B01:00&granularity=hour&timeZone=Europe/Berlin', m.token);
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      const { windows } = reply.body.data;
      assert.equal(reply.body.data.timeZone, 'Europe/Berlin');
      assert.equal(windows.length, 24);
      assert.equal(windows[0]!.startsAt, '2026-12-01T00:00:00+01:00');
      assert.deepEqual(
        windows.slice(8, 11).map((w) => [w.startsAt, w.availableMinutes, w.reasons]),
        [
          ['2026-12-01T08:00:00+01:00', 0, ['working-hours']],
          ['2026-12-01T09:00:00+01:00', 60, []],
          ['2026-12-01T10:00:00+01:00', 30, ['appointment']],
        ],
      );
      assert.equal(
        windows.reduce((sum, w) => sum + w.availableMinutes, 0),
        450,
      );
    });

    it('at the edges of representable time and before standard time: every instant is a Timestamp naming the instant (generated-input check)', async () => {
      const m = await newMember();
      // The last representable instant is 10000-01-01 on the wall clock at +14:00: it was answered as `+010000-01-01T13:59+14:00`.
      const end = await fx.call<{ data: Availability }>('GET', '/v1/availability?from=9999-12-31T23:59:59%2B14:00&to=9999-12-31T23:59:59.999Z&timeZone=Pacific/Kiritimati&granularity=hour', m.token);
      assert.equal(end.status, 200, JSON.stringify(end.body));
      assertShape('getAvailability', end.body.data);
      assert.equal(end.body.data.to, '9999-12-31T23:59:59.999Z');
      assert.equal(end.body.data.windows.at(-1)!.endsAt, '9999-12-31T23:59:59.999Z');
      // Berlin kept local mean time (+00:53:28) until 1893: the window's bounds were written 28 seconds off.
      const lmt = await fx.call<{ data: Availability }>('GET', '/v1/availability?from=1800-01-01T00:00:00Z&to=1800-01-02T00:00:00Z&timeZone=Europe/Berlin', m.token);
      assert.equal(lmt.status, 200, JSON.stringify(lmt.body));
      assertShape('getAvailability', lmt.body.data);
      assert.equal(Date.parse(lmt.body.data.from), Date.parse('1800-01-01T00:00:00Z'));
      assert.equal(Date.parse(lmt.body.data.to), Date.parse('1800-01-02T00:00:00Z'));
    });

    it('the window: to after from, at most 62 days; delegated access like the calendars', async () => {
      const m = await newMember();
      const other = await newMember();
      const tooLong = await fx.call('GET', '/v1/availability?from=2026-12-01T00:00:00Z&to=2027-02-01T00:00:01Z', m.token);
      assert.equal(tooLong.status, 400);
      assert.equal(errorOf(tooLong).source?.parameter, 'to');
      assertProblem(await fx.call('GET', '/v1/availability?from=2026-12-01T00:00:00Z&to=2026-12-01T00:00:00Z', m.token), 400, 'validation_failed');
      assertProblem(await fx.call('GET', '/v1/availability?from=2026-12-01T00:00:00Z', m.token), 400, 'validation_failed');
      const path = `/v1/members/${other.memberId}/availability?${week}`;
      assertProblem(await fx.call('GET', path, await m.mint(OWN)), 403, 'insufficient_scope');
      assertProblem(await fx.call('GET', path, m.token), 403, 'forbidden');
      await shareGroup(m.memberId, other.memberId);
      const reply = await fx.call<{ data: Availability }>('GET', path, m.token);
      assert.equal(reply.status, 200);
      assert.equal(reply.body.data.memberId, other.memberId);
      const sa = await fx.serviceAccount(['availability:delegated:read'], [{ resourceType: 'appointment', resourceId: null, access: 'read' }]);
      assertProblem(await fx.call('GET', path, sa.token), 403, 'insufficient_grant');
      const granted = await fx.serviceAccount(
        ['availability:delegated:read'],
        [
          { resourceType: 'appointment', resourceId: null, access: 'read' },
          { resourceType: 'absence', resourceId: null, access: 'read' },
        ],
      );
      assert.equal((await fx.call('GET', path, granted.token)).status, 200);
      assertProblem(await fx.call('GET', `/v1/members/${randomUUID()}/availability?${week}`, fx.admin), 404, 'not_found');
    });
  });
});
