import { type DocumentFormatValue, type DocumentRecord, type DocumentTarget, type DocumentTargetTypeValue, findDocument, setDocumentArchived, type Db } from '@workcell/db';
import { DOCUMENT_MAX_CONTENT_CHARS, type DocumentCreate, type TargetType } from '@workcell/registry';
import type { z } from 'zod';
import { archivable } from '../kernel/archival.js';
import type { V1AuthContext } from '../kernel/auth-context.js';
import { type ArchivableView, withArchivableFields } from '../kernel/base-view.js';
import { versionOf } from '../kernel/cas.js';
import { DomainError } from '../kernel/errors.js';
import { findVisibleTarget } from '../kernel/targets.js';
import type { Versioned } from '../kernel/versioned.js';
import { foundOr, idOf, notFoundOf } from '../kernel/lookup.js';
import { validationError } from '../roles/permission-model.js';

/**
 * Documents (contract 5.3: "bounded document content and lifecycle"): plain or markdown text of at most
 * DOCUMENT_MAX_CONTENT_CHARS characters, optionally attached to a contact, project or task. Content over the bound is
 * 413 `payload_too_large` (too large, not malformed: the answer a body over the server's limit gets too). Outbox events
 * carry the document without its content (up to a million characters in every event and webhook delivery): readers
 * fetch it.
 *
 * Sharing (issue 24, kernel/visibility.ts): a document follows its target's project (a task's project; a contact's
 * or an unattached document belongs to none). One on a project the caller may not see is 404 like a missing one and
 * never listed (the rule is in the statements, libs/db documents.ts); creating one on a project with access-control
 * entries, changing, archiving and restoring one there need `editor` or `manager` access (403
 * `insufficient_project_access` for a viewer).
 */

type TargetTypeName = z.output<typeof TargetType>;

/** A document as the registry's Document. */
export interface DocumentView extends ArchivableView {
  readonly title: string;
  readonly format: DocumentFormatValue;
  readonly content: string;
  readonly sizeBytes: number;
  readonly targetType: TargetTypeName | null;
  readonly targetId: string | null;
  readonly version: string;
}

/** The targets a document may have: the registry's wire name and the stored type (also the grant type). */
const TARGETS: Readonly<Record<TargetTypeName, { type: DocumentTargetTypeValue }>> = {
  contacts: { type: 'contact' },
  projects: { type: 'project' },
  tasks: { type: 'task' },
};
const WIRE_TYPE = Object.fromEntries(Object.entries(TARGETS).map(([wire, { type }]) => [type, wire])) as Record<DocumentTargetTypeValue, TargetTypeName>;

/** The stored target type of a wire name (`projects` → `project`). */
export const storedTargetType = (wire: TargetTypeName): DocumentTargetTypeValue => TARGETS[wire].type;

export function documentView(row: DocumentRecord): DocumentView {
  return withArchivableFields(row, {
    title: row.title,
    format: row.format,
    content: row.content,
    sizeBytes: row.sizeBytes,
    targetType: row.targetType === null ? null : WIRE_TYPE[row.targetType],
    targetId: row.targetId,
    version: versionOf(row.revision),
  });
}

/** The document as outbox events carry it: everything but the content. */
export function documentEventView(row: DocumentRecord): Omit<DocumentView, 'content'> {
  const { content: _content, ...view } = documentView(row);
  return view;
}

export function versionedDocument(row: DocumentRecord): Versioned<DocumentView> {
  return { resource: documentView(row), revision: row.revision };
}

/** The writable attributes (the registry's DocumentCreate / DocumentUpdate), all optional here. */
export type DocumentAttributes = Partial<z.output<typeof DocumentCreate>>;

/** Whether `text` holds more than `bound` characters (Unicode code points, as PostgreSQL's char_length counts them). */
function longerThan(text: string, bound: number): boolean {
  if (text.length <= bound) return false;
  let count = 0;
  for (let i = 0; i < text.length; i += text.codePointAt(i)! > 0xffff ? 2 : 1) if (++count > bound) return true;
  return false;
}

/** Content over DOCUMENT_MAX_CONTENT_CHARS: 413 `payload_too_large` with the pointer /content, before anything is read or written. */
export function assertContentWithinBound(input: DocumentAttributes): void {
  if (input.content === undefined || !longerThan(input.content, DOCUMENT_MAX_CONTENT_CHARS)) return;
  const bound = `at most ${DOCUMENT_MAX_CONTENT_CHARS} characters (Unicode code points)`;
  throw new DomainError('payload_too_large', `a document's content holds ${bound}`, [{ pointer: '/content', message: bound }]);
}

/** The stored changes of `input` (title, format, content; the target is fixed at creation). */
export function documentChanges(input: DocumentAttributes): { title?: string; format?: DocumentFormatValue; content?: string } {
  return {
    ...(input.title === undefined ? {} : { title: input.title }),
    ...(input.format === undefined ? {} : { format: input.format }),
    ...(input.content === undefined ? {} : { content: input.content }),
  };
}

/**
 * The target of a new document: `targetType` and `targetId` go together (400 at the one missing), and name an
 * unarchived contact, project or task of the caller's workspace that the caller may see (a service account's
 * resource grants, its project's sharing: kernel/targets.ts `findVisibleTarget`); otherwise 400 /targetId, the same
 * answer for a missing, archived, foreign, ungranted or hidden target, so nothing about them is revealed. Attaching
 * a document writes into the target's project: a viewer of a shared one is 403 `insufficient_project_access`. The
 * target family's read scope is not needed (the document shows nothing of the target but the id the caller sent), as
 * a product's productGroupId needs no product-groups:read.
 */
export async function documentTarget(tx: Db, auth: V1AuthContext, input: DocumentAttributes): Promise<DocumentTarget | null> {
  const { targetType, targetId } = input;
  if (targetType == null && targetId == null) return null;
  if (targetType == null || targetId == null) {
    const [missing, given] = targetType == null ? ['targetType', 'targetId'] : ['targetId', 'targetType'];
    throw validationError('targetType and targetId go together', [{ pointer: `/${missing}`, message: `${missing} is required with ${given}` }]);
  }
  const { type } = TARGETS[targetType];
  const state = await findVisibleTarget(tx, auth, type, targetId, 'write');
  if (state === null || state.archived) throw validationError('the target is not valid', [{ pointer: '/targetId', message: `no ${type} ${JSON.stringify(targetId)} in this workspace` }]);
  return { type, id: targetId.toLowerCase() };
}

export const documentNotFound = notFoundOf('document');

/** The stored id of a path id (lower case); a non-UUID names nothing (404). */
export const documentIdOf = (raw: string): string => idOf(raw, documentNotFound);

export const findDocumentOr404 = (tx: Db, workspaceId: string, id: string): Promise<DocumentRecord> => foundOr(findDocument(tx, workspaceId, id), documentNotFound);

/** How a document is archived and restored (kernel/archival.ts). */
export const archivableDocument = archivable({ type: 'document', find: findDocument, setArchived: setDocumentArchived, answer: versionedDocument, eventView: documentEventView, followsProject: true });
