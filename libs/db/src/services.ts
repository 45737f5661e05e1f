import { revisionedColumns, setArchivedAt } from './revisioned-rows.js';
import type { Db } from './database.js';
import { type CasOutcome } from './transactions.js';
import { Prisma } from './generated/prisma/client.js';
import { unarchivedPage } from './keyset.js';

/**
 * Services and their billing rates. A service's `revision` is the compare-and-set version of both its attributes
 * and its billing-rate set (replacing the rates bumps it, like a time entry's billing). Rates are link-like rows
 * deleted and recreated when the set is replaced, in the same transaction as the revision check. Archive never
 * deletes. Every query is scoped by the workspace id.
 */

const select = {
  id: true,
  workspaceId: true,
  name: true,
  description: true,
  billable: true,
  billingRate: true,
  currency: true,
  ...revisionedColumns,
} as const satisfies Prisma.ServiceSelect;

type Row = Prisma.ServiceGetPayload<{ select: typeof select }>;

export type ServiceRow = Readonly<
  Omit<Row, 'billingRate'> & {
    /** numeric(14,4) as a decimal string, with `currency`, or both null. */
    billingRate: string | null;
  }
>;

function record(row: Row): ServiceRow {
  return { ...row, billingRate: row.billingRate === null ? null : row.billingRate.toFixed() };
}

/** One service of the workspace, archived or not. */
export async function findService(client: Db, workspaceId: string, id: string): Promise<ServiceRow | null> {
  const row = await client.prisma.service.findFirst({ where: { workspaceId, id }, select });
  return row ? record(row) : null;
}

/** Whether the id (a UUID) names an unarchived service of the workspace. */
export async function serviceExists(client: Db, workspaceId: string, id: string): Promise<boolean> {
  return (await client.prisma.service.count({ where: { workspaceId, id, archivedAt: null } })) === 1;
}

/** One keyset page of the workspace's unarchived services in id order (only `onlyIds` when given). */
export async function listServicesPage(client: Db, workspaceId: string, onlyIds: readonly string[] | null, afterId: string | undefined, take: number): Promise<ServiceRow[]> {
  const rows = await client.prisma.service.findMany({ ...unarchivedPage(workspaceId, {}, afterId, take, onlyIds), select });
  return rows.map(record);
}

export interface ServiceValues {
  readonly name: string;
  readonly description: string | null;
  readonly billable: boolean;
  readonly defaultRate: { readonly amount: string; readonly currency: string } | null;
}

function data(v: ServiceValues) {
  return {
    name: v.name,
    description: v.description,
    billable: v.billable,
    billingRate: v.defaultRate === null ? null : new Prisma.Decimal(v.defaultRate.amount),
    currency: v.defaultRate?.currency ?? null,
  };
}

export async function insertService(tx: Db, workspaceId: string, v: ServiceValues): Promise<ServiceRow> {
  return record(await tx.prisma.service.create({ data: { workspaceId, ...data(v) }, select }));
}

async function casOutcome(tx: Db, workspaceId: string, id: string, count: number): Promise<CasOutcome> {
  if (count === 1) return 'updated';
  return (await tx.prisma.service.count({ where: { workspaceId, id } })) > 0 ? 'version_conflict' : 'not_found';
}

/** Compare-and-set of the service's attributes: one `UPDATE … WHERE revision = $expected`. */
export async function updateServiceIfRevision(tx: Db, workspaceId: string, id: string, expectedRevision: number, v: ServiceValues): Promise<CasOutcome> {
  const { count } = await tx.prisma.service.updateMany({ where: { workspaceId, id, revision: expectedRevision }, data: { ...data(v), revision: { increment: 1 } } });
  return casOutcome(tx, workspaceId, id, count);
}

/** Sets or clears `archived_at`; false when the service is missing or already in that state. */
export function setServiceArchived(tx: Db, workspaceId: string, id: string, archivedAt: Date | null): Promise<boolean> {
  return setArchivedAt(tx.prisma.service, workspaceId, id, archivedAt);
}

export interface ServiceBillingRateRow {
  readonly memberId: string | null;
  readonly validFrom: Date;
  /** numeric(14,4) as a decimal string. */
  readonly rate: string;
  readonly currency: string;
}

/** The service's rates in a stable order: valid-from date, then the everyone-rate before member rates, then member id. */
export async function listServiceBillingRates(client: Db, workspaceId: string, serviceId: string): Promise<ServiceBillingRateRow[]> {
  const rows = await client.prisma.serviceBillingRate.findMany({
    where: { workspaceId, serviceId },
    orderBy: [{ validFrom: 'asc' }, { memberId: { sort: 'asc', nulls: 'first' } }, { id: 'asc' }],
    select: { memberId: true, validFrom: true, rate: true, currency: true },
  });
  return rows.map((r) => ({ ...r, rate: r.rate.toFixed() }));
}

/**
 * Replaces the whole rate set if the service's revision is still `expectedRevision`: the revision bump comes
 * first (it locks the service row, so concurrent replacements run one after another and the later one sees 0
 * rows), then the old rows are deleted and the new ones inserted, all in the caller's transaction.
 */
export async function replaceServiceBillingRatesIfRevision(tx: Db, workspaceId: string, serviceId: string, expectedRevision: number, rates: readonly ServiceBillingRateRow[]): Promise<CasOutcome> {
  const { count } = await tx.prisma.service.updateMany({ where: { workspaceId, id: serviceId, revision: expectedRevision }, data: { revision: { increment: 1 } } });
  const outcome = await casOutcome(tx, workspaceId, serviceId, count);
  if (outcome !== 'updated') return outcome;
  await tx.prisma.serviceBillingRate.deleteMany({ where: { workspaceId, serviceId } });
  if (rates.length > 0) {
    await tx.prisma.serviceBillingRate.createMany({
      data: rates.map((r) => ({ workspaceId, serviceId, memberId: r.memberId, validFrom: r.validFrom, rate: new Prisma.Decimal(r.rate), currency: r.currency })),
    });
  }
  return 'updated';
}
