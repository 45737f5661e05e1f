import { z } from 'zod';
import { archivableFields, casPatchOf, decimalInteger, ExpectedVersion, LongText, Name, ResourceId, ShortText, Timestamp, Version } from '../schemas/common.js';
import type { OperationDefinition } from '../types.js';
import { archivableCrud, family } from './builders.js';

const f = family('automations');

export const AutomationAction = z
  .object({
    id: z.string().describe('Action key, e.g. tasks.create; a step names it as actionId.'),
    name: z.string(),
    description: z.string(),
    category: z.string(),
    requiredScopes: z.array(z.string()).describe('Scopes a flow using this action needs on write.'),
    inputSchema: z.record(z.string(), z.unknown()).describe('JSON Schema of the action input (any string value may instead be a template `{{event.<dot path>}}`).'),
  })
  .meta({
    id: 'AutomationAction',
    description:
      "An action the engine offers. Each calls the same domain procedure as the API, with the authority of the definition's owner at run time, in the transaction that advances the run; its requiredScopes are the scopes a flow using it implies.",
  });

export const AutomationTrigger = z
  .strictObject({
    eventType: z.string().min(1).max(100),
    conditions: z
      .record(z.string().max(100), z.union([z.string().max(1000), z.number(), z.boolean(), z.null()]))
      .optional()
      .describe('Equality on dot paths of the event payload (e.g. `task.priority`: `high`); every condition must hold.'),
  })
  .meta({
    id: 'AutomationTrigger',
    description: 'The event that starts a run: an event type of the event catalog (GET /v1/event-catalog) that the owner may receive, and conditions on its payload.',
  });

export const AutomationStep = z.strictObject({ actionId: z.string().min(1).max(100), input: z.record(z.string().max(100), z.unknown()) }).meta({
  id: 'AutomationStep',
  description:
    "One step of a flow: an action of GET /v1/automation-actions and its input, checked against the action's inputSchema on create, update and publish (400 validation_failed, pointers /steps/{i}/input/...), and so are the ids it names (a task, project, list, tag, member or comment target that is not one of this workspace's the caller may see is 400 at its pointer). A string value `{{event.<dot path>}}` is replaced at run time by that value of the triggering event (`event.id`, `event.type`, `event.data.<payload path>`).",
});

export const AutomationDefinition = z
  .object({
    ...archivableFields,
    name: z.string(),
    description: z.string().nullable(),
    status: z.enum(['draft', 'published']),
    trigger: AutomationTrigger,
    steps: z.array(AutomationStep),
    publishedVersion: z.number().int().nullable().describe('The version runs use (the latest published); null while never published.'),
    ownerCredentialId: ResourceId.nullable().describe('The credential that published last: runs act with its authority as it is when they run.'),
    version: Version,
  })
  .meta({
    id: 'AutomationDefinition',
    description:
      'An automation definition: its draft (trigger and steps, changed by compare-and-set) and the number of its latest immutable published version. Only a published, unarchived definition is triggered.',
  });

const definitionFields = z.strictObject({
  name: Name,
  description: LongText.nullable().optional(),
  trigger: AutomationTrigger,
  steps: z.array(AutomationStep).min(1).max(50),
});
export const AutomationDefinitionCreate = definitionFields.meta({
  id: 'AutomationDefinitionCreate',
  description: 'A new draft; the credential also needs the scopes the flow implies.',
});
export const AutomationDefinitionUpdate = casPatchOf(definitionFields, 'AutomationDefinitionUpdate', 'Compare-and-set of the draft; the credential also needs the scopes the flow implies.');

export const AutomationVersion = z
  .object({
    definitionId: ResourceId,
    number: z.number().int().min(1),
    trigger: AutomationTrigger,
    steps: z.array(AutomationStep),
    note: z.string().nullable(),
    publishedAt: Timestamp,
    publishedBy: ResourceId.describe("The credential that published it (the definition's owner from then on)."),
  })
  .meta({ id: 'AutomationVersion', description: 'An immutable published version (never updated: no write path, and the database refuses an update).' });

export const AutomationPublish = z
  .strictObject({ expectedVersion: ExpectedVersion, note: ShortText.optional() })
  .meta({ id: 'AutomationPublish', description: 'Publish the current draft if the definition is still at expectedVersion (its `version`).' });

