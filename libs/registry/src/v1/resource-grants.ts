import { z } from 'zod';
import { ExpectedVersion, ResourceId, Version } from '../schemas/common.js';
import type { OperationDefinition } from '../types.js';
import { family } from './builders.js';
import { RESOURCE_DOMAINS } from './search.js';

const f = family('resource-grants');

/**
 * What a grant can name: the resource domains of search and exports, and the scheduling resources that bound a service
 * account on the delegated calendar routes (/v1/members/{id}/appointments, …/absences, …/availability;
 * docs/scheduling.md). `users` is listed but refused with 400: members are governed by roles, not grants.
 */
export const GRANT_RESOURCE_TYPES = [...RESOURCE_DOMAINS, 'appointments', 'absences'] as const;
export type GrantResourceTypeName = (typeof GRANT_RESOURCE_TYPES)[number];

export const ResourceGrant = z
  .strictObject({
    resourceType: z
      .enum(GRANT_RESOURCE_TYPES)
      .describe(
        'A resource domain, or `appointments` / `absences`: what a service account may read or change on the delegated calendar routes ' +
          '(/v1/members/{id}/…); creating there needs `resourceId: null` with `write`, availability `read` on both with `resourceId: null`. ' +
          '`users` cannot be granted (400).',
      ),
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
