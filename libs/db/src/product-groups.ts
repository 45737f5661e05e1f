import type { Db } from './database.js';
import { type TreeGroupFilter, type TreeGroupRecord, groupTree } from './group-tree.js';

/** Product groups: the group tree of `product_groups` (group-tree.ts has the rules). */
export type ProductGroupRecord = TreeGroupRecord;
export type ProductGroupFilter = TreeGroupFilter;

// Same columns as contact groups: the delegate is used through the contact-group delegate's type.
const tree = groupTree({ table: 'product_groups', delegate: (tx) => tx.prisma.productGroup as unknown as Db['prisma']['contactGroup'] });

export const productGroupAncestors = tree.ancestors;
export const findProductGroup = tree.find;
export const listProductGroupsPage = tree.listPage;
export const lockProductGroupHierarchy = tree.lock;
export const insertProductGroup = tree.insert;
export const updateProductGroupIfRevision = tree.updateIfRevision;
export const setProductGroupArchived = tree.setArchived;

/** Whether `id` (a UUID) names an unarchived group of the workspace. */
export async function productGroupIsActive(client: Db, workspaceId: string, id: string): Promise<boolean> {
  return (await tree.existingIds(client, workspaceId, [id])).has(id);
}
