import { existingContactGroupIds, findContactGroup, setContactGroupArchived, type Db } from '@workcell/db';
import { archivable } from '../kernel/archival.js';
import { isUuid } from '../kernel/ids.js';
import { treeGroupView, type TreeGroupView, versionedTreeGroup } from '../kernel/tree-group-view.js';
import { validationError } from '../roles/permission-model.js';

/** A contact group as the registry's ContactGroup (the shared group shape). */
export type ContactGroupView = TreeGroupView;
export const contactGroupView = treeGroupView;
export const versionedContactGroup = versionedTreeGroup;

/** A parent named in a body must be an unarchived group of the caller's workspace (400 /parentId otherwise). Returns it in lower case. */
export async function assertParent(tx: Db, workspaceId: string, parentId: string): Promise<string> {
  const id = parentId.toLowerCase();
  if (!isUuid(parentId) || !(await existingContactGroupIds(tx, workspaceId, [id])).has(id)) {
    throw validationError('the parent group is not valid', [{ pointer: '/parentId', message: `no contact group ${JSON.stringify(parentId)} in this workspace` }]);
  }
  return id;
}

/** How a contact group is archived and restored (kernel/archival.ts). */
export const archivableContactGroup = archivable({ type: 'contact_group', find: findContactGroup, setArchived: setContactGroupArchived, answer: versionedContactGroup });
