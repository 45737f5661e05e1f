import { z } from 'zod';
import { ResourceId, Timestamp } from '../schemas/common.js';
import type { OperationDefinition } from '../types.js';
import { family } from './builders.js';
import { ResourceDomainSchema } from './search.js';

const f = family('exports');

/** The media types of an export's result by format (the download's Content-Type adds `; charset=utf-8`). */
export const EXPORT_MEDIA_TYPES = { csv: 'text/csv', jsonl: 'application/x-ndjson' } as const;

export const ExportStatus = z.enum(['pending', 'running', 'succeeded', 'failed', 'expired']);

/** The most rows one export holds (all its resource types together); a larger selection fails `too_many_rows`. */
export const EXPORT_MAX_ROWS = 10_000;
/** How long a succeeded export's result can be downloaded; then it is `expired` and the worker removes its bytes. */
export const EXPORT_RESULT_TTL_SECONDS = 3_600;

/** Comments are listed per target only (their target's scope and grant decide), so they are not exportable. */
export const ExportableDomain = ResourceDomainSchema.exclude(['comments']);

export const Export = z
  .object({
    id: ResourceId,
    status: ExportStatus,
    resourceTypes: z.array(ExportableDomain),
    format: z.enum(['csv', 'jsonl']),
    updatedSince: Timestamp.nullable().describe('Only resources updated at or after this instant; null: all.'),
    rowsDone: z.number().int().describe('Rows written so far.'),
    rowsTotal: z.number().int().nullable().describe('Rows in the result, once the job has read them all; null before.'),
    failureReason: z
      .enum(['too_many_rows', 'enqueue_failed', 'internal_error'])
      .nullable()
      .describe(
        `Why a \`failed\` export failed: \`too_many_rows\` (more than ${EXPORT_MAX_ROWS.toLocaleString('en-US')}; narrow it with updatedSince or fewer resource types), \`enqueue_failed\` (request it again), \`internal_error\`.`,
      ),
    createdAt: Timestamp,
    completedAt: Timestamp.nullable(),
    expiresAt: Timestamp.nullable(),
    sizeBytes: z.number().int().nullable(),
  })
  .meta({ id: 'Export', description: 'A bounded export job.' });

export const ExportCreate = z
  .strictObject({
    resourceTypes: z.array(ExportableDomain).min(1).max(10),
    format: z.enum(['csv', 'jsonl']),
    updatedSince: Timestamp.optional(),
  })
  .meta({ id: 'ExportCreate', description: 'What to export; every resource type needs its read scope.' });

export const exportOperations = [
  f.list('listExports', '/v1/exports', {
    description: 'The exports the calling credential created (an export holds what its creator could read: no other credential sees it), newest first.',
    scopes: ['exports:read'],
    query: { status: ExportStatus.optional() },
    item: Export,
  }),
  f.create('createExport', '/v1/exports', {
    description:
      'Accepted asynchronously (202, `Location` of the export): the worker writes every row of the requested resource types the caller can read now, ' +
      'with the caller’s scopes, finance overlays and resource grants as of this request, as the resource type’s list shows them (archived rows excluded). ' +
      `CSV (RFC 4180, a \`type\` column then the union of the types’ fields, nested values as JSON) or JSON Lines (one \`{"type", "data"}\` object a line). At most ${EXPORT_MAX_ROWS.toLocaleString('en-US')} rows. ` +
      'Needs the read scope of every requested resource type (403 insufficient_scope naming the missing ones).',
    scopes: ['exports:write'],
    dynamicScopes: 'requested-domains',
    async: true,
    body: ExportCreate,
    data: Export,
  }),
  f.get('getExport', '/v1/exports/{id}', { description: 'One export of the calling credential, with its progress.', scopes: ['exports:read'], data: Export }),
  f.action('GET', 'downloadExport', '/v1/exports/{id}/download', {
    summary: 'Download the result of an export',
    description:
      'Header-capability download: authorized only by the bearer credential in the Authorization header (never a URL token). ' +
      'Only the credential that created the export may download it, and it must still hold the read scope of every exported resource type. ' +
      `409 \`export_not_ready\` while the export is not \`succeeded\`; 410 \`export_expired\` once its result expired (${EXPORT_RESULT_TTL_SECONDS} s after it succeeded; the bytes are then removed). ` +
      'The body is the CSV or JSON Lines file (Content-Disposition names it).',
    scopes: ['exports:read'],
    extraErrors: [409, 410],
    response: { kind: 'binary', mediaTypes: [EXPORT_MEDIA_TYPES.csv, EXPORT_MEDIA_TYPES.jsonl] },
  }),
] satisfies readonly OperationDefinition[];
