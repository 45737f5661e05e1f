import { type TreeGroupFilter, type TreeGroupRecord, groupTree } from './group-tree.js';

/** Contact groups: the group tree of `contact_groups` (group-tree.ts has the rules). */
export type ContactGroupRecord = TreeGroupRecord;
export type ContactGroupFilter = TreeGroupFilter;

const tree = groupTree({ table: 'contact_groups', delegate: (tx) => tx.prisma.contactGroup });

export const contactGroupAncestors = tree.ancestors;
export const findContactGroup = tree.find;
export const listContactGroupsPage = tree.listPage;
export const existingContactGroupIds = tree.existingIds;
export const lockContactGroupHierarchy = tree.lock;
export const insertContactGroup = tree.insert;
export const updateContactGroupIfRevision = tree.updateIfRevision;
export const setContactGroupArchived = tree.setArchived;
