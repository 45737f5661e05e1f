/**
 * The id condition of one keyset page (lists are ordered by UUIDv7 id): rows after `afterId`, and, when
 * `onlyIds` is given (a service account's resource grants), only those rows. An empty `onlyIds` matches nothing.
 */
export function pageIds(afterId: string | undefined, onlyIds?: readonly string[] | null): { id?: { gt?: string; in?: string[] } } {
  if (afterId === undefined && (onlyIds === undefined || onlyIds === null)) return {};
  return { id: { ...(afterId === undefined ? {} : { gt: afterId }), ...(onlyIds === undefined || onlyIds === null ? {} : { in: [...onlyIds] }) } };
}

/**
 * The findMany arguments of one keyset page of a workspace's unarchived rows in id order: `where` holds the family's
 * own filters, `onlyIds` is as in pageIds. The caller adds its select.
 */
export function unarchivedPage<W extends object>(workspaceId: string, where: W, afterId: string | undefined, take: number, onlyIds?: readonly string[] | null) {
  return { where: { workspaceId, archivedAt: null, ...where, ...pageIds(afterId, onlyIds) }, orderBy: { id: 'asc' as const }, take };
}
