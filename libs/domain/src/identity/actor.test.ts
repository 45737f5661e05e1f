import assert from 'node:assert/strict';
import type { Db } from '@workcell/db';
import type { V1AuthContext } from '../kernel/auth-context.js';
import { recordOperationAudit } from './actor.js';

const auth = {
  workspaceId: '01a1fc94-97ea-7433-a1ba-8714884845a1',
  credential: { id: '01a1fc94-97ea-7433-a1ba-8714884845a2' },
  principal: { type: 'member', id: '01a1fc94-97ea-7433-a1ba-8714884845a3' },
} as V1AuthContext;

/** A transaction that keeps the audit rows it is asked to create. */
function recordingTx(): { tx: Db; rows: Record<string, unknown>[] } {
  const rows: Record<string, unknown>[] = [];
  const tx = { prisma: { auditEvent: { create: async ({ data }: { data: Record<string, unknown> }) => rows.push(data) } } } as unknown as Db;
  return { tx, rows };
}

describe('recordOperationAudit', () => {
  it("names the action after the target's type and takes workspace and actor from the operation", async () => {
    const { tx, rows } = recordingTx();
    const at = new Date('2026-11-29T12:00:00Z');
    const roleId = '01a1fc94-97ea-7433-a1ba-8714884845a4';
    await recordOperationAudit({ auth, requestId: 'req-1' }, tx, { type: 'role', id: roleId, action: 'permissions_replaced', metadata: { added: ['tasks:read'] }, at });
    assert.deepEqual(rows, [
      {
        workspaceId: auth.workspaceId,
        actorCredentialId: auth.credential.id,
        actorPrincipalType: 'member',
        actorPrincipalId: auth.principal.id,
        action: 'role.permissions_replaced',
        targetType: 'role',
        targetId: roleId,
        metadata: { added: ['tasks:read'] },
        requestId: 'req-1',
        occurredAt: at,
      },
    ]);
  });

  it('records an entry without facts with empty metadata, and a platform operation without a request id', async () => {
    const { tx, rows } = recordingTx();
    await recordOperationAudit({ auth, requestId: null }, tx, { type: 'group', id: null, action: 'archived', at: new Date(0) });
    assert.deepEqual([rows[0]!['action'], rows[0]!['targetType'], rows[0]!['targetId'], rows[0]!['metadata'], rows[0]!['requestId']], ['group.archived', 'group', null, {}, null]);
  });
});
