import { assertChangingAuthorization, type Db } from './database.js';
import { type CasOutcome } from './transactions.js';

/**
 * A project's access-control entries, replaced as a whole set. The set's compare-and-set version is the
 * project's `sharing_revision` (apart from `revision`, so sharing never invalidates a project's ETag): a
 * replacement bumps it with `UPDATE … WHERE sharing_revision = expected`, so of two replacements based on the
 * same version exactly one wins.
 */

export type SharingPrincipalType = 'member' | 'group' | 'service_account';
export type SharingAccess = 'viewer' | 'editor' | 'manager';

export interface SharingEntryRow {
  readonly principalType: SharingPrincipalType;
  readonly principalId: string;
  readonly access: SharingAccess;
}

export interface ProjectSharingRecord {
  readonly sharingRevision: number;
  readonly entries: SharingEntryRow[];
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The entries in a stable order (principal type, then id); null when the project does not exist. */
export async function loadProjectSharing(client: Db, workspaceId: string, projectId: string): Promise<ProjectSharingRecord | null> {
  const project = await client.prisma.project.findFirst({
    where: { workspaceId, id: projectId },
    select: { sharingRevision: true, projectAccessEntries: { select: { memberId: true, groupId: true, serviceAccountId: true, access: true } } },
  });
  if (!project) return null;
  const entries = project.projectAccessEntries.map((row): SharingEntryRow => {
    if (row.memberId !== null) return { principalType: 'member', principalId: row.memberId, access: row.access };
    if (row.groupId !== null) return { principalType: 'group', principalId: row.groupId, access: row.access };
    return { principalType: 'service_account', principalId: row.serviceAccountId!, access: row.access };
  });
  entries.sort((a, b) => cmp(a.principalType, b.principalType) || cmp(a.principalId, b.principalId));
  return { sharingRevision: project.sharingRevision, entries };
}

/** Which of the ids name a current principal of that type in the workspace (locked FOR SHARE until commit). */
export async function existingSharingPrincipals(tx: Db, workspaceId: string, type: SharingPrincipalType, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const list = [...ids];
  const rows =
    type === 'member'
      ? await tx.prisma.$queryRaw<
          { id: string }[]
        >`SELECT id::text AS id FROM workspace_members WHERE workspace_id = ${workspaceId}::uuid AND id = ANY(${list}::uuid[]) AND removed_at IS NULL FOR SHARE`
      : type === 'group'
        ? await tx.prisma.$queryRaw<{ id: string }[]>`SELECT id::text AS id FROM groups WHERE workspace_id = ${workspaceId}::uuid AND id = ANY(${list}::uuid[]) AND archived_at IS NULL FOR SHARE`
        : await tx.prisma.$queryRaw<
            { id: string }[]
          >`SELECT id::text AS id FROM service_accounts WHERE workspace_id = ${workspaceId}::uuid AND id = ANY(${list}::uuid[]) AND archived_at IS NULL FOR SHARE`;
  return new Set(rows.map((r) => r.id));
}

/** Replaces the whole entry set if the sharing version is still `expectedRevision`; all or nothing (caller's transaction). */
export async function replaceProjectSharingIfRevision(tx: Db, workspaceId: string, projectId: string, expectedRevision: number, entries: readonly SharingEntryRow[]): Promise<CasOutcome> {
  // Who sees the project changes: verified credentials carry the projects hidden from them (visibility.ts).
  assertChangingAuthorization(workspaceId);
  const { count } = await tx.prisma.project.updateMany({ where: { workspaceId, id: projectId, sharingRevision: expectedRevision }, data: { sharingRevision: { increment: 1 } } });
  if (count !== 1) return (await tx.prisma.project.count({ where: { workspaceId, id: projectId } })) === 0 ? 'not_found' : 'version_conflict';
  await tx.prisma.projectAccessEntry.deleteMany({ where: { workspaceId, projectId } });
  if (entries.length > 0) {
    await tx.prisma.projectAccessEntry.createMany({
      data: entries.map((e) => ({
        workspaceId,
        projectId,
        access: e.access,
        memberId: e.principalType === 'member' ? e.principalId : null,
        groupId: e.principalType === 'group' ? e.principalId : null,
        serviceAccountId: e.principalType === 'service_account' ? e.principalId : null,
      })),
    });
  }
  return 'updated';
}
