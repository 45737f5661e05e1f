import { type CommentRecord, findComment, inTransaction, memberPermissionKeys, type Db } from '@workcell/db';
import type { V1AuthContext } from '../kernel/auth-context.js';
import { type BaseView, withBaseFields } from '../kernel/base-view.js';
import { DomainError } from '../kernel/errors.js';
import { requireGrant } from '../kernel/grants.js';
import { isUuid } from '../kernel/ids.js';
import type { ProcedureContext } from '../kernel/procedure.js';
import { requireTargetAccess, type TargetType, targetTypeOf } from '../kernel/targets.js';
import type { Versioned } from '../kernel/versioned.js';
import { requireResourceAccess, viewerOf } from '../kernel/visibility.js';
import { ADMINISTRATION_PERMISSIONS } from '../roles/permission-model.js';

/**
 * Comments (issue 13): plain text on a contact, project or task. The decisions, also in docs/comments-and-activity.md:
 * - The body is plain text, 1 to 10,000 characters (the registry's CommentBody), stored and returned verbatim.
 * - The author is the principal of the creating credential (a member or a service account), never a body field.
 * - Every operation needs the read scope of the comment's target type besides comments:read/write, and a service
 *   account a grant that lets it read the target (kernel/targets.ts) as well as its `comment` grants.
 * - Sharing (issue 24, kernel/visibility.ts): a comment follows its target's project (a task's project; a contact's
 *   comments belong to none). A comment on a project the caller may not see is 404 like a missing one, and so is
 *   that target in a list or a new comment (400 /targetId). Commenting contributes to the project: creating,
 *   editing and deleting a comment on a project with access-control entries need `editor` or `manager` access (a
 *   `viewer` reads them; 403 `insufficient_project_access`), the author included.
 * - Only the author edits a comment. Only the author deletes it, or a workspace administrator (a member holding
 *   roles:write and members:write, the permissions that administer the workspace) to moderate; anyone else gets
 *   403 `forbidden`. Neither write takes a precondition (the registry's concurrency for both is `none`): the last
 *   writer wins.
 * - Delete sets `archived_at`: the comment is 404 from then on and never listed; its events stay in the log.
 */

export const COMMENT_BODY_MAX = 10_000;

/** A comment as the registry's Comment. */
export interface CommentView extends BaseView {
  readonly targetType: TargetType;
  readonly targetId: string;
  readonly body: string;
  readonly authorType: 'member' | 'service-account';
  readonly authorId: string;
  readonly editedAt: string | null;
}

export function commentView(row: CommentRecord): CommentView {
  return withBaseFields(row, {
    targetType: targetTypeOf(row.targetType),
    targetId: row.targetId,
    body: row.body,
    authorType: row.author.type === 'service_account' ? 'service-account' : 'member',
    authorId: row.author.id,
    editedAt: row.editedAt?.toISOString() ?? null,
  });
}

export function versionedComment(row: CommentRecord): Versioned<CommentView> {
  return { resource: commentView(row), revision: row.revision };
}

export const commentNotFound = () => new DomainError('not_found', 'comment not found');

/** The comment's target rule (kernel/targets.ts): its type's read scope (403), and a target the caller may not read hides it (404). */
export function requireCommentTarget(auth: V1AuthContext, row: CommentRecord): void {
  requireTargetAccess(auth, { type: targetTypeOf(row.targetType), id: row.targetId }, commentNotFound);
}

/**
 * What an edit and a delete share: the caller's `comment` write grant, then in one transaction the live comment
 * the caller may see (404 when missing, deleted, another workspace's or in a project hidden from it), its target's
 * rule, and write access to its project (403 `insufficient_project_access` for a viewer). `work` gets the comment
 * and the instant.
 */
export function writeComment<T>(ctx: ProcedureContext, auth: V1AuthContext, rawId: string, work: (tx: Db, existing: CommentRecord, now: Date) => Promise<T>): Promise<T> {
  requireGrant(auth, 'comment', rawId, 'write', 'comment');
  if (!isUuid(rawId)) throw commentNotFound();
  const now = ctx.now();
  return inTransaction(ctx.database, async (tx) => {
    const existing = await findComment(tx, auth.workspaceId, rawId.toLowerCase(), viewerOf(auth));
    if (!existing) throw commentNotFound();
    requireCommentTarget(auth, existing);
    await requireResourceAccess(tx, auth, 'comment', existing.id, 'write', 'comment');
    return work(tx, existing, now);
  });
}

const isAuthor = (auth: V1AuthContext, row: CommentRecord) => row.author.type === auth.principal.type && row.author.id === auth.principal.id;

/** Only the author edits a comment: 403 `forbidden` for anyone else. */
export function requireAuthor(auth: V1AuthContext, row: CommentRecord): void {
  if (!isAuthor(auth, row)) throw new DomainError('forbidden', 'only the author of a comment may edit it');
}

/** The author deletes a comment, or a workspace administrator (a member holding every administration permission); 403 `forbidden` otherwise. */
export async function requireAuthorOrModerator(tx: Db, auth: V1AuthContext, row: CommentRecord): Promise<void> {
  if (isAuthor(auth, row)) return;
  if (auth.principal.type === 'member') {
    const held = new Set(await memberPermissionKeys(tx, auth.workspaceId, auth.principal.id));
    if (ADMINISTRATION_PERMISSIONS.every((p) => held.has(p))) return;
  }
  throw new DomainError('forbidden', `only the author of a comment, or a workspace administrator (${ADMINISTRATION_PERMISSIONS.join(' and ')}), may delete it`);
}

/** What a deletion event carries: the comment's identity and target, never its text. */
export function deletedCommentView(view: CommentView): Pick<CommentView, 'id' | 'targetType' | 'targetId' | 'authorType' | 'authorId'> {
  return { id: view.id, targetType: view.targetType, targetId: view.targetId, authorType: view.authorType, authorId: view.authorId };
}
