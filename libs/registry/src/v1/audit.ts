import { z } from 'zod';
import { ResourceId, Timestamp } from '../schemas/common.js';
import type { OperationDefinition } from '../types.js';
import { family } from './builders.js';

const f = family('audit');

export const AuditEvent = z
  .object({
    id: ResourceId,
    action: z.string().describe('e.g. credential.created, credential.revoked, resource-grants.replaced'),
    actorType: z.enum(['member', 'service-account', 'system']),
    actorId: ResourceId.nullable(),
    credentialId: ResourceId.nullable(),
    targetType: z.string(),
    targetId: ResourceId.nullable(),
    outcome: z.enum(['success', 'denied', 'failure']),
    requestId: z.string().nullable(),
    occurredAt: Timestamp,
  })
  .meta({ id: 'AuditEvent', description: 'A developer-platform audit event.' });

export const auditOperations = [
  f.list('listAuditEvents', '/v1/audit-events', {
    scopes: ['audit:read'],
    query: {
      action: z.string().max(100).optional(),
      actorId: ResourceId.optional(),
      from: Timestamp.optional(),
      to: Timestamp.optional(),
    },
    item: AuditEvent,
  }),
] satisfies readonly OperationDefinition[];
