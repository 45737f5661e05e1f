import { TARGETS, type TargetType } from '../kernel/targets.js';

/**
 * The event catalog: every event type the domain writes to the outbox, what resource it is about, which change
 * it is, and which scopes a credential must hold to learn of it (through the change feed or a webhook). One
 * source for `GET /v1/event-catalog` (the authorization-filtered catalog), `GET /v1/changes` and webhook delivery.
 * The e2e fixtures fail a test file whose services wrote an event type that is missing here.
 */

export type ChangeAction = 'created' | 'updated' | 'archived' | 'restored' | 'deleted';
export type EventChannel = 'changes' | 'webhooks' | 'legacy-webhooks';

export interface EventTypeSpec {
  readonly type: string;
  /** The registry's resource domain the event is about (wire name, e.g. `time-entries`). */
  readonly resourceType: string;
  /** What the change feed reports for it (fetch the resource for its state). */
  readonly action: ChangeAction;
  /** All of these are needed to learn of the event. */
  readonly readScopes: readonly string[];
  readonly description: string;
  readonly channels: readonly EventChannel[];
  /** Scopes needed for one particular event, from its payload (finance overlays). */
  readonly payloadScopes?: (payload: unknown) => readonly string[];
}

const ALL: readonly EventChannel[] = ['changes', 'webhooks', 'legacy-webhooks'];

export interface EventChannelSpec {
  readonly name: EventChannel;
  readonly transport: 'webhook' | 'change-feed';
  readonly description: string;
  /** The v1 scope that uses the channel; null for the v0-only legacy webhooks (never listed in v1). */
  readonly scope: string | null;
}

/** The delivery channels, as `GET /v1/event-catalog` lists them (to credentials holding their scope). */
export const EVENT_CHANNELS: readonly EventChannelSpec[] = [
  {
    name: 'changes',
    transport: 'change-feed',
    description:
      'GET /v1/changes: the durable, cursor-based change feed (event type and id, resource type, id and action in commit order, the payload with include=payload; persist meta.nextCursor and resume from it).',
    scope: 'changes:read',
  },
  { name: 'webhooks', transport: 'webhook', description: 'Signed v1 webhook subscriptions (/v1/webhooks): each event pushed to a subscribed HTTPS endpoint.', scope: 'webhooks:read' },
  { name: 'legacy-webhooks', transport: 'webhook', description: 'Unsigned v0 legacy webhooks.', scope: null },
];

/** The resource domains (wire names) by the outbox's aggregate type, with their read scope. */
export const AGGREGATES = {
  project: { resourceType: 'projects', scope: 'projects:read' },
  task: { resourceType: 'tasks', scope: 'tasks:read' },
  time_entry: { resourceType: 'time-entries', scope: 'time-entries:read' },
  contact: { resourceType: 'contacts', scope: 'contacts:read' },
  contact_group: { resourceType: 'contact-groups', scope: 'contact-groups:read' },
  call_note: { resourceType: 'call-notes', scope: 'call-notes:read' },
  list: { resourceType: 'lists', scope: 'lists:read' },
  service: { resourceType: 'services', scope: 'services:read' },
  tag: { resourceType: 'tags', scope: 'tags:read' },
  product: { resourceType: 'products', scope: 'products:read' },
  product_group: { resourceType: 'product-groups', scope: 'product-groups:read' },
  project_statement: { resourceType: 'project-statements', scope: 'project-statements:read' },
  project_template: { resourceType: 'project-templates', scope: 'project-templates:read' },
  document: { resourceType: 'documents', scope: 'documents:read' },
  file: { resourceType: 'files', scope: 'files:read' },
  workspace: { resourceType: 'workspace', scope: 'workspace:read' },
  webhook: { resourceType: 'webhooks', scope: 'webhooks:read' },
  comment: { resourceType: 'comments', scope: 'comments:read' },
  custom_field_definition: { resourceType: 'custom-field-definitions', scope: 'custom-field-definitions:read' },
  invitation: { resourceType: 'invitations', scope: 'invitations:read' },
  task_recurrence: { resourceType: 'task-recurrences', scope: 'task-recurrences:read' },
  // Scheduling events cover every member's calendar: reading them is reading other members' data (the delegated scopes).
  appointment: { resourceType: 'appointments', scope: 'appointments:delegated:read' },
  absence: { resourceType: 'absences', scope: 'absences:delegated:read' },
  export: { resourceType: 'exports', scope: 'exports:read' },
  automation_definition: { resourceType: 'automation-definitions', scope: 'automations:read' },
  automation_run: { resourceType: 'automation-runs', scope: 'automations:read' },
} as const;
export type AggregateType = keyof typeof AGGREGATES;

