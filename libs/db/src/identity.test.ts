import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createTestDatabase, type TestDatabase, testConfig } from '@workcell/testing';
import { createDatabase, type Database } from './database.js';
import { type CredentialRecord, loadCredential } from './identity.js';

/**
 * loadCredential is one statement through the pool (issue 11); its record must be exactly what the nested Prisma
 * select it replaced returned, which this test keeps as its oracle: for a member's credential (roles archived and
 * not, permissions shared between roles), a service account's, a revoked one in a locked workspace, and none.
 */
describe('loadCredential', () => {
  let db: TestDatabase;
  let database: Database;
  let counting: Database;
  let statements = 0;
  let prismaUses = 0;
  const ids: Record<string, { workspaceId: string; id: string }> = {};

  const oracle = async (workspaceId: string, id: string): Promise<CredentialRecord | null> => {
    const row = await database.prisma.credential.findUnique({
      where: { workspaceId_id: { workspaceId, id } },
      select: {
        id: true,
        workspaceId: true,
        publicId: true,
        kind: true,
        name: true,
        verifier: true,
        scopes: true,
        status: true,
        expiresAt: true,
        region: true,
        cell: true,
        audience: true,
        createdAt: true,
        lastUsedAt: true,
        revokedAt: true,
        workspace: { select: { id: true, region: true, cell: true, lockedAt: true } },
        member: { select: { id: true, status: true, memberRoles: { select: { role: { select: { permissions: true, archivedAt: true } } } } } },
        serviceAccount: { select: { id: true, status: true } },
      },
    });
    if (!row) return null;
    const { member, ...rest } = row;
    return {
      ...rest,
      member: member ? { id: member.id, status: member.status, permissions: [...new Set(member.memberRoles.filter((mr) => mr.role.archivedAt === null).flatMap((mr) => mr.role.permissions))] } : null,
    };
  };

  /** Records compared with permissions as sets and the verifier as bytes (pg gives a Buffer, Prisma a Uint8Array). */
  const comparable = (record: CredentialRecord | null) =>
    record && { ...record, verifier: Buffer.from(record.verifier).toString('hex'), member: record.member && { ...record.member, permissions: [...record.member.permissions].sort() } };

  beforeAll(async () => {
    db = await createTestDatabase();
    database = createDatabase(testConfig({ DATABASE_URL: db.url }), { poolSize: 2 });
    counting = {
      ...database,
      get prisma() {
        prismaUses++;
        return database.prisma;
      },
      rows: (query) => {
        statements++;
        return database.rows(query);
      },
      execute: (query) => {
        statements++;
        return database.execute(query);
      },
    };
    const p = database.prisma;
    const credential = (workspaceId: string, data: { memberId?: string; serviceAccountId?: string; kind: 'personal_access_token' | 'service_account' }, extra: object = {}) =>
      p.credential.create({
        data: {
          workspaceId,
          publicId: randomBytes(8).toString('hex'),
          name: 'c',
          verifier: randomBytes(32),
          scopes: ['tasks:read', 'tasks:write', 'projects:read'],
          region: 'eu1',
          cell: 'c1',
          audience: 'v1',
          ...data,
          ...extra,
        },
      });
    const workspaceId = (await p.workspace.create({ data: { name: 'W' } })).id;
    const user = await p.user.create({ data: { email: `${randomBytes(4).toString('hex')}@example.com`, name: 'U' } });
    const member = await p.workspaceMember.create({ data: { workspaceId, userId: user.id } });
    const roles = [
      await p.role.create({ data: { workspaceId, name: 'a', permissions: ['tasks:read', 'tasks:write'] } }),
      await p.role.create({ data: { workspaceId, name: 'b', permissions: ['tasks:read', 'projects:read'] } }),
      await p.role.create({ data: { workspaceId, name: 'gone', permissions: ['contacts:read'], archivedAt: new Date() } }),
    ];
    for (const role of roles) await p.memberRole.create({ data: { workspaceId, memberId: member.id, roleId: role.id } });
    ids['member'] = {
      workspaceId,
      id: (await credential(workspaceId, { memberId: member.id, kind: 'personal_access_token' }, { expiresAt: new Date('2030-01-02T03:04:05.678Z'), lastUsedAt: new Date() })).id,
    };
    const account = await p.serviceAccount.create({ data: { workspaceId, name: 'sa', ownerMemberId: member.id, status: 'disabled' } });
    ids['service account'] = { workspaceId, id: (await credential(workspaceId, { serviceAccountId: account.id, kind: 'service_account' })).id };
    const locked = (await p.workspace.create({ data: { name: 'L', lockedAt: new Date(), region: 'us1', cell: 'c9' } })).id;
    const lone = await p.workspaceMember.create({ data: { workspaceId: locked, userId: user.id, status: 'disabled' } });
    ids['revoked, locked, no roles'] = { workspaceId: locked, id: (await credential(locked, { memberId: lone.id, kind: 'personal_access_token' }, { status: 'revoked', revokedAt: new Date() })).id };
    ids['another workspace'] = { workspaceId: locked, id: ids['member'].id };
  });

  afterAll(async () => {
    await database?.close();
    await db?.drop();
  });

  for (const name of ['member', 'service account', 'revoked, locked, no roles', 'another workspace']) {
    it(`reads what the nested select read, in one statement and without Prisma's client: ${name}`, async () => {
      const { workspaceId, id } = ids[name]!;
      statements = 0;
      prismaUses = 0;
      const record = await loadCredential(counting, workspaceId, id);
      assert.deepEqual([statements, prismaUses], [1, 0]);
      assert.deepEqual(comparable(record), comparable(await oracle(workspaceId, id)));
      if (name === 'another workspace') assert.equal(record, null);
      if (name === 'member') assert.deepEqual(comparable(record)?.member?.permissions, ['projects:read', 'tasks:read', 'tasks:write']);
    });
  }
});
