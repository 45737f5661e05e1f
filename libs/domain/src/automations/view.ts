import {
  type AutomationDefinitionRecord,
  type AutomationRunRecord,
  type AutomationVersionRecord,
  type Db,
  type DomainEvent,
  findAutomationDefinition,
  setAutomationDefinitionArchived,
} from '@workcell/db';
import { archivable } from '../kernel/archival.js';
import type { V1AuthContext } from '../kernel/auth-context.js';
import { type ArchivableView, withArchivableFields } from '../kernel/base-view.js';
import { versionOf } from '../kernel/cas.js';
import { DomainError, type FieldIssue } from '../kernel/errors.js';
import { assertScopes } from '../kernel/scopes.js';
import type { Versioned } from '../kernel/versioned.js';
import { eventSpec } from '../events/catalog.js';
import { issuesOf } from '../kernel/procedure.js';
import { idOf, notFoundOf } from '../kernel/lookup.js';
import { validationError } from '../roles/permission-model.js';
import { automationAction } from './actions.js';

/**
 * Automations (issue 14, docs/automations.md): definitions with a draft and immutable published versions, runs of
 * the published version for each matching event. Definitions, versions and runs are workspace data bounded by the
 * automations scopes alone (no resource grants of their own); what a flow does is bounded by its owner's authority
 * at run time, and its writes by the scopes the flow implies (checked on create, update and publish).
 */

export type AutomationTrigger = { readonly eventType: string; readonly conditions?: Readonly<Record<string, string | number | boolean | null>> };
export type AutomationStep = { readonly actionId: string; readonly input: Readonly<Record<string, unknown>> };

export type AutomationDefinitionView = ArchivableView & {
  readonly name: string;
  readonly description: string | null;
  readonly status: 'draft' | 'published';
  readonly trigger: AutomationTrigger;
  readonly steps: readonly AutomationStep[];
  readonly publishedVersion: number | null;
  readonly ownerCredentialId: string | null;
  readonly version: string;
};

export function automationDefinitionView(row: AutomationDefinitionRecord): AutomationDefinitionView {
  return withArchivableFields(row, {
    name: row.name,
    description: row.description,
    status: row.publishedVersion === null ? 'draft' : 'published',
    trigger: row.trigger as AutomationTrigger,
    steps: row.steps as AutomationStep[],
    publishedVersion: row.publishedVersion,
    ownerCredentialId: row.ownerCredentialId,
    version: versionOf(row.revision),
  });
}

export function versionedAutomationDefinition(row: AutomationDefinitionRecord): Versioned<AutomationDefinitionView> {
  return { resource: automationDefinitionView(row), revision: row.revision };
}

export type AutomationVersionView = {
  readonly definitionId: string;
  readonly number: number;
  readonly trigger: AutomationTrigger;
  readonly steps: readonly AutomationStep[];
  readonly note: string | null;
  readonly publishedAt: string;
  readonly publishedBy: string | null;
};

export function automationVersionView(row: AutomationVersionRecord): AutomationVersionView {
  return {
    definitionId: row.definitionId,
    number: row.number,
    trigger: row.body.trigger as AutomationTrigger,
    steps: row.body.steps as AutomationStep[],
    note: row.note,
    publishedAt: new Date(row.publishedAt).toISOString(),
    publishedBy: row.publishedBy,
  };
}

export type AutomationRunView = {
  readonly id: string;
  readonly definitionId: string;
  readonly versionNumber: number;
  readonly eventId: string;
  readonly eventType: string;
  readonly status: AutomationRunRecord['status'];
  readonly stepsCompleted: number;
  readonly depth: number;
  readonly resumeAt: string | null;
  readonly startedAt: string;
  readonly endedAt: string | null;
  readonly error: { code: string; message: string } | null;
};

const iso = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString());

export function automationRunView(row: AutomationRunRecord): AutomationRunView {
  return {
    id: row.id,
    definitionId: row.definitionId,
    versionNumber: row.versionNumber,
    eventId: row.eventId,
    eventType: row.eventType,
    status: row.status,
    stepsCompleted: row.stepsCompleted,
    depth: row.depth,
    resumeAt: iso(row.resumeAt),
    startedAt: iso(row.startedAt)!,
    endedAt: iso(row.endedAt),
    error: row.error,
  };
}

export const automationDefinitionNotFound = notFoundOf('automation definition');
export const automationRunNotFound = notFoundOf('automation run');

/** The stored id of a path id (lower case); a non-UUID names nothing (404). */
export const automationIdOf = idOf;

export async function findAutomationDefinitionOr404(client: Db, auth: V1AuthContext, id: string): Promise<AutomationDefinitionRecord> {
  const row = await findAutomationDefinition(client, auth.workspaceId, id);
  if (!row) throw automationDefinitionNotFound();
  return row;
}

/** 409 unless the definition takes changes: archived definitions are read-only until restored. */
export function assertLive(row: AutomationDefinitionRecord): void {
  if (row.archivedAt !== null) throw new DomainError('conflict', 'the automation definition is archived; restore it first');
}

// ─── templates ───

