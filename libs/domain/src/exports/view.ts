import type { ExportRecord } from '@workcell/db';
import { DomainError } from '../kernel/errors.js';

/** The registry's Export. */
export type ExportView = {
  readonly id: string;
  readonly status: 'pending' | 'running' | 'succeeded' | 'failed' | 'expired';
  readonly resourceTypes: string[];
  readonly format: 'csv' | 'jsonl';
  readonly updatedSince: string | null;
  readonly rowsDone: number;
  readonly rowsTotal: number | null;
  readonly failureReason: string | null;
  readonly createdAt: string;
  readonly completedAt: string | null;
  readonly expiresAt: string | null;
  readonly sizeBytes: number | null;
};

/** The registry's AsyncOperation for the 202 of createExport: the export is its own operation. */
export interface ExportOperationView {
  readonly id: string;
  readonly kind: 'export';
  readonly status: 'pending' | 'running' | 'succeeded' | 'failed';
  readonly resourceType: 'exports';
  readonly resourceId: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly completedAt: string | null;
  readonly error: { code: string; message: string } | null;
}

/** The stored `queued` is the registry's `pending`. */
const statusOf = (row: ExportRecord) => (row.status === 'queued' ? 'pending' : row.status);

export function exportView(row: ExportRecord): ExportView {
  return {
    id: row.id,
    status: statusOf(row),
    resourceTypes: row.resourceTypes,
    format: row.format,
    updatedSince: row.updatedSince?.toISOString() ?? null,
    rowsDone: row.rowsDone,
    rowsTotal: row.rowsTotal,
    failureReason: row.failureReason,
    createdAt: row.createdAt.toISOString(),
    completedAt: row.finishedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    sizeBytes: row.sizeBytes,
  };
}

export function exportOperationView(row: ExportRecord): ExportOperationView {
  const status = statusOf(row);
  return {
    id: row.id,
    kind: 'export',
    status: status === 'expired' ? 'succeeded' : status,
    resourceType: 'exports',
    resourceId: row.id,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    completedAt: row.finishedAt?.toISOString() ?? null,
    error: row.failureReason === null ? null : { code: row.failureReason, message: `the export failed: ${row.failureReason}` },
  };
}

/** An export event's payload: its state, never its rows or its creator's authorization. */
export const exportEventView = (row: ExportRecord) => ({ export: exportView(row) });

export const exportNotFound = () => new DomainError('not_found', 'export not found');

/** Where an export's result is stored (the files family's storage; its own key space). */
export const exportStorageKey = (row: { workspaceId: string; id: string }) => `exports/${row.workspaceId}/${row.id}`;
