import type { GrantResourceType, GrantRow } from '@workcell/db';
import type { ResourceDomain } from '@workcell/registry';

/**
 * The registry's resource domains (wire names) and the stored resource types a grant names. `users` is a
 * registry domain but not a grantable resource (members are governed by roles, not service-account grants):
 * a grant naming it is refused with 400.
 */
export const GRANT_DOMAINS = {
  projects: 'project',
  tasks: 'task',
  'time-entries': 'time_entry',
  contacts: 'contact',
  'call-notes': 'call_note',
  'contact-groups': 'contact_group',
  lists: 'list',
  services: 'service',
  tags: 'tag',
  'project-templates': 'project_template',
  products: 'product',
  'product-groups': 'product_group',
  'project-statements': 'project_statement',
  documents: 'document',
  files: 'file',
  comments: 'comment',
  users: null,
} as const satisfies Record<ResourceDomain, GrantResourceType | null>;

export type GrantDomain = keyof typeof GRANT_DOMAINS;

const DOMAIN_OF = new Map<GrantResourceType, GrantDomain>(
  Object.entries(GRANT_DOMAINS).flatMap(([domain, type]) => (type === null ? [] : [[type, domain as GrantDomain] as const])),
);

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
    const domain = DOMAIN_OF.get(row.resourceType);
    return domain ? [{ resourceType: domain, resourceId: row.resourceId, access: row.access }] : [];
  });
  return { serviceAccountId, grants, version: String(revision) };
}
