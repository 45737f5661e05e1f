import type { Readable } from 'node:stream';
import { z } from 'zod';
import { findExport } from '@workcell/db';
import { DOMAIN_READ_SCOPES, EXPORT_MEDIA_TYPES, type ResourceDomain } from '@workcell/registry';
import { DomainError } from '../kernel/errors.js';
import { isUuid } from '../kernel/ids.js';

import { defineProcedure } from '../kernel/procedure.js';
import { assertScopes } from '../kernel/scopes.js';
import { storageOf } from '../files/intents.js';
import { exportNotFound, exportStorageKey } from './view.js';

export const downloadExportInput = z.object({ id: z.string().max(64) }).strict();

export interface ExportDownload {
  readonly body: Readable;
  readonly headers: Record<string, string>;
}

/** The media types the OpenAPI document declares for the download (one source: the registry), in UTF-8. */
const contentTypeOf = (format: keyof typeof EXPORT_MEDIA_TYPES) => `${EXPORT_MEDIA_TYPES[format]}; charset=utf-8`;

/**
 * `GET /v1/exports/{id}/download`: the result's bytes, to the credential that created the export only (its
 * Authorization header is the capability), while it still holds every exported type's read scope. 409
 * `export_not_ready` before it succeeded; 410 `export_expired` from `expiresAt` on, whether or not the purge has
 * removed the bytes yet.
 */
export const downloadExport = defineProcedure('downloadExport', downloadExportInput, async (op, { id }): Promise<ExportDownload> => {
  const { auth } = op;
  const row = isUuid(id) ? await findExport(op.database, auth.workspaceId, auth.credential.id, id.toLowerCase()) : null;
  if (!row) throw exportNotFound();
  assertScopes(
    auth.effectiveScopes,
    row.resourceTypes.map((t) => DOMAIN_READ_SCOPES[t as ResourceDomain]),
  );
  const expired = row.status === 'expired' || (row.status === 'succeeded' && row.expiresAt !== null && row.expiresAt.getTime() <= op.now().getTime());
  if (expired) throw new DomainError('export_expired', 'this export’s result expired and was removed; create a new export');
  if (row.status !== 'succeeded') throw new DomainError('export_not_ready', `this export is ${row.status === 'queued' ? 'pending' : row.status}; only a succeeded export can be downloaded`);
  const stored = await storageOf(op).read(exportStorageKey(row));
  if (!stored) throw new DomainError('export_expired', 'this export’s result is no longer stored; create a new export');
  return {
    body: stored.body,
    headers: {
      'content-type': contentTypeOf(row.format),
      'content-length': String(stored.sizeBytes),
      'content-disposition': `attachment; filename="export-${row.id}.${row.format}"`,
      'cache-control': 'private, no-store',
    },
  };
});
