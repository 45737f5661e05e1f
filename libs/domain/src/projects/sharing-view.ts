import type { ProjectSharingRecord, SharingPrincipalType } from '@workcell/db';
import { versionOf } from '../kernel/cas.js';
import type { Versioned } from '../kernel/versioned.js';

/** Wire names of the principal types (the registry's ProjectAccessEntry) and their stored names. */
export const PRINCIPAL_TYPES = { member: 'member', group: 'group', 'service-account': 'service_account' } as const satisfies Record<string, SharingPrincipalType>;
const WIRE_TYPE = { member: 'member', group: 'group', service_account: 'service-account' } as const satisfies Record<SharingPrincipalType, keyof typeof PRINCIPAL_TYPES>;

export interface ProjectSharingView {
  readonly projectId: string;
  readonly entries: readonly { principalType: keyof typeof PRINCIPAL_TYPES; principalId: string; access: 'viewer' | 'editor' | 'manager' }[];
  readonly version: string;
}

/** The registry's ProjectSharing; the ETag carries the sharing version too. */
export function versionedSharing(projectId: string, record: ProjectSharingRecord): Versioned<ProjectSharingView> {
  return {
    resource: {
      projectId,
      entries: record.entries.map((e) => ({ principalType: WIRE_TYPE[e.principalType], principalId: e.principalId, access: e.access })),
      version: versionOf(record.sharingRevision),
    },
    revision: record.sharingRevision,
  };
}
