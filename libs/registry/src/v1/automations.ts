import { z } from 'zod';
import {
  archivableFields,
  casPatchOf,
  decimalInteger,
  ExpectedVersion,
  LongText,
  Name,
  ResourceId,
  ShortText,
  Timestamp,
  Version,
} from '../schemas/common.js';
import type { OperationDefinition } from '../types.js';
import { archivableCrud, family } from './builders.js';

const f = family('automations');

export const AutomationAction = z
  .object({
    id: z.string().describe('Action key, e.g. tasks.create'),
    name: z.string(),
    description: z.string(),
    category: z.string(),
    requiredScopes: z.array(z.string()).describe('Scopes a flow using this action needs on write.'),
    inputSchema: z.record(z.string(), z.unknown()).describe('JSON Schema of the action input.'),
  })
  .meta({ id: 'AutomationAction', description: 'Metadata of an automation action.' });

export const AutomationTrigger = z
  .strictObject({
    eventType: z.string().min(1).max(100),
    conditions: z.record(z.string().max(100), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
  })
  .meta({ id: 'AutomationTrigger', description: 'Event that starts a run.' });

export const AutomationStep = z
  .strictObject({ actionId: z.string().min(1).max(100), input: z.record(z.string().max(100), z.unknown()) })
  .meta({ id: 'AutomationStep', description: 'One step of a flow.' });

export const AutomationDefinition = z
  .object({
    ...archivableFields,
    name: z.string(),
    description: z.string().nullable(),
    status: z.enum(['draft', 'published']),
    trigger: AutomationTrigger,
    steps: z.array(AutomationStep),
    publishedVersion: z.number().int().nullable(),
    version: Version,
  })
  .meta({ id: 'AutomationDefinition', description: 'An automation definition (draft plus published versions).' });

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
export const AutomationDefinitionUpdate = casPatchOf(
  definitionFields,
  'AutomationDefinitionUpdate',
  'Compare-and-set of the draft; the credential also needs the scopes the flow implies.',
);

export const AutomationVersion = z
  .object({
    definitionId: ResourceId,
    number: z.number().int().min(1),
    trigger: AutomationTrigger,
    steps: z.array(AutomationStep),
    note: z.string().nullable(),
    publishedAt: Timestamp,
    publishedBy: ResourceId,
  })
  .meta({ id: 'AutomationVersion', description: 'An immutable published version.' });

export const AutomationPublish = z
  .strictObject({ expectedVersion: ExpectedVersion, note: ShortText.optional() })
  .meta({ id: 'AutomationPublish', description: 'Publish the current draft if it is still at expectedVersion.' });

export const AutomationRun = z
  .object({
    id: ResourceId,
    definitionId: ResourceId,
    versionNumber: z.number().int(),
    status: z.enum(['running', 'succeeded', 'failed', 'aborted']),
    startedAt: Timestamp,
    endedAt: Timestamp.nullable(),
    error: z.string().nullable(),
  })
  .meta({ id: 'AutomationRun', description: 'One run of an automation.' });

export const automationOperations = [
  f.list('listAutomationActions', '/v1/automation-actions', { scopes: ['automations:read'], item: AutomationAction }),
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
  }),
  f.action('POST', 'publishAutomationDefinition', '/v1/automation-definitions/{id}/publish', {
    summary: 'Publish the draft as a new version',
    dynamicScopes: 'automation-flow',
    scopes: ['automations:write'],
    concurrency: 'cas',
    success: 201,
    body: AutomationPublish,
    data: AutomationVersion,
  }),
  f.list('listAutomationDefinitionVersions', '/v1/automation-definitions/{id}/versions', {
    scopes: ['automations:read'],
    item: AutomationVersion,
  }),
  f.get('getAutomationDefinitionVersion', '/v1/automation-definitions/{id}/versions/{versionNumber}', {
    scopes: ['automations:read'],
    pathParams: { versionNumber: decimalInteger(1, 1_000_000) },
    data: AutomationVersion,
  }),
  f.list('listAutomationRuns', '/v1/automation-runs', {
    scopes: ['automations:read'],
    query: { definitionId: ResourceId.optional(), status: z.enum(['running', 'succeeded', 'failed', 'aborted']).optional() },
    item: AutomationRun,
  }),
  f.get('getAutomationRun', '/v1/automation-runs/{id}', { scopes: ['automations:read'], data: AutomationRun }),
  f.action('POST', 'abortAutomationRun', '/v1/automation-runs/{id}/abort', {
    summary: 'Abort a running automation',
    scopes: ['automations:run'],
    async: true,
  }),
] satisfies readonly OperationDefinition[];
