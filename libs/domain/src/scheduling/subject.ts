import { activeMemberIds, type Db, type GrantResourceType, shareAGroup } from '@workcell/db';
import type { V1AuthContext } from '../kernel/auth-context.js';
import { DomainError } from '../kernel/errors.js';
import { isUuid } from '../kernel/ids.js';

/**
 * Whose calendar a scheduling request acts on (docs/scheduling.md "Who may act for whom").
 * - The own routes (`/v1/appointments`, `/v1/absences`, `/v1/availability`) act on the member behind the personal
 *   access token. A service account acts for no member: 403 `forbidden`, naming the delegated routes it may use.
 * - The delegated routes (`/v1/members/{id}/…`) act on member `{id}`, which must be active in the
 *   workspace (404 otherwise, a removed member like a missing one). The route's delegated scope is checked at the
 *   edge; a personal token holds it only while the member's roles hold the key. A member caller must also have a
 *   relationship with the subject: itself, a shared unarchived group, or `members:write` (the workspace's member
 *   administrators); otherwise 403 `forbidden`. A service account is bounded by its resource grants instead.
 */
export interface Subject {
  readonly memberId: string;
  /** True when the caller acts on another member's calendar (private appointments are redacted, and so on). */
  readonly delegated: boolean;
}

export const MEMBER_ADMINISTRATION = 'members:write';

export async function resolveSubject(client: Db, auth: V1AuthContext, memberId: string | undefined): Promise<Subject> {
  if (memberId === undefined) {
    if (auth.principal.type !== 'member') {
      throw new DomainError('forbidden', 'a service account acts for no member: use the /v1/members/{id}/… routes with the delegated scopes and resource grants on appointments or absences');
    }
    return { memberId: auth.principal.id, delegated: false };
  }
  const id = memberId.toLowerCase();
  if (!isUuid(id) || !(await activeMemberIds(client, auth.workspaceId, [id])).has(id)) throw new DomainError('not_found', 'member not found');
  if (auth.principal.type === 'member') {
    if (auth.principal.id === id) return { memberId: id, delegated: false };
    if (!auth.effectiveScopes.includes(MEMBER_ADMINISTRATION) && !(await shareAGroup(client, auth.workspaceId, auth.principal.id, id))) {
      throw new DomainError('forbidden', `acting on another member's calendar needs a shared group with that member or the ${MEMBER_ADMINISTRATION} permission`);
    }
  }
  return { memberId: id, delegated: true };
}

/** The grant type a service account needs per scheduling resource; members are not bounded by grants. */
export type SchedulingGrantType = Extract<GrantResourceType, 'appointment' | 'absence'>;
