import type { MemberRecord } from '@workcell/db';
import { versionOf } from '../kernel/cas.js';
import { type BaseView, withBaseFields } from '../kernel/base-view.js';

/** The wire status: the stored `disabled` is `deactivated` in v1 (registry MemberStatus). */
export type MemberStatusView = 'active' | 'deactivated';

export const STATUS_TO_STORED = { active: 'active', deactivated: 'disabled' } as const;
const STATUS_TO_VIEW = { active: 'active', disabled: 'deactivated' } as const;

/** A membership as the registry's Member: personal data (name, email, phone) only with members:pii:read. */
export interface MemberView extends BaseView {
  readonly userId: string;
  readonly displayName?: string;
  readonly status: MemberStatusView;
  readonly roleIds: readonly string[];
  readonly groupIds: readonly string[];
  readonly joinedAt: string;
  readonly email?: string;
  readonly phone?: string | null;
  readonly version: string;
}

export function memberView(row: MemberRecord, personalData: boolean): MemberView {
  return withBaseFields(row, {
    userId: row.userId,
    ...(personalData ? { displayName: row.user.name } : {}),
    status: STATUS_TO_VIEW[row.status],
    roleIds: row.roleIds,
    groupIds: row.groupIds,
    joinedAt: row.joinedAt.toISOString(),
    // Users have no stored phone number yet.
    ...(personalData ? { email: row.user.email, phone: null } : {}),
    version: versionOf(row.revision),
  });
}
