import { z } from 'zod';
import { ResourceId, Timestamp } from '../schemas/common.js';
import type { OperationDefinition } from '../types.js';
import { family } from './builders.js';

const f = family('workspace');

export const Workspace = z
  .object({
    id: ResourceId,
    name: z.string(),
    region: z.string(),
    cell: z.string(),
    status: z.enum(['active', 'locked']),
    createdAt: Timestamp,
  })
  .meta({ id: 'Workspace', description: 'The one workspace (v0: team) of the credential.' });

export const WorkspaceCapabilities = z
  .object({
    capabilities: z.array(z.object({ key: z.string(), enabled: z.boolean() })),
  })
  .meta({ id: 'WorkspaceCapabilities', description: 'System capabilities available to this workspace.' });

export const WorkspaceEntitlements = z
  .object({
    plan: z.string(),
    entitlements: z.array(z.object({ key: z.string(), limit: z.number().int().nullable(), used: z.number().int().nullable() })),
  })
  .meta({ id: 'WorkspaceEntitlements', description: 'Plan entitlements and their usage.' });

export const workspaceOperations = [
  f.get('getWorkspace', '/v1/workspace', {
    description: 'Usable to separate authentication failure (401) from operation-authorization failure (403).',
    scopes: ['workspace:read'],
    data: Workspace,
  }),
  f.get('getWorkspaceCapabilities', '/v1/workspace/capabilities', {
    scopes: ['workspace:read'],
    data: WorkspaceCapabilities,
  }),
  f.get('getWorkspaceEntitlements', '/v1/workspace/entitlements', {
    scopes: ['workspace:read'],
    data: WorkspaceEntitlements,
  }),
] satisfies readonly OperationDefinition[];
