import type { z } from 'zod';
import {
  findProjectStatement,
  projectExists,
  type ProjectStatementKindValue,
  type ProjectStatementRow,
  type ProjectStatementValues,
  serviceExists,
  statementProductExists,
  type Db,
} from '@workcell/db';
import { ProjectStatementCreate } from '@workcell/registry';
import type { V1AuthContext } from '../kernel/auth-context.js';
import { versionOf } from '../kernel/cas.js';
import { isUuid } from '../kernel/ids.js';
import { DomainError, type FieldIssue } from '../kernel/errors.js';
import type { Versioned } from '../kernel/versioned.js';
import { type ArchivableView, withArchivableFields } from '../kernel/base-view.js';
import { requireProjectAccess } from '../kernel/visibility.js';
import { idOf, notFoundOf } from '../kernel/lookup.js';

/**
 * Project statements (v0: journal entries) and their finance overlay (contract 5.3). The decisions:
 * - Without `project-statements:finance:read` budget statements do not exist for the caller: lists leave them
 *   out and get, update, archive and restore answer 404 exactly as for a missing statement; `purchasePrice` is
 *   omitted from every response.
 * - A write that supplies `purchasePrice` (null included), creates a budget statement, turns a statement into one
 *   or changes, archives or restores one needs `project-statements:finance:write`: 403 insufficient_scope naming
 *   it, checked before anything is written. Finance scopes are overlays: the base scope is still required (the
 *   operation guard checks it first).
 * - Outbox events never carry `purchasePrice` (the change feed is not finance-scoped).
 */

export const FINANCE_READ = 'project-statements:finance:read';
export const FINANCE_WRITE = 'project-statements:finance:write';

export type Money = { readonly amount: string; readonly currency: string };

/** A statement as the registry's ProjectStatement. */
export interface ProjectStatementView extends ArchivableView {
  readonly projectId: string;
  readonly kind: ProjectStatementKindValue;
  readonly occurredOn: string;
  readonly description: string | null;
  readonly quantity: string;
  readonly unitPrice: Money;
  readonly purchasePrice?: Money | null;
  readonly productId: string | null;
  readonly serviceId: string | null;
  readonly version: string;
}

export const holdsFinanceRead = (auth: V1AuthContext): boolean => auth.effectiveScopes.includes(FINANCE_READ);
export const holdsFinanceWrite = (auth: V1AuthContext): boolean => auth.effectiveScopes.includes(FINANCE_WRITE);

/** 403 insufficient_scope naming the finance write scope, unless the caller holds it. */
export function requireFinanceWrite(auth: V1AuthContext, why: string): void {
  if (!holdsFinanceWrite(auth)) throw new DomainError('insufficient_scope', `${why} needs the scope ${FINANCE_WRITE}`, [], { missingScopes: [FINANCE_WRITE] });
}

export function statementView(row: ProjectStatementRow, withFinance: boolean): ProjectStatementView {
  const purchasePrice = row.purchasePrice === null || row.purchaseCurrency === null ? null : { amount: row.purchasePrice, currency: row.purchaseCurrency };
  return withArchivableFields(row, {
    projectId: row.projectId,
    kind: row.kind,
    occurredOn: row.occurredOn.toISOString().slice(0, 10),
    description: row.description,
    quantity: row.quantity ?? '0',
    unitPrice: { amount: row.amount, currency: row.currency },
    ...(withFinance ? { purchasePrice } : {}),
    productId: row.productId,
    serviceId: row.serviceId,
    version: versionOf(row.revision),
  });
}

export function versionedStatement(row: ProjectStatementRow, auth: V1AuthContext): Versioned<ProjectStatementView> {
  return { resource: statementView(row, holdsFinanceRead(auth)), revision: row.revision };
}

/** The statement as outbox events carry it: never `purchasePrice`. */
export function statementEventView(row: ProjectStatementRow): ProjectStatementView {
  return statementView(row, false);
}

/** The writable attributes (the registry's ProjectStatementCreate; an update names any of them but the project). */
export type StatementAttributes = Partial<z.output<typeof ProjectStatementCreate>>;

