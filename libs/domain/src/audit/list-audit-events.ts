import { z } from 'zod';
import { listAuditEvents as listAuditEventRecords } from '@workcell/db';
import { type Page, paginate } from '../kernel/pagination.js';
import { defineProcedure } from '../kernel/procedure.js';

export const listAuditEventsInput = z
  .object({
    cursor: z.string().optional(),
    limit: z.number().int().min(1).max(200),
    action: z.string().max(100).optional(),
    actorId: z.uuid().optional(),
    from: z.iso.datetime({ offset: true }).optional(),
    to: z.iso.datetime({ offset: true }).optional(),
  })
  .strict();

export interface AuditEventView {
  readonly id: string;
  readonly action: string;
  readonly actorType: 'member' | 'service-account' | 'system';
  readonly actorId: string | null;
  readonly credentialId: string | null;
  readonly targetType: string;
  readonly targetId: string | null;
  readonly outcome: 'success';
  readonly requestId: string | null;
  readonly occurredAt: string;
}

/** `GET /v1/audit-events` (audit:read): the workspace's credential and permission changes, oldest first. */
export const listAuditEvents = defineProcedure('listAuditEvents', listAuditEventsInput, async (op, input): Promise<Page<AuditEventView>> => {
  const filter = { action: input.action, actorId: input.actorId, from: input.from ? new Date(input.from) : undefined, to: input.to ? new Date(input.to) : undefined };
  const scope = { workspaceId: op.auth.workspaceId, list: 'listAuditEvents', filter: { action: input.action, actorId: input.actorId, from: input.from, to: input.to } };
  const page = await paginate(op.config, scope, input, (after, take) => listAuditEventRecords(op.database, op.auth.workspaceId, filter, after, take));
  return {
    nextCursor: page.nextCursor,
    items: page.items.map((e) => ({
      id: e.id,
      action: e.action,
      actorType: e.actorPrincipalType === 'service_account' ? 'service-account' : (e.actorPrincipalType ?? 'system'),
      actorId: e.actorPrincipalId,
      credentialId: e.actorCredentialId,
      targetType: e.targetType,
      targetId: e.targetId && /^[0-9a-f-]{36}$/i.test(e.targetId) ? e.targetId : null,
      outcome: 'success',
      requestId: e.requestId,
      occurredAt: e.occurredAt.toISOString(),
    })),
  };
});
