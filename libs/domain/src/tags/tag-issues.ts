import { type Db, existingTagIds } from '@workcell/db';
import type { FieldIssue } from '../kernel/errors.js';
import { isUuid } from '../kernel/ids.js';

/** Tag ids must be distinct, unarchived tags of the workspace. */
export async function tagIssues(client: Db, workspaceId: string, tagIds: readonly string[] | undefined): Promise<FieldIssue[]> {
  if (tagIds === undefined) return [];
  const issues: FieldIssue[] = [];
  const known = await existingTagIds(
    client,
    workspaceId,
    tagIds.filter(isUuid).map((t) => t.toLowerCase()),
  );
  const seen = new Set<string>();
  tagIds.forEach((tag, i) => {
    const key = tag.toLowerCase();
    if (seen.has(key)) issues.push({ pointer: `/tagIds/${i}`, message: 'duplicate tag id' });
    else if (!known.has(key)) issues.push({ pointer: `/tagIds/${i}`, message: 'no such tag in this workspace' });
    seen.add(key);
  });
  return issues;
}
