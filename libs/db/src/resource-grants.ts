import { type AuditActor, recordAudit } from './audit.js';
import { assertChangingAuthorization, type Db } from './database.js';
import { inAuthorizationTransaction, inTransaction } from './transactions.js';
import type { ResourceAccess, ResourceType } from './generated/prisma/enums.js';

/**
 * A service account's bounded resource grants, replaced as a whole set. The set's compare-and-set version is
 * the service account's `revision`: a replacement bumps it with `UPDATE ... WHERE revision = expected`, so of
 * two replacements based on the same version exactly one wins (the other sees 0 rows once the winner commits).
 */

export type GrantResourceType = ResourceType;
export type GrantAccess = ResourceAccess;

export interface GrantRow {
  readonly resourceType: GrantResourceType;
  /** null: every resource of the type. */
  readonly resourceId: string | null;
  readonly access: GrantAccess;
}

type IdsOf = (tx: Db, workspaceId: string, ids: string[]) => Promise<{ id: string }[]>;

/** Which ids of a resource family exist in the workspace (archived ones included: archive is reversible). */
const EXISTING: Readonly<Record<GrantResourceType, IdsOf>> = {
  project: (tx, workspaceId, ids) => tx.prisma.project.findMany({ where: { workspaceId, id: { in: ids } }, select: { id: true } }),
  task: (tx, workspaceId, ids) => tx.prisma.task.findMany({ where: { workspaceId, id: { in: ids } }, select: { id: true } }),
  time_entry: (tx, workspaceId, ids) => tx.prisma.timeEntry.findMany({ where: { workspaceId, id: { in: ids } }, select: { id: true } }),
  contact: (tx, workspaceId, ids) => tx.prisma.contact.findMany({ where: { workspaceId, id: { in: ids } }, select: { id: true } }),
  contact_group: (tx, workspaceId, ids) => tx.prisma.contactGroup.findMany({ where: { workspaceId, id: { in: ids } }, select: { id: true } }),
  call_note: (tx, workspaceId, ids) => tx.prisma.callNote.findMany({ where: { workspaceId, id: { in: ids } }, select: { id: true } }),
  list: (tx, workspaceId, ids) => tx.prisma.list.findMany({ where: { workspaceId, id: { in: ids } }, select: { id: true } }),
  service: (tx, workspaceId, ids) => tx.prisma.service.findMany({ where: { workspaceId, id: { in: ids } }, select: { id: true } }),
  tag: (tx, workspaceId, ids) => tx.prisma.tag.findMany({ where: { workspaceId, id: { in: ids } }, select: { id: true } }),
  product: (tx, workspaceId, ids) => tx.prisma.product.findMany({ where: { workspaceId, id: { in: ids } }, select: { id: true } }),
  product_group: (tx, workspaceId, ids) => tx.prisma.productGroup.findMany({ where: { workspaceId, id: { in: ids } }, select: { id: true } }),
  project_statement: (tx, workspaceId, ids) => tx.prisma.projectStatement.findMany({ where: { workspaceId, id: { in: ids } }, select: { id: true } }),
  project_template: (tx, workspaceId, ids) => tx.prisma.projectTemplate.findMany({ where: { workspaceId, id: { in: ids } }, select: { id: true } }),
  planned_work: (tx, workspaceId, ids) => tx.prisma.plannedWork.findMany({ where: { workspaceId, id: { in: ids } }, select: { id: true } }),
  appointment: (tx, workspaceId, ids) => tx.prisma.appointment.findMany({ where: { workspaceId, id: { in: ids } }, select: { id: true } }),
  absence: (tx, workspaceId, ids) => tx.prisma.absence.findMany({ where: { workspaceId, id: { in: ids } }, select: { id: true } }),
  comment: (tx, workspaceId, ids) => tx.prisma.comment.findMany({ where: { workspaceId, id: { in: ids } }, select: { id: true } }),
  document: (tx, workspaceId, ids) => tx.prisma.document.findMany({ where: { workspaceId, id: { in: ids } }, select: { id: true } }),
  file: (tx, workspaceId, ids) => tx.prisma.file.findMany({ where: { workspaceId, id: { in: ids } }, select: { id: true } }),
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const cmp = (a: string | null, b: string | null): number => (a === b ? 0 : a === null ? -1 : b === null ? 1 : a < b ? -1 : 1);

/** A set's stable order: by resource type name, then resource id (the type-wide grant first), then access. */
async function grantsOf(tx: Db, workspaceId: string, serviceAccountId: string): Promise<GrantRow[]> {
  const rows = await tx.prisma.resourceGrant.findMany({ where: { workspaceId, serviceAccountId }, select: { resourceType: true, resourceId: true, access: true } });
  return rows.sort((a, b) => cmp(a.resourceType, b.resourceType) || cmp(a.resourceId, b.resourceId) || cmp(a.access, b.access));
}

/** A service account's grants as authentication carries them (read on every request: nothing cached). */
export async function listServiceAccountGrants(database: Db, workspaceId: string, serviceAccountId: string): Promise<GrantRow[]> {
  return database.prisma.resourceGrant.findMany({ where: { workspaceId, serviceAccountId }, select: { resourceType: true, resourceId: true, access: true } });
}

/** The grants and version of an unarchived service account, or null. */
export async function loadResourceGrants(database: Db, workspaceId: string, serviceAccountId: string): Promise<{ revision: number; grants: GrantRow[] } | null> {
  return inTransaction(
    database,
    async (tx) => {
      const account = await tx.prisma.serviceAccount.findFirst({ where: { workspaceId, id: serviceAccountId, archivedAt: null }, select: { revision: true } });
      if (!account) return null;
      return { revision: account.revision, grants: await grantsOf(tx, workspaceId, serviceAccountId) };
      // One snapshot, so the version always describes exactly the grants returned with it.
    },
    { isolationLevel: 'RepeatableRead' },
  );
}

export type ReplaceGrantsResult =
  | { readonly kind: 'replaced'; readonly revision: number; readonly grants: GrantRow[] }
  | { readonly kind: 'not_found' }
  | { readonly kind: 'version_conflict'; readonly revision: number }
  | { readonly kind: 'unknown_resources'; readonly indexes: number[] };

/**
 * Atomically replaces the whole grant set, all or nothing, in one transaction: first every named resource
 * must exist in this workspace (ids that are not UUIDs, of another workspace, or missing are unknown:
 * nothing is written), then the version is compared and bumped in one statement, then the set is swapped
 * and `service_account.resource_grants_replaced` recorded with the previous and the new set.
 */
export async function replaceResourceGrants(
  database: Db,
  input: { workspaceId: string; serviceAccountId: string; expectedRevision: number | null; grants: readonly GrantRow[]; actor: AuditActor; now: Date },
): Promise<ReplaceGrantsResult> {
  const { workspaceId, serviceAccountId } = input;
  return inAuthorizationTransaction(database, workspaceId, async (tx) => {
    assertChangingAuthorization(workspaceId);
    const account = await tx.prisma.serviceAccount.findFirst({ where: { workspaceId, id: serviceAccountId, archivedAt: null }, select: { revision: true } });
    if (!account) return { kind: 'not_found' };

    const unknown: number[] = [];
    const byType = new Map<GrantResourceType, { index: number; id: string }[]>();
    for (const [index, grant] of input.grants.entries()) {
      if (grant.resourceId === null) continue;
      if (!UUID.test(grant.resourceId)) {
        unknown.push(index);
        continue;
      }
      byType.set(grant.resourceType, [...(byType.get(grant.resourceType) ?? []), { index, id: grant.resourceId.toLowerCase() }]);
    }
    for (const [type, wanted] of byType) {
      const found = new Set((await EXISTING[type](tx, workspaceId, [...new Set(wanted.map((w) => w.id))])).map((r) => r.id));
      for (const w of wanted) if (!found.has(w.id)) unknown.push(w.index);
    }
    if (unknown.length > 0) return { kind: 'unknown_resources', indexes: unknown.sort((a, b) => a - b) };

    if (input.expectedRevision === null) return { kind: 'version_conflict', revision: account.revision };
    const { count } = await tx.prisma.serviceAccount.updateMany({
      where: { workspaceId, id: serviceAccountId, archivedAt: null, revision: input.expectedRevision },
      data: { revision: { increment: 1 } },
    });
    if (count === 0) {
      const now = await tx.prisma.serviceAccount.findFirst({ where: { workspaceId, id: serviceAccountId, archivedAt: null }, select: { revision: true } });
      return now ? { kind: 'version_conflict', revision: now.revision } : { kind: 'not_found' };
    }

    const previous = await grantsOf(tx, workspaceId, serviceAccountId);
    await tx.prisma.resourceGrant.deleteMany({ where: { workspaceId, serviceAccountId } });
    if (input.grants.length > 0) {
      await tx.prisma.resourceGrant.createMany({
        data: input.grants.map((g) => ({ workspaceId, serviceAccountId, resourceType: g.resourceType, resourceId: g.resourceId?.toLowerCase() ?? null, access: g.access })),
      });
    }
    const revision = input.expectedRevision + 1;
    const grants = await grantsOf(tx, workspaceId, serviceAccountId);
    await recordAudit(tx, {
      workspaceId,
      actor: input.actor,
      action: 'service_account.resource_grants_replaced',
      targetType: 'service_account',
      targetId: serviceAccountId,
      metadata: { version: String(revision), previousVersion: String(input.expectedRevision), previous, grants },
      occurredAt: input.now,
    });
    return { kind: 'replaced', revision, grants };
  });
}
