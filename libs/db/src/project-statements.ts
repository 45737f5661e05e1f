import { revisionedColumns, setArchivedAt, updateIfRevision } from './revisioned-rows.js';
import type { Db } from './database.js';
import { type CasOutcome } from './transactions.js';
import { Prisma } from './generated/prisma/client.js';
import type { ProjectStatementKind } from './generated/prisma/enums.js';
import { resourceReadableSql, type Viewer } from './visibility.js';

/**
 * Project statements (v0: journal entries). `budget` rows and `purchase_price` are finance data: the domain
 * decides who sees them; these functions only take `withBudget` so a caller without the finance overlay never
 * even reads a budget row. `amount` holds the unit price in `currency`; `purchase_price` is in `purchase_currency`.
 * Archive never deletes. Every query is scoped by the workspace id.
 */

export type ProjectStatementKindValue = ProjectStatementKind;

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
  ...revisionedColumns,
} as const satisfies Prisma.ProjectStatementSelect;

type Row = Prisma.ProjectStatementGetPayload<{ select: typeof select }>;

/** The row with its numerics as decimal strings. */
export type ProjectStatementRow = Readonly<
  Omit<Row, 'quantity' | 'amount' | 'purchasePrice'> & {
    /** numeric(16,4) as a decimal string. */
    quantity: string | null;
    /** The unit price, numeric(21,6) as a decimal string. */
    amount: string;
    purchasePrice: string | null;
  }
>;

/** A statement row `s` as a ProjectStatementRow: numerics as text (normalised as Prisma's Decimal prints them: `record`), the date as UTC midnight. */
const RECORD_COLUMNS = Prisma.sql`
  s.id::text AS id, s.workspace_id::text AS "workspaceId", s.project_id::text AS "projectId", s.kind::text AS kind, s.description,
  (s.occurred_on::timestamp AT TIME ZONE 'UTC') AS "occurredOn", s.quantity::text AS quantity, s.amount::text AS amount, s.purchase_price::text AS "purchasePrice",
  s.currency::text AS currency, s.purchase_currency::text AS "purchaseCurrency", s.product_id::text AS "productId", s.service_id::text AS "serviceId",
  s.revision, s.archived_at AS "archivedAt", s.created_at AS "createdAt", s.updated_at AS "updatedAt"`;

const decimal = (value: Prisma.Decimal | string | null): string | null => (value === null ? null : new Prisma.Decimal(value).toFixed());

function record(row: Row | ProjectStatementRow): ProjectStatementRow {
  return { ...row, quantity: decimal(row.quantity), amount: decimal(row.amount)!, purchasePrice: decimal(row.purchasePrice) };
}

/** The kinds the caller may see: budget statements only `withBudget`. */
const visibleKind = (withBudget: boolean) => (withBudget ? Prisma.sql`true` : Prisma.sql`s.kind <> 'budget'`);

/** A calendar date (UTC midnight) as its ISO date: a parameter no driver shifts by its time zone. */
const isoDate = (date: Date): string => date.toISOString().slice(0, 10);

/** Whether the viewer may see statement row `s` (visibility.ts: grants, and its project's sharing by its own column). */
const statementReadable = (viewer: Viewer) => resourceReadableSql('project_statement', Prisma.sql`s.workspace_id`, Prisma.sql`s.id`, viewer, { project: Prisma.sql`s.project_id` });

/**
 * One statement of the workspace, archived or not; a budget statement only `withBudget`; with a viewer, only one it
 * may see (visibility.ts, in the statement). Without one: the platform's own read.
 */
export async function findProjectStatement(client: Db, workspaceId: string, id: string, withBudget: boolean, viewer: Viewer | null = null): Promise<ProjectStatementRow | null> {
  const visible = viewer === null ? Prisma.sql`true` : statementReadable(viewer);
  const rows = await client.rows<ProjectStatementRow>(
    Prisma.sql`SELECT ${RECORD_COLUMNS} FROM project_statements s WHERE s.workspace_id = ${workspaceId}::uuid AND s.id = ${id}::uuid AND ${visibleKind(withBudget)} AND ${visible}`,
  );
  return rows[0] ? record(rows[0]) : null;
}

export interface ProjectStatementFilter {
  readonly projectId?: string | undefined;
  readonly kind?: ProjectStatementKindValue | undefined;
  /** occurred_on in [from, to], both inclusive calendar dates. */
  readonly from?: Date | undefined;
  readonly to?: Date | undefined;
  readonly withBudget: boolean;
}

/** One keyset page of the workspace's unarchived statements the viewer may see, in id order. */
export async function listProjectStatementsPage(
  client: Db,
  workspaceId: string,
  filter: ProjectStatementFilter,
  afterId: string | undefined,
  take: number,
  viewer: Viewer,
): Promise<ProjectStatementRow[]> {
  const where = [Prisma.sql`s.workspace_id = ${workspaceId}::uuid`, Prisma.sql`s.archived_at IS NULL`, visibleKind(filter.withBudget)];
  if (filter.kind !== undefined) where.push(Prisma.sql`s.kind = ${filter.kind}::project_statement_kind`);
  if (filter.projectId !== undefined) where.push(Prisma.sql`s.project_id = ${filter.projectId}::uuid`);
  if (filter.from !== undefined) where.push(Prisma.sql`s.occurred_on >= ${isoDate(filter.from)}::date`);
  if (filter.to !== undefined) where.push(Prisma.sql`s.occurred_on <= ${isoDate(filter.to)}::date`);
  if (afterId !== undefined) where.push(Prisma.sql`s.id > ${afterId}::uuid`);
  where.push(statementReadable(viewer));
  const rows = await client.rows<ProjectStatementRow>(Prisma.sql`SELECT ${RECORD_COLUMNS} FROM project_statements s WHERE ${Prisma.join(where, ' AND ')} ORDER BY s.id LIMIT ${take}`);
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

export async function insertProjectStatement(tx: Db, workspaceId: string, projectId: string, v: ProjectStatementValues): Promise<ProjectStatementRow> {
  return record(await tx.prisma.projectStatement.create({ data: { workspaceId, projectId, ...data(v) }, select }));
}

/** Compare-and-set of the statement's attributes: one `UPDATE … WHERE revision = $expected`. */
export function updateProjectStatementIfRevision(tx: Db, workspaceId: string, id: string, expectedRevision: number, v: ProjectStatementValues): Promise<CasOutcome> {
  return updateIfRevision(tx.prisma.projectStatement, workspaceId, id, expectedRevision, data(v));
}

/** Sets or clears `archived_at`; false when the statement is missing or already in that state. */
export function setProjectStatementArchived(tx: Db, workspaceId: string, id: string, archivedAt: Date | null): Promise<boolean> {
  return setArchivedAt(tx.prisma.projectStatement, workspaceId, id, archivedAt);
}

/** Whether the id (a UUID) names an unarchived product of the workspace (a statement's `productId`). */
export async function statementProductExists(client: Db, workspaceId: string, id: string): Promise<boolean> {
  return (await client.prisma.product.count({ where: { workspaceId, id, archivedAt: null } })) === 1;
}