export const AutomationRun = z
  .object({
    id: ResourceId,
    definitionId: ResourceId,
    versionNumber: z.number().int(),
    eventId: ResourceId.describe('The triggering event (its id in the change feed and webhook deliveries).'),
    eventType: z.string(),
    status: z.enum(['running', 'succeeded', 'failed', 'aborted']),
    stepsCompleted: z.number().int().describe('Steps applied so far; each is applied exactly once.'),
    depth: z.number().int().describe('How many automations deep the run is: 1 when a change no automation made triggered it.'),
    resumeAt: Timestamp.nullable().describe('While a flow.delay step waits: when the run resumes.'),
    startedAt: Timestamp,
    endedAt: Timestamp.nullable(),
    error: z
      .object({ code: z.string(), message: z.string() })
      .nullable()
      .describe("Why the run failed: owner_unauthorized, an action's domain error code (e.g. not_found, validation_failed), internal_error after the last retry, or loop_bound."),
  })
  .meta({ id: 'AutomationRun', description: 'One run of a published version for one triggering event: running, then succeeded, failed or aborted.' });

export const automationOperations = [
  f.list('listAutomationActions', '/v1/automation-actions', {
    description: 'The static catalog of actions a flow may use (tasks.create, tasks.update, comments.create, flow.delay), with the scopes each implies and its input schema. One page.',
    scopes: ['automations:read'],
    item: AutomationAction,
  }),
  ...archivableCrud('automations', {
    singular: 'AutomationDefinition',
    plural: 'AutomationDefinitions',
    path: '/v1/automation-definitions',
    read: ['automations:read'],
    write: ['automations:write'],
    resource: AutomationDefinition,
    create: AutomationDefinitionCreate,
    update: AutomationDefinitionUpdate,
    updateConcurrency: 'cas',
    writeDynamicScopes: 'automation-flow',
    filters: { status: z.enum(['draft', 'published']).optional() },
    descriptions: {
      list: "The workspace's unarchived definitions, oldest first; `status` published: those with a published version.",
      create:
        "A new draft (never published, so it triggers nothing). The trigger's event type must be in the event catalog and the steps' actions and inputs valid, the ids they name this workspace's, templates aside (400 validation_failed with pointers). Needs automations:write plus the scopes the flow implies: every action's requiredScopes and the event type's read scopes (403 insufficient_scope naming the missing ones).",
      update:
        'Compare-and-set of the draft (expectedVersion; 409 version_conflict when stale). Published versions are untouched: a change runs only once published. Same validation and flow-implied scopes as create; an archived definition is 409 conflict until restored.',
      archive: 'Archives the definition: it triggers nothing from then on (runs already started go on; abort them). Versions and runs stay readable.',
      restore: 'Restores an archived definition: its published version triggers again.',
    },
  }),
  f.action('POST', 'publishAutomationDefinition', '/v1/automation-definitions/{id}/publish', {
    summary: 'Publish the draft as a new version',
    description:
      "Compare-and-set on the definition's version (body expectedVersion; 409 version_conflict when stale, so of two concurrent publishes at one version one makes the version and the other is refused): inserts the immutable version previous + 1 with the draft's trigger and steps, in the statement that bumps the definition's version and publishedVersion. The publishing credential becomes the owner, whose authority every run acts with; it needs automations:write and every scope the flow implies (403 insufficient_scope). The draft is validated as on create, the ids its steps name included (400 validation_failed with pointers /steps/{i}/input/...). An archived definition is 409 conflict.",
    dynamicScopes: 'automation-flow',
    scopes: ['automations:write'],
    concurrency: 'cas',
    success: 201,
    body: AutomationPublish,
    data: AutomationVersion,
  }),
  f.list('listAutomationDefinitionVersions', '/v1/automation-definitions/{id}/versions', {
    description: "The definition's published versions in publication order (archived definitions too).",
    scopes: ['automations:read'],
    item: AutomationVersion,
  }),
  f.get('getAutomationDefinitionVersion', '/v1/automation-definitions/{id}/versions/{versionNumber}', {
    description: 'One published version by its number.',
    scopes: ['automations:read'],
    pathParams: { versionNumber: decimalInteger(1, 1_000_000) },
    data: AutomationVersion,
  }),
  f.list('listAutomationRuns', '/v1/automation-runs', {
    description: "The workspace's runs in start order, optionally of one definition and/or in one status. A trigger refused by the loop bound shows as a failed run with error loop_bound.",
    scopes: ['automations:read'],
    query: { definitionId: ResourceId.optional(), status: z.enum(['running', 'succeeded', 'failed', 'aborted']).optional() },
    item: AutomationRun,
  }),
  f.get('getAutomationRun', '/v1/automation-runs/{id}', { description: 'One run: status, steps applied, the triggering event and the error.', scopes: ['automations:read'], data: AutomationRun }),
  f.action('POST', 'abortAutomationRun', '/v1/automation-runs/{id}/abort', {
    summary: 'Abort a running automation',
    description:
      "Marks a running run aborted (compare-and-set on its status, under the run's row lock that each step's transaction also takes, so no step commits after the abort). The abort is done in the request: 202 with an operation that has already succeeded and a Location naming the run. A run that has ended is 409 automation_run_not_running.",
    scopes: ['automations:run'],
    async: true,
    extraErrors: [409],
  }),
] satisfies readonly OperationDefinition[];
