import { z } from 'zod';
import { ResourceId, Timestamp } from '../schemas/common.js';
import type { OperationDefinition } from '../types.js';
import { family } from './builders.js';

const f = family('integrations');

export const Integration = z
  .object({
    id: ResourceId,
    provider: z.string(),
    name: z.string(),
    status: z.enum(['active', 'error', 'disabled']),
    installedAt: Timestamp,
    lastSyncAt: Timestamp.nullable(),
    lastError: z.string().nullable(),
  })
  .meta({ id: 'Integration', description: 'Installation status of an integration; provider secrets are never returned.' });

export const integrationOperations = [
  f.list('listIntegrations', '/v1/integrations', { scopes: ['integrations:read'], item: Integration }),
  f.get('getIntegration', '/v1/integrations/{id}', { scopes: ['integrations:read'], data: Integration }),
] satisfies readonly OperationDefinition[];
