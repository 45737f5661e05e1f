import { z } from 'zod';
import { ExpectedVersion, ResourceId, Version } from '../schemas/common.js';
import type { OperationDefinition } from '../types.js';
import { family } from './builders.js';
import { ResourceDomainSchema } from './search.js';

const f = family('resource-grants');

export const ResourceGrant = z
  .strictObject({
    resourceType: ResourceDomainSchema,
    resourceId: ResourceId.nullable().describe('null grants every resource of the type.'),
    access: z.enum(['read', 'write']),
  })
  .meta({ id: 'ResourceGrant', description: 'One bounded grant of a service account.' });

export const ResourceGrants = z
  .object({ serviceAccountId: ResourceId, grants: z.array(ResourceGrant), version: Version })
  .meta({ id: 'ResourceGrants', description: 'All resource grants of a service account.' });

export const ResourceGrantsReplace = z
  .strictObject({ expectedVersion: ExpectedVersion, grants: z.array(ResourceGrant).max(1000) })
  .meta({ id: 'ResourceGrantsReplace', description: 'Atomic replacement of the grants.' });

export const resourceGrantOperations = [
  f.get('getServiceAccountResourceGrants', '/v1/service-accounts/{id}/resource-grants', {
    scopes: ['resource-grants:read'],
    data: ResourceGrants,
  }),
  f.replace('replaceServiceAccountResourceGrants', '/v1/service-accounts/{id}/resource-grants', {
    summary: 'Atomically replace the resource grants of a service account',
    scopes: ['resource-grants:write'],
    concurrency: 'cas',
    body: ResourceGrantsReplace,
    data: ResourceGrants,
  }),
] satisfies readonly OperationDefinition[];
