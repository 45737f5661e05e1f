import type { WorkspaceUserRecord } from '@workcell/db';
import { type BaseView, withBaseFields } from '../kernel/base-view.js';

/**
 * Users versus members: a member is the membership (roles, groups, version, personal data under
 * members:pii:read); a user is the directory view of the same person in this workspace (users:read), addressed
 * by the same id (the membership id, which time entries and tasks carry as `userId`), showing only the display
 * name and whether the person is active. The registry's User allows nothing more, so email and phone are never
 * shown here whatever the scopes; removed members are no users (404).
 */
export type UserStatusView = 'active' | 'inactive';

export const USER_STATUS_TO_STORED = { active: 'active', inactive: 'disabled' } as const;
const STATUS_TO_VIEW = { active: 'active', disabled: 'inactive' } as const;

/** A workspace user as the registry's User. */
export interface UserView extends BaseView {
  readonly name: string;
  readonly status: UserStatusView;
}

export function userView(row: WorkspaceUserRecord): UserView {
  return withBaseFields(row, {
    name: row.name,
    status: STATUS_TO_VIEW[row.status],
  });
}