/** A string value that is exactly `{{event.<path>}}` is replaced at run time by that value of the triggering event. */
const TEMPLATE = /^\{\{\s*event\.([A-Za-z0-9_.]+)\s*\}\}$/;

export function isTemplate(value: unknown): value is string {
  return typeof value === 'string' && TEMPLATE.test(value);
}

/** The value at a dot path (undefined when absent). */
export function valueAt(source: unknown, path: string): unknown {
  let current = source;
  for (const key of path.split('.')) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** The event as templates see it: `event.id`, `event.type`, `event.data.<payload path>`. */
export type TemplateEvent = { readonly id: string; readonly type: string; readonly data: unknown };

/** The input with every template replaced by the event's value (null when the event has none). */
export function resolveTemplates(input: unknown, event: TemplateEvent): unknown {
  if (isTemplate(input)) return valueAt(event, TEMPLATE.exec(input)![1]!) ?? null;
  if (Array.isArray(input)) return input.map((v) => resolveTemplates(v, event));
  if (input !== null && typeof input === 'object') return Object.fromEntries(Object.entries(input).map(([k, v]) => [k, resolveTemplates(v, event)]));
  return input;
}

// ─── validation and the scopes a flow implies ───

/**
 * Checks a flow: its trigger's event type is in the event catalog, every step names an action of the catalog and
 * its input matches the action's schema (a template may stand for any value: it is checked when the run resolves
 * it). 400 validation_failed with a pointer per problem. Returns the scopes the flow implies: every action's
 * requiredScopes and the read scopes of the trigger's event type (the owner must be able to learn of the event).
 */
export function flowScopes(trigger: AutomationTrigger, steps: readonly AutomationStep[]): string[] {
  const issues: FieldIssue[] = [];
  const spec = eventSpec(trigger.eventType);
  if (!spec || spec.channels.length === 0) issues.push({ pointer: '/trigger/eventType', message: `${JSON.stringify(trigger.eventType)} is not an event type of the event catalog` });
  const scopes = new Set<string>(spec?.readScopes ?? []);
  steps.forEach((step, i) => {
    const action = automationAction(step.actionId);
    if (!action) return void issues.push({ pointer: `/steps/${i}/actionId`, message: `${JSON.stringify(step.actionId)} is not an action of GET /v1/automation-actions` });
    for (const s of action.requiredScopes) scopes.add(s);
    const parsed = action.input.safeParse(step.input);
    if (parsed.success) return;
    for (const issue of issuesOf(parsed.error)) if (!atTemplate(step.input, issue.pointer)) issues.push({ pointer: `/steps/${i}/input${issue.pointer}`, message: issue.message });
  });
  if (issues.length > 0) throw validationError('the automation flow is not valid', issues);
  return [...scopes];
}

/** Whether the value a JSON pointer (relative to `input`) names is a template, which stands for any value until the run. */
function atTemplate(input: unknown, pointer: string): boolean {
  const value = pointer
    .split('/')
    .slice(1)
    .reduce<unknown>((v, k) => (v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[k.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined), input);
  return isTemplate(value);
}

/**
 * What a write of the flow (create, update, publish) checks, in its transaction: the flow is valid (flowScopes, 400),
 * the caller holds every scope it implies (403 insufficient_scope naming the missing ones), and every id its steps'
 * inputs name (a task, project, list, tag, member, comment target) names something of this workspace the caller may
 * see: each action's referenceIssues, else 400 validation_failed at /steps/{i}/input/... A template is not checked:
 * its id is the event's, known at run time (where the action's procedure checks it).
 */
export async function assertFlow(tx: Db, auth: V1AuthContext, trigger: AutomationTrigger, steps: readonly AutomationStep[]): Promise<void> {
  assertScopes(auth.effectiveScopes, flowScopes(trigger, steps));
  const issues: FieldIssue[] = [];
  for (const [i, step] of steps.entries()) {
    const check = automationAction(step.actionId)?.referenceIssues;
    if (check === undefined) continue;
    for (const issue of await check(tx, auth, step.input as Record<string, unknown>))
      if (!atTemplate(step.input, issue.pointer)) issues.push({ ...issue, pointer: `/steps/${i}/input${issue.pointer}` });
  }
  if (issues.length > 0) throw validationError('the automation flow names what does not exist in this workspace', issues);
}

/** The definition as its events carry it. */
export const automationDefinitionEventView = (row: AutomationDefinitionRecord): DomainEvent['payload'] => automationDefinitionView(row) as unknown as DomainEvent['payload'];

/** The run as its events carry it. */
export const automationRunEventView = (row: AutomationRunRecord): DomainEvent['payload'] => automationRunView(row) as unknown as DomainEvent['payload'];

/** How a definition is archived and restored (kernel/archival.ts); an archived definition triggers nothing. */
export const archivableAutomationDefinition = archivable({
  type: 'automation_definition',
  find: (tx, workspaceId, id) => findAutomationDefinition(tx, workspaceId, id),
  setArchived: setAutomationDefinitionArchived,
  answer: versionedAutomationDefinition,
  eventView: automationDefinitionView,
});
