import { revisionedColumns, setArchivedAt, updateIfRevision } from './revisioned-rows.js';
import type { Db } from './database.js';
import { type CasOutcome } from './transactions.js';
import { Prisma } from './generated/prisma/client.js';
import { unarchivedPage } from './keyset.js';

/**
 * Products. Archive never deletes (`archived_at`); reads by id see archived products, lists leave them out.
 * Every query is scoped by the workspace id. `purchase_price` / `purchase_currency` are finance data: this
 * layer returns them always, the domain decides who sees them (products:finance:read).
 */

/** A type (not an interface) so outbox payloads accept it as JSON. amount: a decimal string, never in exponent notation. */
export type MoneyValue = { readonly amount: string; readonly currency: string };

const select = {
  id: true,
  workspaceId: true,
  name: true,
  description: true,
  sku: true,
  unit: true,
  productGroupId: true,
  salesPrice: true,
  currency: true,
  purchasePrice: true,
  purchaseCurrency: true,
  ...revisionedColumns,
} as const satisfies Prisma.ProductSelect;

type Row = Prisma.ProductGetPayload<{ select: typeof select }>;

/** The row with its two prices as MoneyValues (each with its currency, or null). */
export type ProductRecord = Readonly<Omit<Row, 'salesPrice' | 'currency' | 'purchasePrice' | 'purchaseCurrency'> & { salesPrice: MoneyValue | null; purchasePrice: MoneyValue | null }>;

const money = (amount: Prisma.Decimal | null, currency: string | null): MoneyValue | null => (amount === null || currency === null ? null : { amount: amount.toFixed(), currency });

function record(row: Row): ProductRecord {
  const { salesPrice, currency, purchasePrice, purchaseCurrency, ...rest } = row;
  return Object.assign(rest, { salesPrice: money(salesPrice, currency), purchasePrice: money(purchasePrice, purchaseCurrency) });
}

/** One product of the workspace, archived or not. */
export async function findProduct(client: Db, workspaceId: string, id: string): Promise<ProductRecord | null> {
  const row = await client.prisma.product.findFirst({ where: { workspaceId, id }, select });
  return row ? record(row) : null;
}

export interface ProductFilter {
  readonly productGroupId?: string | undefined;
  /** A service account's granted product ids (null or absent: all). */
  readonly onlyIds?: readonly string[] | null;
}

/** One keyset page of the workspace's unarchived products in id order. */
export async function listProductsPage(client: Db, workspaceId: string, filter: ProductFilter, afterId: string | undefined, take: number): Promise<ProductRecord[]> {
  const rows = await client.prisma.product.findMany({
    ...unarchivedPage(workspaceId, filter.productGroupId === undefined ? {} : { productGroupId: filter.productGroupId }, afterId, take, filter.onlyIds),
    select,
  });
  return rows.map(record);
}

/** Attributes as written; `undefined` leaves a stored value alone (updates). */
export interface ProductChanges {
  readonly name?: string;
  readonly description?: string | null;
  readonly sku?: string | null;
  readonly unit?: string;
  readonly productGroupId?: string | null;
  readonly salesPrice?: MoneyValue | null;
  readonly purchasePrice?: MoneyValue | null;
}

function data(change: ProductChanges) {
  return {
    ...(change.name === undefined ? {} : { name: change.name }),
    ...(change.description === undefined ? {} : { description: change.description }),
    ...(change.sku === undefined ? {} : { sku: change.sku }),
    ...(change.unit === undefined ? {} : { unit: change.unit }),
    ...(change.productGroupId === undefined ? {} : { productGroupId: change.productGroupId }),
    ...(change.salesPrice === undefined ? {} : { salesPrice: change.salesPrice === null ? null : new Prisma.Decimal(change.salesPrice.amount), currency: change.salesPrice?.currency ?? null }),
    ...(change.purchasePrice === undefined
      ? {}
      : {
          purchasePrice: change.purchasePrice === null ? null : new Prisma.Decimal(change.purchasePrice.amount),
          purchaseCurrency: change.purchasePrice?.currency ?? null,
        }),
  };
}

export async function insertProduct(tx: Db, workspaceId: string, values: ProductChanges & { name: string; unit: string }): Promise<ProductRecord> {
  return record(await tx.prisma.product.create({ data: { ...data(values), workspaceId, name: values.name, unit: values.unit }, select }));
}

/** Compare-and-set of a product's attributes: one `UPDATE … WHERE revision = $expected`. */
export function updateProductIfRevision(tx: Db, workspaceId: string, id: string, expectedRevision: number, change: ProductChanges): Promise<CasOutcome> {
  return updateIfRevision(tx.prisma.product, workspaceId, id, expectedRevision, data(change));
}

/** Sets or clears `archived_at`; false when the product is missing or already in that state. */
export function setProductArchived(tx: Db, workspaceId: string, id: string, archivedAt: Date | null): Promise<boolean> {
  return setArchivedAt(tx.prisma.product, workspaceId, id, archivedAt);
}
