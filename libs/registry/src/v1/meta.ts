import { z } from 'zod';
import type { OperationDefinition } from '../types.js';
import { family } from './builders.js';

const f = family('meta');

export const ApiVersion = z
  .object({
    apiVersion: z.literal('v1'),
    openapiUrl: z.string().describe('Relative URL of the v1 OpenAPI document.'),
    legacy: z.object({ version: z.literal('0.4.5'), status: z.literal('frozen-legacy') }),
    authentication: z
      .object({
        signInUrl: z.url().describe('The sign-in page: a person signs in by e-mail link (docs/authentication.md).'),
        accountUrl: z.url().describe("The account page: the signed-in person's workspaces and personal access tokens."),
        deviceVerificationUrl: z.url().describe('Where a person enters the user code of a device login (RFC 8628 verification_uri).'),
        deviceAuthorizationUrl: z.url().describe('Where a command-line client starts a device login (RFC 8628 device authorization endpoint).'),
        tokenUrl: z.url().describe('Where a command-line client polls for the personal access token of an approved device login (RFC 8628 3.4).'),
      })
      .describe("The auth service's pages and endpoints: how a person gets a credential of their own."),
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
