import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { V1_SCOPES } from '@workcell/credentials';
import { DEMO_OWNER_EMAIL } from '@workcell/db';
import { sendInvitationMail } from '@workcell/domain';
import { OutboxMailer } from '@workcell/mail';
import { useTestEnvironment } from '@workcell/testing';
import { invitationMail, linkOf, textOf } from './support/mail.js';
import { useV1Cell } from './support/cell.js';
import { assertProblem, assertShape, errorOf, type ListBody } from './support/v1.js';

/**
 * v1 invitations end to end (docs/invitations.md): create, get, list, resend, revoke against the running services;
 * the address only with the members:pii:read overlay; roles checked with a pointer each; the 409s (already_member,
 * invitation_pending, invitation_not_pending, resend_too_soon with Retry-After); expiry derived at read time;
 * idempotent creates; concurrent resends; tenancy; events without the address. And the whole loop: the worker
 * writes the e-mail into the outbox directory, the test reads the .eml, follows its link to the auth service and
 * accepts, and the invitee is a member with the invitation's roles.
 */

const env = useTestEnvironment();

type Invitation = { id: string; email?: string; roleIds: string[]; status: string; invitedBy: string; lastSentAt: string; expiresAt: string; createdAt: string; updatedAt: string };
type Member = { id: string; displayName?: string; email?: string; roleIds: string[]; status: string };

const WITHOUT_PII = V1_SCOPES.filter((s) => s !== 'members:pii:read');

