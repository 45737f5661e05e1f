import { z } from 'zod';
import { ResourceId, Timestamp } from '../schemas/common.js';
import type { V1Scope } from '../scopes.js';
import type { OperationDefinition } from '../types.js';
import { family } from './builders.js';

const f = family('search');

/**
 * Resource domains that search and exports can name, with the read scope each
 * one needs (the `requested-domains` dynamic rule).
 */
export const DOMAIN_READ_SCOPES = {
  projects: 'projects:read',
  tasks: 'tasks:read',
  'time-entries': 'time-entries:read',
  contacts: 'contacts:read',
  'call-notes': 'call-notes:read',
  'contact-groups': 'contact-groups:read',
  lists: 'lists:read',
  services: 'services:read',
  tags: 'tags:read',
  'project-templates': 'project-templates:read',
  products: 'products:read',
  'product-groups': 'product-groups:read',
  'project-statements': 'project-statements:read',
  documents: 'documents:read',
  files: 'files:read',
  comments: 'comments:read',
  users: 'users:read',
} as const satisfies Record<string, V1Scope>;
export type ResourceDomain = keyof typeof DOMAIN_READ_SCOPES;
export const RESOURCE_DOMAINS = Object.keys(DOMAIN_READ_SCOPES) as ResourceDomain[];
export const ResourceDomainSchema = z.enum(RESOURCE_DOMAINS as [ResourceDomain, ...ResourceDomain[]]);

export const SearchResult = z
  .object({
    type: ResourceDomainSchema,
    id: ResourceId,
    title: z.string(),
    snippet: z.string().nullable(),
    score: z.number(),
    updatedAt: Timestamp,
  })
  .meta({ id: 'SearchResult', description: 'One federated search hit.' });

export const searchOperations = [
  f.list('searchResources', '/v1/search', {
    summary: 'Federated search across resource domains',
    description:
      'Needs search:read plus the read scope of every requested domain in `types` (403 insufficient_scope otherwise). ' +
      'Without `types`, only the domains whose read scope the credential holds are searched. ' +
      "Only what the caller may read is matched: a user's e-mail address only with members:pii:read (otherwise its name alone).",
    scopes: ['search:read'],
    dynamicScopes: 'requested-domains',
    query: {
      q: z.string().min(1).max(200),
      types: z
        .string()
        .max(1000)
        .regex(/^[a-z-]+(,[a-z-]+)*$/)
        .optional()
        .describe(`Comma-separated domains: ${RESOURCE_DOMAINS.join(', ')}.`),
    },
    item: SearchResult,
  }),
] satisfies readonly OperationDefinition[];
