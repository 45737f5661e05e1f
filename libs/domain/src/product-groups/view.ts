import { findProductGroup, productGroupIsActive, type ProductGroupRecord, setProductGroupArchived, type Db } from '@workcell/db';
import { archivable } from '../kernel/archival.js';
import type { V1AuthContext } from '../kernel/auth-context.js';
import { grantedIds } from '../kernel/grants.js';
import { isUuid } from '../kernel/ids.js';
import { treeGroupView, type TreeGroupView, versionedTreeGroup } from '../kernel/tree-group-view.js';
import { foundOr, idOf, notFoundOf } from '../kernel/lookup.js';
import { validationError } from '../roles/permission-model.js';

/** A product group as the registry's ProductGroup (the shared group shape). */
export type ProductGroupView = TreeGroupView;
export const productGroupView = treeGroupView;
export const versionedProductGroup = versionedTreeGroup;

export const productGroupNotFound = notFoundOf('product group');

/** The stored id of a path id (lower case); a non-UUID names nothing (404). */
export const productGroupIdOf = (raw: string): string => idOf(raw, productGroupNotFound);

export const findProductGroupOr404 = (tx: Db, workspaceId: string, id: string): Promise<ProductGroupRecord> => foundOr(findProductGroup(tx, workspaceId, id), productGroupNotFound);

/**
 * A group named in a body (a product's `productGroupId`, a group's `parentId`) must be an unarchived group of
 * the caller's workspace that the caller may read (a service account's grants): 400 with `pointer` otherwise,
 * the same answer for all three so nothing about ungranted groups is revealed. Returns the id in lower case.
 */
export async function assertProductGroupReference(tx: Db, auth: V1AuthContext, raw: string, pointer: string): Promise<string> {
  const id = raw.toLowerCase();
  const granted = grantedIds(auth, 'product_group');
  const visible = isUuid(raw) && (granted === null || granted.includes(id)) && (await productGroupIsActive(tx, auth.workspaceId, id));
  if (!visible) throw validationError('the product group is not valid', [{ pointer, message: `no product group ${JSON.stringify(raw)} in this workspace` }]);
  return id;
}

/** How a product group is archived and restored (kernel/archival.ts). */
export const archivableProductGroup = archivable({ type: 'product_group', find: findProductGroup, setArchived: setProductGroupArchived, answer: versionedProductGroup });
