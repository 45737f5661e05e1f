import { findProduct, type MoneyValue, type ProductChanges, type ProductRecord, setProductArchived, type Db } from '@workcell/db';
import type { ProductCreate } from '@workcell/registry';
import type { z } from 'zod';
import { archivable } from '../kernel/archival.js';
import type { V1AuthContext } from '../kernel/auth-context.js';
import { versionOf } from '../kernel/cas.js';
import { DomainError } from '../kernel/errors.js';
import type { Versioned } from '../kernel/versioned.js';
import { assertProductGroupReference } from '../product-groups/view.js';
import { type ArchivableView, withArchivableFields } from '../kernel/base-view.js';
import { foundOr, idOf, notFoundOf } from '../kernel/lookup.js';

/**
 * Products (contract 5.3). `purchasePrice` (acquisition cost) is a finance overlay: present in a response only
 * when the caller holds `products:finance:read`; a write that supplies it (a value or null) needs
 * `products:finance:write`, else 403 insufficient_scope before anything is written. Finance scopes never grant
 * base access: the edge requires products:read / products:write first. Outbox events never carry purchasePrice
 * (their readers are not finance-scoped), like time-entry billing.
 */

export const PRODUCTS_FINANCE_READ = 'products:finance:read';
export const PRODUCTS_FINANCE_WRITE = 'products:finance:write';

/** A product as the registry's Product; `purchasePrice` only with the finance read overlay. */
export interface ProductView extends ArchivableView {
  readonly name: string;
  readonly description: string | null;
  readonly sku: string | null;
  readonly unit: string;
  readonly salesPrice: MoneyValue | null;
  readonly purchasePrice?: MoneyValue | null;
  readonly productGroupId: string | null;
  readonly version: string;
}

export const holdsProductFinanceRead = (auth: V1AuthContext): boolean => auth.effectiveScopes.includes(PRODUCTS_FINANCE_READ);

export function productView(row: ProductRecord, withFinance: boolean): ProductView {
  return withArchivableFields(row, {
    name: row.name,
    description: row.description,
    sku: row.sku,
    // Rows written before v1 may lack a unit; the registry's Product always has one.
    unit: row.unit ?? '',
    salesPrice: row.salesPrice,
    ...(withFinance ? { purchasePrice: row.purchasePrice } : {}),
    productGroupId: row.productGroupId,
    version: versionOf(row.revision),
  });
}

/** The product as outbox events carry it: never purchasePrice (the change feed is not finance-scoped). */
export function productEventView(row: ProductRecord) {
  const { purchasePrice: _purchasePrice, ...view } = productView(row, false);
  return view;
}

export function versionedProduct(row: ProductRecord, auth: V1AuthContext): Versioned<ProductView> {
  return { resource: productView(row, holdsProductFinanceRead(auth)), revision: row.revision };
}

/** The writable attributes (the registry's ProductCreate / ProductUpdate), all optional here. */
export type ProductAttributes = Partial<z.output<typeof ProductCreate>>;

/** A write that supplies purchasePrice (even null) without products:finance:write: 403 naming the scope. */
export function assertFinanceWrite(auth: V1AuthContext, input: ProductAttributes): void {
  if (input.purchasePrice === undefined || auth.effectiveScopes.includes(PRODUCTS_FINANCE_WRITE)) return;
  throw new DomainError(
    'insufficient_scope',
    `supplying purchasePrice needs the scope ${PRODUCTS_FINANCE_WRITE} (in addition to products:write)`,
    [{ pointer: '/purchasePrice', message: `needs ${PRODUCTS_FINANCE_WRITE}` }],
    { missingScopes: [PRODUCTS_FINANCE_WRITE] },
  );
}

/** The stored changes of `input`; a named product group must be an unarchived, visible group (400 /productGroupId). */
export async function productChanges(tx: Db, auth: V1AuthContext, input: ProductAttributes): Promise<ProductChanges> {
  const productGroupId =
    input.productGroupId === undefined || input.productGroupId === null ? input.productGroupId : await assertProductGroupReference(tx, auth, input.productGroupId, '/productGroupId');
  const change: { -readonly [K in keyof ProductChanges]: ProductChanges[K] } = {};
  for (const key of ['name', 'description', 'sku', 'unit', 'salesPrice', 'purchasePrice'] as const) {
    if (input[key] !== undefined) (change as Record<string, unknown>)[key] = input[key];
  }
  if (productGroupId !== undefined) change.productGroupId = productGroupId;
  return change;
}

export const productNotFound = notFoundOf('product');

/** The stored id of a path id (lower case); a non-UUID names nothing (404). */
export const productIdOf = (raw: string): string => idOf(raw, productNotFound);

export const findProductOr404 = (tx: Db, workspaceId: string, id: string): Promise<ProductRecord> => foundOr(findProduct(tx, workspaceId, id), productNotFound);

/** How a product is archived and restored (kernel/archival.ts). */
export const archivableProduct = archivable({ type: 'product', find: findProduct, setArchived: setProductArchived, answer: versionedProduct, eventView: productEventView });