/** The attributes the input names, for the `changed` list of events: never purchasePrice (not even its name). */
export function namedAttributes(input: Record<string, unknown>): string[] {
  return Object.keys(input).filter((k) => k in ProjectStatementCreate.shape && k !== 'purchasePrice' && input[k] !== undefined);
}

export const statementNotFound = notFoundOf('project statement');

export const statementIdOf = (raw: string): string => idOf(raw, statementNotFound);

/**
 * The statement a write changes, as the caller may see it (a budget one only with the finance read overlay), else
 * 404; changing it changes its project, so the caller needs editor or manager access there (kernel/visibility.ts:
 * 404 when the project's sharing hides it, 403 insufficient_project_access with viewer access).
 */
export async function findWritableStatement(tx: Db, auth: V1AuthContext, id: string): Promise<ProjectStatementRow> {
  const row = await findProjectStatement(tx, auth.workspaceId, id, holdsFinanceRead(auth));
  if (!row) throw statementNotFound();
  await requireProjectAccess(tx, auth, row.projectId, 'write', 'project statement');
  return row;
}

/**
 * The finance rules of a write (module comment): `current` is the statement being changed (null on create).
 * Throws 403 insufficient_scope naming project-statements:finance:write.
 */
export function assertFinanceWrite(auth: V1AuthContext, current: ProjectStatementRow | null, input: StatementAttributes): void {
  if (input.purchasePrice !== undefined) requireFinanceWrite(auth, 'setting purchasePrice');
  if (input.kind === 'budget') requireFinanceWrite(auth, 'a budget statement');
  if (current?.kind === 'budget') requireFinanceWrite(auth, 'changing a budget statement');
}

/**
 * The statement's stored values after applying `input` to `current` (null on create, when every required
 * attribute is present and `projectId` names the new statement's project), with its references checked: the
 * project, `productId` and `serviceId` name unarchived rows of the caller's workspace (one 400 with a pointer per
 * bad reference otherwise).
 */
export async function resolveStatement(tx: Db, workspaceId: string, current: ProjectStatementRow | null, input: StatementAttributes): Promise<ProjectStatementValues & { projectId: string }> {
  const issues: FieldIssue[] = [];
  const ref = async (value: string | null | undefined, pointer: string, what: string, exists: (id: string) => Promise<boolean>, fallback: string | null): Promise<string | null> => {
    if (value === undefined) return fallback;
    if (value === null) return null;
    const lower = value.toLowerCase();
    if (!isUuid(value) || !(await exists(lower))) issues.push({ pointer, message: `no such ${what} in this workspace` });
    return lower;
  };
  const projectId = await ref(input.projectId, '/projectId', 'project', (v) => projectExists(tx, workspaceId, v), current?.projectId ?? null);
  const productId = await ref(input.productId, '/productId', 'product', (v) => statementProductExists(tx, workspaceId, v), current?.productId ?? null);
  const serviceId = await ref(input.serviceId, '/serviceId', 'service', (v) => serviceExists(tx, workspaceId, v), current?.serviceId ?? null);
  if (issues.length > 0) throw new DomainError('validation_failed', 'the project statement is not valid', issues);
  const purchase = input.purchasePrice === undefined ? (current?.purchasePrice == null ? null : { amount: current.purchasePrice, currency: current.purchaseCurrency! }) : input.purchasePrice;
  return {
    projectId: projectId!,
    kind: input.kind ?? current!.kind,
    description: input.description === undefined ? (current?.description ?? null) : input.description,
    occurredOn: input.occurredOn === undefined ? current!.occurredOn : new Date(`${input.occurredOn}T00:00:00Z`),
    quantity: input.quantity ?? current!.quantity ?? '0',
    amount: input.unitPrice?.amount ?? current!.amount,
    currency: input.unitPrice?.currency ?? current!.currency,
    purchasePrice: purchase?.amount ?? null,
    purchaseCurrency: purchase?.currency ?? null,
    productId,
    serviceId,
  };
}
