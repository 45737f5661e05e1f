import type { GrantRow } from '@workcell/db';
import { type GrantDomain, WIRE_NAME_OF } from '../kernel/grants.js';

export interface ResourceGrantView {
  readonly resourceType: GrantDomain;
  readonly resourceId: string | null;
  readonly access: 'read' | 'write';
}

export interface ResourceGrantsView {
  readonly serviceAccountId: string;
  readonly grants: readonly ResourceGrantView[];
  readonly version: string;
}

/** Stored grants in wire form. Types without a wire name cannot be written through the API, so none are stored. */
export function grantsView(serviceAccountId: string, revision: number, rows: readonly GrantRow[]): ResourceGrantsView {
  const grants = rows.flatMap((row) => {
    const domain = WIRE_NAME_OF.get(row.resourceType);
    return domain ? [{ resourceType: domain, resourceId: row.resourceId, access: row.access }] : [];
  });
  return { serviceAccountId, grants, version: String(revision) };
}
