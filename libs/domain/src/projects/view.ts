import { type Db, contactExists, type ProjectChanges, type ProjectRecord } from '@workcell/db';
import { DomainError, type FieldIssue } from '../kernel/errors.js';
import { isUuid } from '../kernel/ids.js';
import { tagIssues } from '../tags/tag-issues.js';
import { type ArchivableView, withArchivableFields } from '../kernel/base-view.js';

/** A project as the registry's Project (`revision` mirrors the strong ETag). */
export interface ProjectView extends ArchivableView {
  readonly name: string;
  readonly description: string | null;
  readonly status: 'active' | 'completed' | 'archived';
  readonly customerId: string | null;
  readonly startsOn: string | null;
  readonly dueOn: string | null;
  readonly tagIds: readonly string[];
  readonly completedAt: string | null;
  readonly revision: string;
}

const dateOnly = (d: Date | null) => (d === null ? null : d.toISOString().slice(0, 10));

export function projectView(row: ProjectRecord): ProjectView {
  return withArchivableFields(row, {
    name: row.name,
    description: row.description,
    status: row.archivedAt !== null ? 'archived' : row.status,
    customerId: row.contactId,
    startsOn: dateOnly(row.startDate),
    dueOn: dateOnly(row.dueDate),
    tagIds: row.tagIds,
    completedAt: row.completedAt?.toISOString() ?? null,
    revision: String(row.revision),
  });
}

/** The mutable attributes (registry ProjectCreate / ProjectUpdate); status, dates of lifecycle and revision are read-only. */
export type ProjectAttributes = {
  name?: string;
  description?: string | null | undefined;
  customerId?: string | null | undefined;
  startsOn?: string | null | undefined;
  dueOn?: string | null | undefined;
  tagIds?: readonly string[] | undefined;
};

const toDate = (d: string | null) => (d === null ? null : new Date(`${d}T00:00:00.000Z`));

export function projectChanges(input: ProjectAttributes): ProjectChanges & { tagIds?: readonly string[] } {
  return {
    ...(input.name === undefined ? {} : { name: input.name }),
    ...(input.description === undefined ? {} : { description: input.description }),
    ...(input.customerId === undefined ? {} : { contactId: input.customerId === null ? null : input.customerId.toLowerCase() }),
    ...(input.startsOn === undefined ? {} : { startDate: toDate(input.startsOn) }),
    ...(input.dueOn === undefined ? {} : { dueDate: toDate(input.dueOn) }),
    ...(input.tagIds === undefined ? {} : { tagIds: input.tagIds.map((t) => t.toLowerCase()) }),
  };
}

/**
 * References in a body must name rows of the caller's workspace (a foreign or unknown id is the same 400,
 * with a JSON pointer); the composite foreign keys would refuse them anyway.
 */
export async function assertProjectReferences(client: Db, workspaceId: string, input: ProjectAttributes): Promise<void> {
  const issues: FieldIssue[] = [];
  if (input.customerId != null && !(isUuid(input.customerId) && (await contactExists(client, workspaceId, input.customerId.toLowerCase())))) {
    issues.push({ pointer: '/customerId', message: 'no such contact in this workspace' });
  }
  issues.push(...(await tagIssues(client, workspaceId, input.tagIds)));
  if (issues.length > 0) throw new DomainError('validation_failed', 'the request refers to resources that do not exist in this workspace', issues);
}
