import type { GroupMemberRecord, GroupRecord } from '@workcell/db';
import { versionOf } from '../kernel/cas.js';
import { type BaseView, withBaseFields } from '../kernel/base-view.js';

/** A group as the registry's Group; `version` also guards its membership. */
export interface GroupView extends BaseView {
  readonly name: string;
  readonly description: string | null;
  readonly memberCount: number;
  readonly version: string;
}

export interface GroupMemberView {
  readonly memberId: string;
  readonly addedAt: string;
}

export function groupView(row: GroupRecord): GroupView {
  return withBaseFields(row, {
    name: row.name,
    description: row.description,
    memberCount: row.memberCount,
    version: versionOf(row.revision),
  });
}

export function groupMemberView(row: GroupMemberRecord): GroupMemberView {
  return { memberId: row.memberId, addedAt: row.addedAt.toISOString() };
}
