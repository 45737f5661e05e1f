import assert from 'node:assert/strict';
import { V1_SCOPES } from '@workcell/credentials';
import { useTestEnvironment } from '@workcell/testing';
import { startV1Cell, type V1Cell } from './support/cell.js';
import { assertProblem, callApi } from './support/v1.js';

/**
 * Refused authentications in the audit trail (issue 4: "nothing is written except the audit trail"): a refusal
 * of an identified credential is recorded once a minute per credential and reason, never with the secret;
 * unknown, malformed and wrong-checksum tokens write nothing at all.
 */

const env = useTestEnvironment();

describe('refused authentications', () => {
  let cell: V1Cell;

  beforeAll(async () => {
    cell = await startV1Cell(env);
  });
  afterAll(() => cell?.close());

  const refusals = (credentialId: string) =>
    cell.database.prisma.auditEvent.findMany({ where: { workspaceId: cell.workspaceId, action: 'credential.authentication_refused', targetId: credentialId }, orderBy: { id: 'asc' } });
  const credentialIdOf = async (token: string) => {
    const reply = await callApi<{ data: { credentialId: string } }>(cell.v1, 'GET', '/v1/auth/context', token);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    return reply.body.data.credentialId;
  };

  it('records a revoked credential’s refusal once a minute, with the reason and without the secret', async () => {
    const token = await cell.mint(['workspace:read']);
    const id = await credentialIdOf(token);
    assert.equal((await callApi(cell.v1, 'DELETE', '/v1/auth/context', token)).status, 204);
    for (let i = 0; i < 3; i++) assertProblem(await callApi(cell.v1, 'GET', '/v1/workspace', token), 401, 'credential_revoked');
    const events = await refusals(id);
    assert.equal(events.length, 1, 'repeated refusals within a minute are recorded once');
    assert.deepEqual(events[0]!.metadata, { reason: 'revoked' });
    assert.equal(events[0]!.actorCredentialId, id);
    assert.ok(!JSON.stringify(events[0]).includes(token.slice(-20)), 'no fragment of the secret');
  });

  it('records expiry and a locked workspace as their own reasons', async () => {
    const expiring = await cell.mint(['workspace:read']);
    const expiringId = await credentialIdOf(expiring);
    await cell.database.changeAuthorization(cell.workspaceId, () =>
      cell.database.prisma.credential.update({ where: { workspaceId_id: { workspaceId: cell.workspaceId, id: expiringId } }, data: { expiresAt: new Date(Date.now() - 1000) } }),
    );
    assertProblem(await callApi(cell.v1, 'GET', '/v1/workspace', expiring), 401, 'credential_expired');
    assert.deepEqual(
      (await refusals(expiringId)).map((e) => e.metadata),
      [{ reason: 'expired' }],
    );

    const token = await cell.mint(['workspace:read']);
    const id = await credentialIdOf(token);
    await cell.database.changeAuthorization(cell.workspaceId, () => cell.database.prisma.workspace.update({ where: { id: cell.workspaceId }, data: { lockedAt: new Date() } }));
    try {
      assertProblem(await callApi(cell.v1, 'GET', '/v1/workspace', token), 403, 'workspace_locked');
    } finally {
      await cell.database.changeAuthorization(cell.workspaceId, () => cell.database.prisma.workspace.update({ where: { id: cell.workspaceId }, data: { lockedAt: null } }));
    }
    assert.deepEqual(
      (await refusals(id)).map((e) => e.metadata),
      [{ reason: 'workspace_locked' }],
    );
    assert.equal((await callApi(cell.v1, 'GET', '/v1/workspace', token)).status, 200);
  });

  it('writes nothing for unknown, malformed, truncated and wrong-checksum tokens', async () => {
    const valid = await cell.mint(V1_SCOPES);
    const before = await cell.database.prisma.auditEvent.count();
    const flipped = valid.slice(0, -1) + (valid.endsWith('A') ? 'B' : 'A');
    for (const token of ['svc_pat_v2_nothing', valid.slice(0, -8), flipped, `${valid}x`, 'wc_v0_x']) {
      assert.equal((await callApi(cell.v1, 'GET', '/v1/workspace', token)).status, 401, token.slice(0, 12));
    }
    assert.equal(await cell.database.prisma.auditEvent.count(), before);
  });
});
