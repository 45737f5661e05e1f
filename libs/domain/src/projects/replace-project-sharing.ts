import { z } from 'zod';
import { existingSharingPrincipals, inAuthorizationTransaction, loadProjectSharing, replaceProjectSharingIfRevision, type SharingEntryRow, type SharingPrincipalType } from '@workcell/db';
import { ProjectSharingReplace } from '@workcell/registry';
import { recordOperationAudit } from '../identity/actor.js';
import { casFailure, expectedRevision } from '../kernel/cas.js';
import { isUuid } from '../kernel/ids.js';
import { DomainError, type FieldIssue } from '../kernel/errors.js';
import { requireGrant } from '../kernel/grants.js';
import { requireProjectAccess } from '../kernel/visibility.js';
import { defineProcedure } from '../kernel/procedure.js';
import type { Versioned } from '../kernel/versioned.js';

import { PRINCIPAL_TYPES, type ProjectSharingView, versionedSharing } from './sharing-view.js';

export const replaceProjectSharingInput = z.object({ id: z.string().max(64), ...ProjectSharingReplace.shape }).strict();

const NAMES: Readonly<Record<SharingPrincipalType, string>> = { member: 'member', group: 'group', service_account: 'service account' };

/**
 * `PUT /v1/projects/{id}/sharing` (projects:sharing, compare-and-set on the sharing version): replaces the whole
 * access-control list atomically. Decisions:
 * - Every entry is validated first (a UUID naming a current member, group or service account of this workspace,
 *   each principal once); any failure is 400 with a pointer per offending entry and nothing changes.
 * - A stale `expectedVersion` is 409 `version_conflict`; of concurrent replacements from one version exactly one wins.
 * - Sharing is a permission change: it writes `project.sharing_replaced` to the audit trail (previous and new
 *   set) and `project.sharing_replaced` to the outbox, in the replacement's transaction.
 */
export const replaceProjectSharing = defineProcedure('replaceProjectSharing', replaceProjectSharingInput, async (op, input): Promise<Versioned<ProjectSharingView>> => {
  const { auth, requestId } = op;
  requireGrant(auth, 'project', input.id, 'write', 'project');
  if (!isUuid(input.id)) throw new DomainError('not_found', 'project not found');
  const projectId = input.id.toLowerCase();
  const workspaceId = auth.workspaceId;
  const entries: SharingEntryRow[] = input.entries.map((e) => ({ principalType: PRINCIPAL_TYPES[e.principalType], principalId: e.principalId.toLowerCase(), access: e.access }));
  const now = op.now();
  // Moves the workspace's authorization epoch: verified credentials carry the projects hidden from them.
  return inAuthorizationTransaction(op.database, workspaceId, async (tx) => {
    const previous = await loadProjectSharing(tx, workspaceId, projectId);
    if (!previous) throw new DomainError('not_found', 'project not found');
    // Only a manager of the project, or an administrator, changes its entries (an open project's first ones: an
    // administrator), so nobody outside the list can put themselves on it.
    await requireProjectAccess(tx, auth, projectId, 'manage', 'project');
    const issues: FieldIssue[] = [];
    const seen = new Set<string>();
    const byType = new Map<SharingPrincipalType, string[]>();
    entries.forEach((e, i) => {
      const key = `${e.principalType}:${e.principalId}`;
      if (!isUuid(e.principalId)) issues.push({ pointer: `/entries/${i}/principalId`, message: `no ${NAMES[e.principalType]} ${JSON.stringify(e.principalId)} in this workspace` });
      else if (seen.has(key)) issues.push({ pointer: `/entries/${i}/principalId`, message: `the ${NAMES[e.principalType]} is already listed` });
      else byType.set(e.principalType, [...(byType.get(e.principalType) ?? []), e.principalId]);
      seen.add(key);
    });
    for (const [type, ids] of byType) {
      const existing = await existingSharingPrincipals(tx, workspaceId, type, ids);
      entries.forEach((e, i) => {
        if (e.principalType === type && isUuid(e.principalId) && !existing.has(e.principalId)) {
          issues.push({ pointer: `/entries/${i}/principalId`, message: `no ${NAMES[type]} ${JSON.stringify(e.principalId)} in this workspace` });
        }
      });
    }
    if (issues.length > 0) throw new DomainError('validation_failed', 'the access-control entries are not valid', issues);
    const outcome = await replaceProjectSharingIfRevision(tx, workspaceId, projectId, expectedRevision(input.expectedVersion), entries);
    if (outcome !== 'updated') throw casFailure(outcome, 'project sharing');
    const result = versionedSharing(projectId, (await loadProjectSharing(tx, workspaceId, projectId))!);
    const before = versionedSharing(projectId, previous).resource.entries;
    await recordOperationAudit(op, tx, {
      type: 'project',
      id: projectId,
      action: 'sharing_replaced',
      metadata: { previous: before, entries: result.resource.entries, version: result.resource.version },
      at: now,
    });
    await op.emit(tx, {
      aggregateType: 'project',
      aggregateId: projectId,
      eventType: 'project.sharing_replaced',
      payload: { projectId, entries: result.resource.entries, version: result.resource.version, requestId },
      occurredAt: now,
    });
    return result;
  });
});
