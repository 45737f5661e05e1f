import { z } from 'zod';
import type { OperationDefinition } from '../types.js';
import { family } from './builders.js';

const f = family('meta');

export const ApiVersion = z
  .object({
    apiVersion: z.literal('v1'),
    openapiUrl: z.string().describe('Relative URL of the v1 OpenAPI document.'),
    legacy: z.object({ version: z.literal('0.4.5'), status: z.literal('frozen-legacy') }),
  })
  .meta({ id: 'ApiVersion', description: 'API generation and discovery links (replaces v0 `GET /`).' });

export const metaOperations = [
  f.get('getApiVersion', '/v1', {
    public: true,
    summary: 'Get the API version and discovery links',
    data: ApiVersion,
  }),
  f.action('GET', 'getOpenApiDocument', '/v1/openapi.json', {
    public: true,
    summary: 'Get the v1 OpenAPI document',
    response: { kind: 'document' },
  }),
] satisfies readonly OperationDefinition[];
