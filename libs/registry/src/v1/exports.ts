import { z } from 'zod';
import { ResourceId, Timestamp } from '../schemas/common.js';
import type { OperationDefinition } from '../types.js';
import { family } from './builders.js';
import { ResourceDomainSchema } from './search.js';

const f = family('exports');

export const ExportStatus = z.enum(['pending', 'running', 'succeeded', 'failed', 'expired']);

export const Export = z
  .object({
    id: ResourceId,
    status: ExportStatus,
    resourceTypes: z.array(ResourceDomainSchema),
    format: z.enum(['csv', 'jsonl']),
    createdAt: Timestamp,
    completedAt: Timestamp.nullable(),
    expiresAt: Timestamp.nullable(),
    sizeBytes: z.number().int().nullable(),
  })
  .meta({ id: 'Export', description: 'A bounded export job.' });

export const ExportCreate = z
  .strictObject({
    resourceTypes: z.array(ResourceDomainSchema).min(1).max(10),
    format: z.enum(['csv', 'jsonl']),
    updatedSince: Timestamp.optional(),
  })
  .meta({ id: 'ExportCreate', description: 'What to export; every resource type needs its read scope.' });

export const exportOperations = [
  f.list('listExports', '/v1/exports', { scopes: ['exports:read'], query: { status: ExportStatus.optional() }, item: Export }),
  f.create('createExport', '/v1/exports', {
    description: 'Accepted asynchronously. Needs the read scope of every requested resource type.',
    scopes: ['exports:write'],
    dynamicScopes: 'requested-domains',
    async: true,
    body: ExportCreate,
    data: Export,
  }),
  f.get('getExport', '/v1/exports/{id}', { scopes: ['exports:read'], data: Export }),
  f.action('GET', 'downloadExport', '/v1/exports/{id}/download', {
    summary: 'Download the result of an export',
    description:
      'Header-capability download: authorized only by the bearer credential in the Authorization header (never a URL token). ' +
      '409 while the export is not `succeeded`.',
    scopes: ['exports:read'],
    extraErrors: [409],
    response: { kind: 'binary', mediaType: 'application/octet-stream' },
  }),
] satisfies readonly OperationDefinition[];
