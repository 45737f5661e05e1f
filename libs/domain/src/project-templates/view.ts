import type { TaskBlueprint } from '@workcell/registry';
import type { z } from 'zod';
import { findProjectTemplate, type GuardedOutcome, type ProjectTemplateRecord, type TaskBlueprintRecord, type Db } from '@workcell/db';
import type { V1AuthContext } from '../kernel/auth-context.js';
import { isUuid } from '../kernel/ids.js';
import { DomainError } from '../kernel/errors.js';
import { requireGrant } from '../kernel/grants.js';
import { ifMatchFailure } from '../kernel/if-match.js';
import type { Operation } from '../kernel/procedure.js';
import type { Versioned } from '../kernel/versioned.js';
import { type ArchivableView, withArchivableFields } from '../kernel/base-view.js';

/** A template as the registry's ProjectTemplate (`revision` mirrors the strong ETag). */
export interface ProjectTemplateView extends ArchivableView {
  readonly name: string;
  readonly description: string | null;
  readonly taskBlueprints: readonly TaskBlueprintRecord[];
  readonly revision: string;
}

export function projectTemplateView(row: ProjectTemplateRecord): ProjectTemplateView {
  return withArchivableFields(row, {
    name: row.name,
    description: row.description,
    taskBlueprints: row.taskBlueprints,
    revision: String(row.revision),
  });
}

/** The view as an outbox payload (plain JSON objects). */
export function templateEventPayload(view: ProjectTemplateView) {
  return { ...view, taskBlueprints: view.taskBlueprints.map((b) => ({ ...b })) };
}

export function versionedProjectTemplate(row: ProjectTemplateRecord): Versioned<ProjectTemplateView> {
  return { resource: projectTemplateView(row), revision: row.revision };
}

type BlueprintInput = z.output<typeof TaskBlueprint>;

/** Blueprints as stored: description always present (null when not sent), durationDays only when sent. */
export function blueprintRecords(input: readonly BlueprintInput[]): TaskBlueprintRecord[] {
  return input.map((b) => ({ title: b.title, description: b.description ?? null, offsetDays: b.offsetDays, ...(b.durationDays === undefined ? {} : { durationDays: b.durationDays }) }));
}

/** A template id of the caller's workspace (lower case), after the grant check; anything else is 404. */
export function templateId(auth: V1AuthContext, rawId: string, access: 'read' | 'write'): string {
  requireGrant(auth, 'project_template', rawId, access, 'project template');
  if (!isUuid(rawId)) throw new DomainError('not_found', 'project template not found');
  return rawId.toLowerCase();
}

export interface GuardedTemplateWrite {
  readonly id: string;
  readonly event: string;
  /** What the 409 says when the revision matches but the state does not. */
  readonly stateConflict: string;
  readonly write: (tx: Db, workspaceId: string, id: string, now: Date) => Promise<GuardedOutcome>;
  readonly changed?: readonly string[];
}

/**
 * The shared shape of update, archive and restore: one transaction holding the If-Match write (check and
 * write one statement in the data layer), the re-read and the outbox event.
 */
export async function writeProjectTemplate(op: Operation, input: GuardedTemplateWrite): Promise<Versioned<ProjectTemplateView>> {
  const workspaceId = op.auth.workspaceId;
  const id = templateId(op.auth, input.id, 'write');
  const now = op.now();
  return op.transaction(async (tx) => {
    const outcome = await input.write(tx, workspaceId, id, now);
    if (outcome !== 'updated') throw ifMatchFailure(outcome, 'project template', input.stateConflict);
    const result = versionedProjectTemplate((await findProjectTemplate(tx, workspaceId, id))!);
    await op.emit(tx, {
      aggregateType: 'project_template',
      aggregateId: id,
      eventType: input.event,
      payload: { projectTemplate: templateEventPayload(result.resource), ...(input.changed ? { changed: input.changed } : {}), requestId: op.requestId },
      occurredAt: now,
    });
    return result;
  });
}