/** The lifecycle events every archivable family writes. */
function lifecycle(aggregate: AggregateType, what: string, extra: Partial<EventTypeSpec> = {}, note = ''): EventTypeSpec[] {
  const { resourceType, scope } = AGGREGATES[aggregate];
  return (['created', 'updated', 'archived', 'restored'] as const).map((action) => ({
    type: `${aggregate}.${action}`,
    resourceType,
    action,
    readScopes: [scope],
    description: `A ${what} was ${action}.${note}`,
    channels: ALL,
    ...extra,
  }));
}

function event(type: string, aggregate: AggregateType, action: ChangeAction, description: string, extra: Partial<EventTypeSpec> = {}): EventTypeSpec {
  const { resourceType, scope } = AGGREGATES[aggregate];
  return { type, resourceType, action, readScopes: [scope], description, channels: ALL, ...extra };
}

/** A budget statement exists only for holders of the statements finance overlay (contract 5.3). */
const statementFinance = (payload: unknown): readonly string[] => {
  const p = payload as { projectStatement?: { kind?: unknown }; kind?: unknown } | null;
  return (p?.projectStatement?.kind ?? p?.kind) === 'budget' ? ['project-statements:finance:read'] : [];
};

/**
 * A comment's event also needs the read scope of its target's type (contract 5.3: comments "also need the matching
 * contact, project or task read scope"); the payload names the target (`comment.targetType`, a wire name).
 */
const commentTarget = (payload: unknown): readonly string[] => {
  const type = (payload as { comment?: { targetType?: unknown } } | null)?.comment?.targetType;
  // A payload that named no known target (none does) would need every target read scope.
  return typeof type === 'string' && Object.hasOwn(TARGETS, type) ? [TARGETS[type as TargetType].scopes.read] : Object.values(TARGETS).map((t) => t.scopes.read);
};
const comments = { payloadScopes: commentTarget, channels: ['changes', 'webhooks'] } as const;

