import { setArchivedAt, updateIfRevision } from './revisioned-rows.js';
import { type CasOutcome, type Client, clientOf, type Tx } from './transactions.js';
import { Prisma } from './generated/prisma/client.js';
import type { ProjectStatementKind } from './generated/prisma/enums.js';
import { pageIds } from './keyset.js';

/**
 * Project statements (v0: journal entries). `budget` rows and `purchase_price` are finance data: the domain
 * decides who sees them; these functions only take `withBudget` so a caller without the finance overlay never
 * even reads a budget row. `amount` holds the unit price in `currency`; `purchase_price` is in `purchase_currency`.
 * Archive never deletes. Every query is scoped by the workspace id.
 */

export type ProjectStatementKindValue = ProjectStatementKind;

export interface ProjectStatementRow {
  readonly id: string;
  readonly workspaceId: string;
  readonly projectId: string;
  readonly kind: ProjectStatementKindValue;
  readonly description: string | null;
  readonly occurredOn: Date;
  /** numeric(16,4) as a decimal string. */
  readonly quantity: string | null;
  /** The unit price, numeric(21,6) as a decimal string. */
  readonly amount: string;
  readonly purchasePrice: string | null;
  readonly currency: string;
  readonly purchaseCurrency: string | null;
  readonly productId: string | null;
  readonly serviceId: string | null;
  readonly revision: number;
  readonly archivedAt: Date | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

const select = {
  id: true,
  workspaceId: true,
  projectId: true,
  kind: true,
  description: true,
  occurredOn: true,
  quantity: true,
  amount: true,
  purchasePrice: true,
  currency: true,
  purchaseCurrency: true,
  productId: true,
  serviceId: true,
  revision: true,
  archivedAt: true,
  createdAt: true,
  updatedAt: true,
} as const satisfies Prisma.ProjectStatementSelect;

type Row = Prisma.ProjectStatementGetPayload<{ select: typeof select }>;

const decimal = (value: Prisma.Decimal | null): string | null => (value === null ? null : value.toFixed());

function record(row: Row): ProjectStatementRow {
  return { ...row, quantity: decimal(row.quantity), amount: row.amount.toFixed(), purchasePrice: decimal(row.purchasePrice) };
}

const visibleKinds = (withBudget: boolean) => (withBudget ? {} : { kind: { not: 'budget' as const } });

/** One statement of the workspace, archived or not; a budget statement only `withBudget`. */
export async function findProjectStatement(client: Client, workspaceId: string, id: string, withBudget: boolean): Promise<ProjectStatementRow | null> {
  const row = await clientOf(client).projectStatement.findFirst({ where: { workspaceId, id, ...visibleKinds(withBudget) }, select });
  return row ? record(row) : null;
}

export interface ProjectStatementFilter {
  readonly projectId?: string | undefined;
  readonly kind?: ProjectStatementKindValue | undefined;
  /** occurred_on in [from, to], both inclusive calendar dates. */
  readonly from?: Date | undefined;
  readonly to?: Date | undefined;
  readonly withBudget: boolean;
  readonly onlyIds?: readonly string[] | null;
}

/** One keyset page of the workspace's unarchived statements in id order. */
export async function listProjectStatementsPage(client: Client, workspaceId: string, filter: ProjectStatementFilter, afterId: string | undefined, take: number): Promise<ProjectStatementRow[]> {
  const rows = await clientOf(client).projectStatement.findMany({
    where: {
      workspaceId,
      archivedAt: null,
      AND: [visibleKinds(filter.withBudget), filter.kind === undefined ? {} : { kind: filter.kind }],
      ...(filter.projectId === undefined ? {} : { projectId: filter.projectId }),
      ...(filter.from === undefined && filter.to === undefined
        ? {}
        : { occurredOn: { ...(filter.from === undefined ? {} : { gte: filter.from }), ...(filter.to === undefined ? {} : { lte: filter.to }) } }),
      ...pageIds(afterId, filter.onlyIds),
    },
    orderBy: { id: 'asc' },
    take,
    select,
  });
  return rows.map(record);
}

export interface ProjectStatementValues {
  readonly kind: ProjectStatementKindValue;
  readonly description: string | null;
  readonly occurredOn: Date;
  readonly quantity: string;
  readonly amount: string;
  readonly purchasePrice: string | null;
  readonly currency: string;
  readonly purchaseCurrency: string | null;
  readonly productId: string | null;
  readonly serviceId: string | null;
}

function data(v: ProjectStatementValues) {
  return {
    kind: v.kind,
    description: v.description,
    occurredOn: v.occurredOn,
    quantity: new Prisma.Decimal(v.quantity),
    amount: new Prisma.Decimal(v.amount),
    purchasePrice: v.purchasePrice === null ? null : new Prisma.Decimal(v.purchasePrice),
    currency: v.currency,
    purchaseCurrency: v.purchaseCurrency,
    productId: v.productId,
    serviceId: v.serviceId,
  };
}

export async function insertProjectStatement(tx: Tx, workspaceId: string, projectId: string, v: ProjectStatementValues): Promise<ProjectStatementRow> {
  return record(await tx.projectStatement.create({ data: { workspaceId, projectId, ...data(v) }, select }));
}

/** Compare-and-set of the statement's attributes: one `UPDATE … WHERE revision = $expected`. */
export function updateProjectStatementIfRevision(tx: Tx, workspaceId: string, id: string, expectedRevision: number, v: ProjectStatementValues): Promise<CasOutcome> {
  return updateIfRevision(tx.projectStatement, workspaceId, id, expectedRevision, data(v));
}

/** Sets or clears `archived_at`; false when the statement is missing or already in that state. */
export function setProjectStatementArchived(tx: Tx, workspaceId: string, id: string, archivedAt: Date | null): Promise<boolean> {
  return setArchivedAt(tx.projectStatement, workspaceId, id, archivedAt);
}

/** Whether the id (a UUID) names an unarchived product of the workspace (a statement's `productId`). */
export async function statementProductExists(client: Client, workspaceId: string, id: string): Promise<boolean> {
  return (await clientOf(client).product.count({ where: { workspaceId, id, archivedAt: null } })) === 1;
}