describe('v1 invitations', () => {
  const cell = useV1Cell(env);
  const { call } = cell;
  let roleId: string;
  let otherRoleId: string;
  let foreign: { workspaceId: string; roleId: string; invitationId: string };
  let seq = 0;

  const address = () => `invitee-${++seq}-${randomUUID().slice(0, 8)}@example.com`;
  const invite = async (body: Record<string, unknown> = {}, token = cell.admin) => {
    const reply = await call<{ data: Invitation }>('POST', '/v1/invitations', token, { email: address(), roleIds: [roleId], ...body });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    return reply.body.data;
  };
  const get = async (id: string, token = cell.admin) => call<{ data: Invitation }>('GET', `/v1/invitations/${id}`, token);
  const row = (id: string) => cell.database.prisma.invitation.findFirstOrThrow({ where: { workspaceId: cell.workspaceId, id } });
  /** Moves an invitation's instants into the past (what a minute or a week of waiting would do). */
  const backdate = (id: string, data: { lastSentAt?: Date; expiresAt?: Date }) => cell.database.prisma.invitation.updateMany({ where: { workspaceId: cell.workspaceId, id }, data });
  const outboxDir = () => env.config.mail.outboxDir;
  /** The e-mail the worker wrote for an invitation event (waits for the worker; a bound, not a timing assertion). */
  const mailOf = async (invitationId: string, eventType = 'invitation.created') => {
    const [event] = await cell.outbox(invitationId, eventType);
    assert.ok(event, `no ${eventType} event`);
    return invitationMail(cell.database, cell.workspaceId, outboxDir(), event.id);
  };
  const linkIn = (eml: string) => linkOf(eml, '/invitations/accept');
  const accept = (body: unknown) =>
    fetch(`${cell.auth.url}/invitations/accept`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(async (r) => ({
      status: r.status,
      headers: r.headers,
      body: (await r.json()) as { data?: { memberId: string; workspaceId: string; invitationId: string; roleIds: string[] }; errors?: { code: string; detail: string }[] },
    }));

  beforeAll(async () => {
    const role = async (name: string, permissions: string[], workspaceId = cell.workspaceId) => (await cell.database.prisma.role.create({ data: { workspaceId, name, permissions } })).id;
    roleId = await role('Invitee', ['tasks:read', 'projects:read']);
    otherRoleId = await role('Reviewer', ['contacts:read']);
    const workspaceId = await cell.otherWorkspace();
    const foreignRole = await role('Foreign', ['tasks:read'], workspaceId);
    const invitation = await cell.database.prisma.invitation.create({
      data: { workspaceId, email: 'foreign@example.com', expiresAt: new Date(Date.now() + 86_400_000), roles: { create: [{ roleId: foreignRole }] } },
    });
    foreign = { workspaceId, roleId: foreignRole, invitationId: invitation.id };
  });

  describe('create, get, list', () => {
    it('creates a pending invitation for 7 days (201, Location, the registry shape with the address under members:pii:read)', async () => {
      const email = address();
      const reply = await call<{ data: Invitation }>('POST', '/v1/invitations', cell.admin, { email: email.toUpperCase(), roleIds: [roleId, otherRoleId.toUpperCase()], message: 'Welcome aboard' });
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
      const created = reply.body.data;
      assertShape('createInvitation', created);
      assert.equal(reply.headers.get('location'), `/v1/invitations/${created.id}`);
      assert.equal(created.email, email, 'stored lower-case');
      assert.deepEqual(created.roleIds, [roleId, otherRoleId].sort());
      assert.equal(created.status, 'pending');
      assert.equal(created.invitedBy, cell.ownerMemberId);
      assert.equal(Date.parse(created.expiresAt) - Date.parse(created.createdAt), 7 * 24 * 3600_000);
      assert.equal(created.lastSentAt, created.createdAt);
      const got = await get(created.id);
      assert.equal(got.status, 200);
      assert.deepEqual(got.body.data, created);
      const pending = await cell.listAll<Invitation>('/v1/invitations?status=pending');
      assert.ok(pending.some((i) => i.id === created.id));
      assert.ok(!(await cell.listAll<Invitation>('/v1/invitations?status=revoked')).some((i) => i.id === created.id));
    });

    it('shows the address only with members:pii:read (reads, lists and the create response alike)', async () => {
      const plain = await cell.mint(WITHOUT_PII);
      const created = await invite({}, plain);
      assert.equal(created.email, undefined);
      assertShape('createInvitation', { ...created, email: 'x@example.com' });
      assert.equal((await get(created.id, plain)).body.data.email, undefined);
      const listed = (await cell.listAll<Invitation>('/v1/invitations', plain)).find((i) => i.id === created.id);
      assert.ok(listed && !('email' in listed));
      assert.ok((await get(created.id)).body.data.email?.endsWith('@example.com'));
    });

    it('scopes: invitations:read reads, invitations:write writes; the PII overlay alone grants nothing', async () => {
      const created = await invite();
      const reader = await cell.mint(['invitations:read']);
      assert.equal((await get(created.id, reader)).status, 200);
      assertProblem(await call('POST', '/v1/invitations', reader, { email: address(), roleIds: [roleId] }), 403, 'insufficient_scope');
      assertProblem(await call('DELETE', `/v1/invitations/${created.id}`, reader), 403, 'insufficient_scope');
      assertProblem(await call('POST', `/v1/invitations/${created.id}/resend`, reader), 403, 'insufficient_scope');
      const overlayOnly = await cell.mint(['members:pii:read']);
      assertProblem(await get(created.id, overlayOnly), 403, 'insufficient_scope');
      assertProblem(await call('GET', '/v1/invitations', overlayOnly), 403, 'insufficient_scope');
      assert.equal((await row(created.id)).status, 'pending');
    });

    it('another workspace’s invitation is 404 for every operation, and absent from the list', async () => {
      const id = foreign.invitationId;
      assertProblem(await get(id), 404, 'not_found');
      assertProblem(await call('POST', `/v1/invitations/${id}/resend`, cell.admin), 404, 'not_found');
      assertProblem(await call('DELETE', `/v1/invitations/${id}`, cell.admin), 404, 'not_found');
      assertProblem(await get('not-a-uuid'), 404, 'not_found');
      assert.ok(!(await cell.listAll<Invitation>('/v1/invitations')).some((i) => i.id === id));
    });
  });

  describe('validation and conflicts', () => {
    it('every roleId must be a role of this workspace: 400 with a pointer per bad entry, nothing written', async () => {
      const before = await cell.database.prisma.invitation.count();
      const archived = (await cell.database.prisma.role.create({ data: { workspaceId: cell.workspaceId, name: `Archived ${randomUUID()}`, permissions: [], archivedAt: new Date() } })).id;
      const reply = await call('POST', '/v1/invitations', cell.admin, { email: address(), roleIds: [roleId, foreign.roleId, randomUUID(), archived] });
      assertProblem(reply, 400, 'validation_failed');
      const pointers = (reply.body as { errors: { source?: { pointer?: string } }[] }).errors.map((e) => e.source?.pointer).sort();
      assert.deepEqual(pointers, ['/roleIds/1', '/roleIds/2', '/roleIds/3']);
      assertProblem(await call('POST', '/v1/invitations', cell.admin, { email: address(), roleIds: [roleId, roleId] }), 400, 'validation_failed', '/roleIds/1');
      assertProblem(await call('POST', '/v1/invitations', cell.admin, { email: address(), roleIds: ['nope'] }), 400, 'validation_failed', '/roleIds/0');
      assertProblem(await call('POST', '/v1/invitations', cell.admin, { email: 'not an address', roleIds: [roleId] }), 400, 'validation_failed', '/email');
      assertProblem(await call('POST', '/v1/invitations', cell.admin, { email: address(), roleIds: [] }), 400, 'validation_failed', '/roleIds');
      assertProblem(await call('POST', '/v1/invitations', cell.admin, { email: address(), roleIds: [roleId], extra: 1 }), 400, 'validation_failed');
      assert.equal(await cell.database.prisma.invitation.count(), before);
    });

    it('an address of a member (removed ones included) is 409 already_member; one with a pending invitation is 409 invitation_pending (any case)', async () => {
      assertProblem(await call('POST', '/v1/invitations', cell.admin, { email: DEMO_OWNER_EMAIL.toUpperCase(), roleIds: [roleId] }), 409, 'already_member', '/email');
      // A removed member too: removal is final (re-admitting would revive its old credentials).
      const removed = await cell.member(['tasks:read']);
      assert.equal((await call('DELETE', `/v1/members/${removed.memberId}`, cell.admin)).status, 204);
      const removedEmail = (await cell.database.prisma.workspaceMember.findFirstOrThrow({ where: { id: removed.memberId }, select: { user: { select: { email: true } } } })).user.email;
      assertProblem(await call('POST', '/v1/invitations', cell.admin, { email: removedEmail, roleIds: [roleId] }), 409, 'already_member', '/email');
      const first = await invite();
      assertProblem(await call('POST', '/v1/invitations', cell.admin, { email: first.email!.toUpperCase(), roleIds: [otherRoleId] }), 409, 'invitation_pending', '/email');
      assert.equal(await cell.database.prisma.invitation.count({ where: { workspaceId: cell.workspaceId, email: first.email! } }), 1);
    });

    it('no escalation: inviting into a role with a permission the caller does not hold is 403 with the pointer', async () => {
      const inviter = await cell.member(['invitations:read', 'invitations:write', 'tasks:read']);
      const token = await inviter.mint(['invitations:read', 'invitations:write', 'tasks:read']);
      assertProblem(await call('POST', '/v1/invitations', token, { email: address(), roleIds: [roleId] }), 403, 'insufficient_scope', '/roleIds/0');
      const narrow = (await cell.database.prisma.role.create({ data: { workspaceId: cell.workspaceId, name: `Narrow ${randomUUID()}`, permissions: ['tasks:read'] } })).id;
      const created = await invite({ roleIds: [narrow] }, token);
      assert.equal(created.invitedBy, inviter.memberId);
    });

    it('a role offered by a pending invitation cannot be deleted (409 role_in_use); once revoked it can', async () => {
      const offered = (await cell.database.prisma.role.create({ data: { workspaceId: cell.workspaceId, name: `Offered ${randomUUID()}`, permissions: ['tasks:read'] } })).id;
      const created = await invite({ roleIds: [offered] });
      assertProblem(await call('DELETE', `/v1/roles/${offered}`, cell.admin), 409, 'role_in_use');
      assert.equal((await call('DELETE', `/v1/invitations/${created.id}`, cell.admin)).status, 204);
      assert.equal((await call('DELETE', `/v1/roles/${offered}`, cell.admin)).status, 204);
    });

    it('an idempotent create replays with the same key (on either instance) and creates once', async () => {
      const key = `invitation-${randomUUID()}`;
      const body = { email: address(), roleIds: [roleId] };
      const first = await call<{ data: Invitation }>('POST', '/v1/invitations', cell.admin, body, { 'idempotency-key': key });
      const second = await call<{ data: Invitation }>('POST', '/v1/invitations', cell.admin, body, { 'idempotency-key': key }, cell.v1b);
      assert.equal(first.status, 201);
      assert.equal(second.status, 201);
      assert.equal(second.headers.get('idempotency-replayed'), 'true');
      assert.deepEqual(second.body, first.body);
      assert.equal(await cell.database.prisma.invitation.count({ where: { workspaceId: cell.workspaceId, email: body.email } }), 1);
      assertProblem(await call('POST', '/v1/invitations', cell.admin, { ...body, roleIds: [otherRoleId] }, { 'idempotency-key': key }), 409, 'idempotency_key_reused');
    });
  });

  describe('lifecycle', () => {
    it('resend: sooner than a minute is 409 resend_too_soon with Retry-After; later it moves lastSentAt and not the expiry', async () => {
      const created = await invite();
      const soon = await call('POST', `/v1/invitations/${created.id}/resend`, cell.admin);
      assertProblem(soon, 409, 'resend_too_soon');
      const retryAfter = Number(soon.headers.get('retry-after'));
      assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
      await backdate(created.id, { lastSentAt: new Date(Date.now() - 61_000) });
      const resent = await call<{ data: Invitation }>('POST', `/v1/invitations/${created.id}/resend`, cell.admin);
      assert.equal(resent.status, 200, JSON.stringify(resent.body));
      assertShape('resendInvitation', resent.body.data);
      assert.ok(Date.parse(resent.body.data.lastSentAt) > Date.parse(created.lastSentAt));
      assert.equal(resent.body.data.expiresAt, created.expiresAt);
      assert.equal((await cell.outbox(created.id, 'invitation.resent')).length, 1);
    });

    it('of concurrent resends on both instances exactly one is sent; the others are 409 resend_too_soon', async () => {
      const created = await invite();
      await backdate(created.id, { lastSentAt: new Date(Date.now() - 120_000) });
      const replies = await Promise.all(Array.from({ length: 6 }, (_, i) => call('POST', `/v1/invitations/${created.id}/resend`, cell.admin, undefined, {}, i % 2 ? cell.v1b : cell.v1)));
      assert.deepEqual(replies.map((r) => r.status).sort(), [200, 409, 409, 409, 409, 409]);
      for (const r of replies.filter((x) => x.status === 409)) assert.equal(errorOf(r).code, 'resend_too_soon');
      assert.equal((await cell.outbox(created.id, 'invitation.resent')).length, 1);
    });

    it('revoke: 204 and revoked; again is 204 with nothing changed; resending a revoked one is 409 invitation_not_pending', async () => {
      const created = await invite();
      assert.equal((await call('DELETE', `/v1/invitations/${created.id}`, cell.admin)).status, 204);
      const revoked = (await get(created.id)).body.data;
      assert.equal(revoked.status, 'revoked');
      assert.equal((await call('DELETE', `/v1/invitations/${created.id}`, cell.admin)).status, 204);
      assert.equal((await cell.outbox(created.id, 'invitation.revoked')).length, 1);
      assert.equal((await row(created.id)).revision, 2);
      await backdate(created.id, { lastSentAt: new Date(Date.now() - 120_000) });
      const again = await call('POST', `/v1/invitations/${created.id}/resend`, cell.admin);
      assertProblem(again, 409, 'invitation_not_pending');
      // The address is free for a new invitation.
      assert.equal((await call('POST', '/v1/invitations', cell.admin, { email: created.email, roleIds: [roleId] })).status, 201);
    });

    it('expiry is derived at read time: past expiresAt it reads expired everywhere, cannot be resent or revoked, and frees the address', async () => {
      const created = await invite();
      await backdate(created.id, { expiresAt: new Date(Date.now() - 1000), lastSentAt: new Date(Date.now() - 120_000) });
      assert.equal((await row(created.id)).status, 'pending', 'stored pending: nothing flipped it');
      assert.equal((await get(created.id)).body.data.status, 'expired');
      assert.ok(!(await cell.listAll<Invitation>('/v1/invitations?status=pending')).some((i) => i.id === created.id));
      assert.equal((await cell.listAll<Invitation>('/v1/invitations?status=expired')).find((i) => i.id === created.id)?.status, 'expired');
      assertProblem(await call('POST', `/v1/invitations/${created.id}/resend`, cell.admin), 409, 'invitation_not_pending');
      assertProblem(await call('DELETE', `/v1/invitations/${created.id}`, cell.admin), 409, 'invitation_not_pending');
      const renewed = await call<{ data: Invitation }>('POST', '/v1/invitations', cell.admin, { email: created.email, roleIds: [roleId] });
      assert.equal(renewed.status, 201, JSON.stringify(renewed.body));
      assert.equal((await get(created.id)).body.data.status, 'expired');
    });

    it('lists in creation order with cursor pages', async () => {
      for (let i = 0; i < 3; i++) await invite();
      const first = await call<ListBody<Invitation>>('GET', '/v1/invitations?limit=2', cell.admin);
      assert.equal(first.status, 200);
      assert.equal(first.body.data.length, 2);
      assert.ok(first.body.links.next);
      const all = await cell.listAll<Invitation>('/v1/invitations');
      assert.deepEqual(
        all.map((i) => i.id),
        [...all.map((i) => i.id)].sort(),
      );
    });

    it('events carry the invitation without the address', async () => {
      const created = await invite();
      const [event] = await cell.outbox(created.id, 'invitation.created');
      assert.ok(event);
      assert.equal(event.aggregateType, 'invitation');
      const payload = event.payload as { invitation: Invitation };
      assert.equal(payload.invitation.id, created.id);
      assert.equal(payload.invitation.email, undefined);
      assert.ok(!JSON.stringify(event.payload).includes(created.email!));
    });
  });

  describe('the e-mail and its acceptance', () => {
    it('create → the worker writes the e-mail → its link accepts → the invitee is a member with the roles', async () => {
      const email = address();
      const created = (await call<{ data: Invitation }>('POST', '/v1/invitations', cell.admin, { email, roleIds: [roleId, otherRoleId], message: 'See you there' })).body.data;
      const eml = await mailOf(created.id);
      assert.match(eml, new RegExp(`^To: ${email.replace(/[.+]/g, '\\$&')}$`, 'm'));
      assert.match(eml, /^Subject: You are invited to /m);
      assert.match(textOf(eml), /See you there/);
      const link = linkIn(eml);
      assert.equal(`${link.origin}${link.pathname}`, env.config.mail.invitationAcceptUrl);
      const token = link.searchParams.get('token')!;
      // Only the token's hash is stored.
      const stored = await cell.database.prisma.invitationMessage.findMany({ where: { workspaceId: cell.workspaceId, invitationId: created.id } });
      assert.equal(stored.length, 1);
      assert.ok(!Buffer.from(stored[0]!.tokenHash).toString('utf8').includes(token));

      // The page the link opens (served by the auth service).
      const page = await fetch(`${cell.auth.url}/invitations/accept${link.search}`);
      assert.equal(page.status, 200);
      assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
      assert.match(page.headers.get('content-security-policy') ?? '', /default-src 'none'/);
      assert.equal(page.headers.get('referrer-policy'), 'no-referrer');
      assert.ok(!(await page.text()).includes(token), 'the token is never echoed into the page');

      const accepted = await accept({ token, displayName: 'Ada Lovelace' });
      assert.equal(accepted.status, 201, JSON.stringify(accepted.body));
      const memberId = accepted.body.data!.memberId;
      assert.equal(accepted.headers.get('location'), `/v1/members/${memberId}`);
      const member = await call<{ data: Member }>('GET', `/v1/members/${memberId}`, cell.admin);
      assert.equal(member.status, 200);
      assert.equal(member.body.data.displayName, 'Ada Lovelace');
      assert.equal(member.body.data.email, email);
      assert.equal(member.body.data.status, 'active');
      assert.deepEqual(member.body.data.roleIds, [roleId, otherRoleId].sort());
      assert.ok((await cell.listAll<Member>('/v1/members')).some((m) => m.id === memberId));
      const after = (await get(created.id)).body.data;
      assert.equal(after.status, 'accepted');
      const [event] = await cell.outbox(created.id, 'invitation.accepted');
      assert.equal((event?.payload as { memberId?: string }).memberId, memberId);
      const audit = await cell.database.prisma.auditEvent.findFirstOrThrow({ where: { workspaceId: cell.workspaceId, action: 'member.joined', targetId: memberId } });
      assert.deepEqual(audit.metadata, { invitationId: created.id, rolesAdded: [roleId, otherRoleId].sort(), userCreated: true });

      // Single use: the same link again, and a new invitation for the address, are refused.
      const again = await accept({ token, displayName: 'Ada Lovelace' });
      assert.equal(again.status, 409);
      assert.equal(again.body.errors?.[0]?.code, 'invitation_not_pending');
      assertProblem(await call('POST', '/v1/invitations', cell.admin, { email, roleIds: [roleId] }), 409, 'already_member');
      assertProblem(await call('DELETE', `/v1/invitations/${created.id}`, cell.admin), 409, 'invitation_not_pending');
    });

    it('a resend mails a second link; the e-mail of each event is written once; revoking stops every link', async () => {
      const created = await invite();
      const first = linkIn(await mailOf(created.id)).searchParams.get('token')!;
      await backdate(created.id, { lastSentAt: new Date(Date.now() - 120_000) });
      assert.equal((await call('POST', `/v1/invitations/${created.id}/resend`, cell.admin)).status, 200);
      const second = linkIn(await mailOf(created.id, 'invitation.resent')).searchParams.get('token')!;
      assert.notEqual(first, second);
      const events = [...(await cell.outbox(created.id, 'invitation.created')), ...(await cell.outbox(created.id, 'invitation.resent'))];
      const files = (await readdir(outboxDir())).filter((f) => events.some((e) => f === `invitation-${e.id}.eml`));
      assert.equal(files.length, 2);
      assert.equal(await cell.database.prisma.invitationMessage.count({ where: { workspaceId: cell.workspaceId, invitationId: created.id } }), 2);
      assert.equal((await call('DELETE', `/v1/invitations/${created.id}`, cell.admin)).status, 204);
      for (const token of [first, second]) {
        const refused = await accept({ token });
        assert.equal(refused.status, 409);
        assert.equal(refused.body.errors?.[0]?.code, 'invitation_not_pending');
      }
    });

    it('an expired invitation’s link is refused; an unknown or malformed token is 404; a bad body is 400 with a pointer', async () => {
      const created = await invite();
      const token = linkIn(await mailOf(created.id)).searchParams.get('token')!;
      await backdate(created.id, { expiresAt: new Date(Date.now() - 1000) });
      const expired = await accept({ token });
      assert.equal(expired.status, 409);
      assert.equal(expired.body.errors?.[0]?.code, 'invitation_not_pending');
      assert.match(expired.body.errors?.[0]?.detail ?? '', /expired/);
      for (const bad of [`${cell.workspaceId}.${'A'.repeat(43)}`, `${foreign.workspaceId}.${token.split('.')[1]}`, 'garbage', '']) {
        const unknown = await accept({ token: bad });
        assert.equal(unknown.status, 404, JSON.stringify(unknown.body));
        assert.equal(unknown.body.errors?.[0]?.code, 'not_found');
      }
      const invalid = await accept({ token: 7, displayName: '' });
      assert.equal(invalid.status, 400);
      assert.equal(invalid.body.errors?.[0]?.code, 'validation_failed');
      assert.equal((await row(created.id)).status, 'pending');
    });

    it('the mail job sends once per event and nothing for an invitation no longer pending (a job run twice, or after a revoke)', async () => {
      const ctx = { database: cell.database, config: env.config, now: () => new Date() };
      const mailer = new OutboxMailer(outboxDir(), env.config.mail.from);
      const created = await invite();
      const [event] = await cell.outbox(created.id, 'invitation.created');
      await mailOf(created.id);
      const job = { workspaceId: cell.workspaceId, invitationId: created.id, eventId: event!.id };
      assert.equal(await sendInvitationMail(ctx, mailer, job), 'already_sent');
      assert.equal(await cell.database.prisma.invitationMessage.count({ where: { workspaceId: cell.workspaceId, invitationId: created.id } }), 1);
      assert.equal((await call('DELETE', `/v1/invitations/${created.id}`, cell.admin)).status, 204);
      const late = randomUUID();
      assert.equal(await sendInvitationMail(ctx, mailer, { ...job, eventId: late }), 'not_pending');
      assert.ok(!(await readdir(outboxDir())).includes(`invitation-${late}.eml`));
      assert.equal(await sendInvitationMail(ctx, mailer, { ...job, invitationId: foreign.invitationId }), 'not_found');
    });
  });
});