export const EVENT_CATALOG: readonly EventTypeSpec[] = [
  event('project.created', 'project', 'created', 'A project was created (also by instantiating a template).'),
  event('project.updated', 'project', 'updated', 'A project’s attributes changed.'),
  event('project.lifecycle_requested', 'project', 'updated', 'A lifecycle operation (complete, reopen, archive, restore) was accepted.', { readScopes: ['projects:read', 'projects:lifecycle'] }),
  event('project.completed', 'project', 'updated', 'A project was completed.'),
  event('project.reopened', 'project', 'updated', 'A project was reopened.'),
  event('project.archived', 'project', 'archived', 'A project was archived.'),
  event('project.restored', 'project', 'restored', 'A project was restored.'),
  event('project.lifecycle_failed', 'project', 'updated', 'A lifecycle operation ended failed.', { readScopes: ['projects:read', 'projects:lifecycle'] }),
  event('project.sharing_replaced', 'project', 'updated', 'A project’s access-control entries were replaced.', { readScopes: ['projects:read', 'projects:sharing'] }),
  ...lifecycle('task', 'task'),
  event('task.completed', 'task', 'updated', 'A task was completed.'),
  event('task.reopened', 'task', 'updated', 'A task was reopened.'),
  event('task.moved', 'task', 'updated', 'A task moved to another project or list.'),
  event('task.timer_started', 'task', 'updated', 'A timer started on a task.', { readScopes: ['tasks:read', 'time-entries:read'] }),
  event('task.timer_stopped', 'task', 'updated', 'A task’s running timer stopped.', { readScopes: ['tasks:read', 'time-entries:read'] }),
  event('planned_work.replaced', 'task', 'updated', 'A task’s planned work was replaced.', { readScopes: ['tasks:read', 'planned-work:read'] }),
  ...lifecycle('time_entry', 'time entry'),
  event('time_entry.billing_set', 'time_entry', 'updated', 'A time entry’s billing changed.', { readScopes: ['time-entries:read', 'time-entries:billing'] }),
  ...lifecycle('contact', 'contact'),
  ...lifecycle('contact_group', 'contact group'),
  event('contact_group.moved', 'contact_group', 'updated', 'A contact group moved in the hierarchy.'),
  ...lifecycle('call_note', 'call note'),
  ...lifecycle('list', 'list'),
  ...lifecycle('service', 'service'),
  event('service.billing_rates_replaced', 'service', 'updated', 'A service’s billing rates were replaced.'),
  ...lifecycle('tag', 'tag'),
  ...lifecycle('product', 'product'),
  ...lifecycle('product_group', 'product group'),
  event('product_group.moved', 'product_group', 'updated', 'A product group moved in the hierarchy.'),
  ...lifecycle('project_statement', 'project statement', { payloadScopes: statementFinance }, ' Budget statements’ events need project-statements:finance:read as well.'),
  ...lifecycle('project_template', 'project template'),
  ...lifecycle('document', 'document', {}, ' The payload carries the document without its content (fetch it).'),
  // Custom fields are v1 resources (no v0 webhook knows them). A values write is an event of its target (its activity,
  // the target's grants in the change feed) that also needs custom-field-values:read, as reading the values does.
  ...lifecycle('custom_field_definition', 'custom-field definition', { channels: ['changes', 'webhooks'] }),
  // A series' events need tasks:read as well (contract 5.3: reading recurrence state also needs tasks:read).
  ...lifecycle('task_recurrence', 'task recurrence', { readScopes: ['task-recurrences:read', 'tasks:read'] }),
  event('task_recurrence.occurrences_created', 'task_recurrence', 'updated', 'A series made occurrences (payload: the occurrences with their task ids); each task has its own task.created.', {
    readScopes: ['task-recurrences:read', 'tasks:read'],
  }),
  event('task_recurrence.rechecked', 'task_recurrence', 'updated', 'A series was re-evaluated on request (payload: how many occurrences it made).', {
    readScopes: ['task-recurrences:read', 'tasks:read'],
  }),
  event(
    'task_recurrence.event_received',
    'task_recurrence',
    'updated',
    'An external event was submitted to an event-driven series (payload: its id, type, time and attributes, and whether it was a duplicate).',
    { readScopes: ['task-recurrences:read', 'tasks:read'] },
  ),
  ...(['project', 'task', 'contact'] as const).map((target) =>
    event(
      `${target}.custom_field_values_updated`,
      target,
      'updated',
      `A ${target}’s custom-field values changed (payload: the changed keys, their new values, null for cleared, and the values’ version).`,
      {
        readScopes: [AGGREGATES[target].scope, 'custom-field-values:read'],
        channels: ['changes', 'webhooks'],
      },
    ),
  ),
  ...lifecycle('file', 'file', {}, ' A file is created `pending` by its upload intent; the payload carries its metadata, never its bytes.'),
  event('file.uploaded', 'file', 'updated', 'A file’s upload was completed and verified: it is available.'),
  event('file.expired', 'file', 'updated', 'A file’s upload reservation lapsed before completion: it is expired and its bytes are removed.'),
  // Scheduling (docs/scheduling.md): v1 resources; a private appointment's events carry it redacted.
  ...(['appointment', 'absence'] as const).flatMap((aggregate) => [
    event(`${aggregate}.created`, aggregate, 'created', `An ${aggregate} was created.`, { channels: ['changes', 'webhooks'] }),
    event(`${aggregate}.updated`, aggregate, 'updated', `An ${aggregate} changed (payload: it and the changed attribute names).`, { channels: ['changes', 'webhooks'] }),
    event(`${aggregate}.deleted`, aggregate, 'deleted', `An ${aggregate} was deleted (payload: its id and member).`, { channels: ['changes', 'webhooks'] }),
  ]),
  // Invitation events never carry the address (personal data, members:pii:read): fetch the invitation for it.
  event('invitation.created', 'invitation', 'created', 'An invitation was created; the worker e-mails it. The payload carries the invitation without its address.'),
  event('invitation.resent', 'invitation', 'updated', 'An invitation’s e-mail was sent again (lastSentAt moved).'),
  event('invitation.revoked', 'invitation', 'updated', 'A pending invitation was revoked.'),
  event('invitation.accepted', 'invitation', 'updated', 'An invitation was accepted: its invitee is now the member memberId (payload: invitation, memberId).'),
  // Exports are v1 resources; their events carry the export's state, never its rows or its creator's authorization.
  event('export.created', 'export', 'created', 'An export was requested; the worker runs it.', { channels: ['changes', 'webhooks'] }),
  event('export.succeeded', 'export', 'updated', 'An export’s result is ready for its creator to download until expiresAt.', { channels: ['changes', 'webhooks'] }),
  event('export.failed', 'export', 'updated', 'An export failed (payload: the export with its failureReason).', { channels: ['changes', 'webhooks'] }),
  event('export.expired', 'export', 'updated', 'An export’s result expired and its bytes were removed.', { channels: ['changes', 'webhooks'] }),
  // Automations (docs/automations.md): v1 resources; a run's events let a client follow runs without polling.
  ...lifecycle('automation_definition', 'automation definition', { channels: ['changes', 'webhooks'] }),
  event(
    'automation_definition.published',
    'automation_definition',
    'updated',
    'A definition’s draft was published as a new immutable version (payload: the definition and the version number); its runs use it from then on.',
    { channels: ['changes', 'webhooks'] },
  ),
  event('automation_run.succeeded', 'automation_run', 'updated', 'An automation run applied all its steps.', { channels: ['changes', 'webhooks'] }),
  event('automation_run.failed', 'automation_run', 'updated', 'An automation run failed (payload: the run with its error; loop_bound when the chain of automations reached its bound).', {
    channels: ['changes', 'webhooks'],
  }),
  event('automation_run.aborted', 'automation_run', 'updated', 'An automation run was aborted (automations:run).', { channels: ['changes', 'webhooks'] }),
  event('workspace.settings_updated', 'workspace', 'updated', 'The workspace settings changed.', { readScopes: ['workspace-settings:read'] }),
  // Subscription changes are audited, not outboxed, except this one: a subscription stopped by someone other
  // than its owner (revocation, expiry, an administrator, a receiver answering 410) must never be silently dead.
  // The payload names only the id, reason and time (never the url or event types, which are the owner's).
  event(
    'webhook.disabled',
    'webhook',
    'updated',
    'A signed webhook subscription was disabled: by an administrator, because its owning credential was revoked, expired or is no longer active, because the receiver answered 410 Gone, or because every attempt failed for the whole retry schedule (payload: id, disabledReason, disabledAt).',
    { channels: ['changes', 'webhooks'] },
  ),
  // Sent only to the subscription whose owner asked for it (PATCH /v1/webhooks/{id} sendTestEvent), whatever its
  // event types: no channel fans it out, and the change feed does not list it.
  event('webhook.test', 'webhook', 'updated', 'A test delivery its owner asked for (PATCH /v1/webhooks/{id} with sendTestEvent), sent to that subscription only (payload: the subscription id).', {
    channels: [],
  }),
  // Comments are v1 resources (no v0 webhook knows them); their events need the target's read scope as well.
  event('comment.created', 'comment', 'created', 'A comment was written on a contact, project or task. Needs the target’s read scope as well.', comments),
  event('comment.updated', 'comment', 'updated', 'A comment’s text was edited. Needs the target’s read scope as well.', comments),
  event('comment.deleted', 'comment', 'deleted', 'A comment was deleted (payload: its id, target and author, never its text). Needs the target’s read scope as well.', comments),
  // v0 legacy webhooks are v0 resources: their own events reach no v1 channel.
  { type: 'legacy_webhook.created', resourceType: 'webhooks', action: 'created', readScopes: [], description: 'A legacy v0 webhook was registered.', channels: [] },
  { type: 'legacy_webhook.deleted', resourceType: 'webhooks', action: 'deleted', readScopes: [], description: 'A legacy v0 webhook was deleted.', channels: [] },
];

const BY_TYPE = new Map(EVENT_CATALOG.map((spec) => [spec.type, spec]));

/** The outbox aggregate type of a resource type (wire name), e.g. `time_entry` for `time-entries`. */
const AGGREGATE_OF = new Map(Object.entries(AGGREGATES).map(([aggregate, { resourceType }]) => [resourceType as string, aggregate as AggregateType]));

export function aggregateOfResourceType(resourceType: string): AggregateType | undefined {
  return AGGREGATE_OF.get(resourceType);
}

export function eventSpec(type: string): EventTypeSpec | undefined {
  return BY_TYPE.get(type);
}

/** Whether a credential with these effective scopes may learn of this event (type and payload). */
export function mayReceive(scopes: readonly string[], spec: EventTypeSpec, payload: unknown): boolean {
  const held = new Set(scopes);
  return spec.readScopes.every((s) => held.has(s)) && (spec.payloadScopes?.(payload) ?? []).every((s) => held.has(s));
}
