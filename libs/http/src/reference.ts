import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '@workcell/config';
import { openApiDocument } from '@workcell/registry';
import { Precompressed, precompressResponses } from './compression.js';
import type { ApiGeneration, RouteCoverage } from './operations.js';
import { ProtocolError, toProblem } from './problems.js';
import type { ErrorRenderer } from './protocols.js';

/**
 * The API reference pages (Scalar): one per generation, served by the API app itself at these paths, with its
 * script and the document it shows, and nothing loaded from anywhere else (no CDN, no fonts, no telemetry), so the
 * page works offline. They are infrastructure like /healthz, not API operations: no credential, outside the
 * registry (which lists the API's operations, and which the page documents).
 */
export const REFERENCE_PAGES: Readonly<Record<ApiGeneration, string>> = { v1: '/v1/docs', v0: '/docs' };

/** What an operation without a handler answers with (bootstrap's 501 route), said once for it and its page. */
export function notImplemented(operationId: string): ProtocolError {
  return new ProtocolError(501, 'not_implemented', `${operationId} is not implemented yet`);
}

const ERROR_SCHEMAS: Readonly<Record<ApiGeneration, string>> = { v1: '#/components/schemas/ErrorDocument', v0: '#/components/schemas/LegacyError' };
const NOT_IMPLEMENTED_NOTE = '**Not implemented yet: answers 501 `not_implemented`** (after the credential and scope checks).';

type Json = Record<string, unknown>;
type OpenApi = { info: Json & { description: string }; servers: (Json & { variables?: Record<string, Json> })[]; paths: Record<string, Record<string, Json>> };

/**
 * The document a reference page shows: the registry's generated one (`openApiDocument`, what `/v1/openapi.json`
 * serves byte for byte), with what only the running service knows added when serving:
 * - every operation's `x-implemented`; one without a handler gets a "Not implemented" badge (`x-badges`), a note
 *   opening its description and its 501 response, so the page never presents an operation the service does not
 *   serve as if it did;
 * - the servers: this service first (relative, so "try it" sends requests to the address the page was loaded
 *   from), then the document's own, their variables defaulting to this deployment's configured base addresses.
 */
export function referenceDocument(generation: ApiGeneration, coverage: RouteCoverage, config: AppConfig, renderer: ErrorRenderer): string {
  const document = JSON.parse(openApiDocument(generation).text) as OpenApi;
  const missing = new Set(coverage.notImplemented);
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item)) {
      const operationId = String(operation['operationId']);
      const implemented = !missing.has(operationId);
      operation['x-implemented'] = implemented;
      if (implemented) continue;
      operation['x-badges'] = [{ name: 'Not implemented', color: '#b42318', position: 'before' }];
      operation['description'] = `${NOT_IMPLEMENTED_NOTE}\n\n${String(operation['description'] ?? '')}`.trimEnd();
      (operation['responses'] as Json)['501'] = {
        description: 'Not implemented yet (`not_implemented`): the service has no handler for this operation.',
        content: { 'application/json': { schema: { $ref: ERROR_SCHEMAS[generation] }, example: renderer.render(toProblem(notImplemented(operationId)), '0194a1b2-c3d4-7e5f-8a6b-1c2d3e4f5a60') } },
      };
    }
  }
  const total = coverage.implemented.length + coverage.notImplemented.length;
  document.info['x-implemented-operations'] = coverage.implemented.length;
  document.info.description =
    `**This service** serves ${coverage.implemented.length} of these ${total} operations${coverage.notImplemented.length > 0 ? '; the others are marked *Not implemented* and answer 501 `not_implemented` after the credential and scope checks' : ''}. ` +
    '"Test Request" sends requests to this service (the first server).\n\n' +
    document.info.description;
  const configured: Record<string, string> = { regional_base_url: config.baseUrls.v1, base_url: config.baseUrls.v0, base_url_alt: config.baseUrls.v0Alt };
  for (const server of document.servers) {
    for (const [name, variable] of Object.entries(server.variables ?? {})) {
      if (configured[name] !== undefined) variable['default'] = configured[name];
    }
  }
  document.servers.unshift({ url: '/', description: 'This service (the address this page was loaded from)' });
  return JSON.stringify(document);
}

/**
 * Mounts a generation's reference page on an API app: `GET {page}` (redirects to `{page}/`, the page),
 * `{page}/js/scalar.js` (Scalar's bundle, from the installed package) and `{page}/openapi.json` (referenceDocument,
 * built on first use), all precompressed (br or gzip as the client accepts) with ETags, in a scope of their own so
 * nothing else changes for the API's routes.
 */
export async function installApiReference(fastify: FastifyInstance, generation: ApiGeneration, document: () => string): Promise<void> {
  const page = REFERENCE_PAGES[generation];
  let served: string | undefined;
  await fastify.register(async (scope) => {
    precompressResponses(scope);
    scope.addHook('onRequest', async (_request, reply) => {
      // Revalidated on every use (ETag): cheap, and a new release's page and script are seen at once.
      void reply.header('cache-control', 'no-cache');
    });
    scope.get(`${page}/openapi.json`, async (_request, reply) => reply.type('application/json; charset=utf-8').send((served ??= document())));
    // Imported here, by the API apps only: the module holds Scalar's 4 MB bundle (about 200 ms and 35 MB to load),
    // which the auth service and the worker, importing this library too, have no use for.
    const { default: fastifyApiReference } = await import('@scalar/fastify-api-reference');
    await scope.register(fastifyApiReference, {
      routePrefix: page as `/${string}`,
      configuration: {
        url: `${page}/openapi.json`,
        pageTitle: generation === 'v1' ? 'Workcell API v1 reference' : 'Workcell API v0 reference (frozen legacy)',
        // Nothing from elsewhere: no web fonts, no telemetry, no AI agent, no MCP or developer-tools links.
        withDefaultFonts: false,
        telemetry: false,
        agent: { disabled: true },
        mcp: { disabled: true },
        showDeveloperTools: 'never',
        // A credential typed into "Test Request" lives only as long as the page (not in local storage).
        persistAuth: false,
      },
    });
  });
}

const registryDocuments = new Map<ApiGeneration, Precompressed>();

/**
 * The registry's generated document of a generation as `/v1/openapi.json` (and v0's `/openapi.json`) serve it: the
 * exact committed bytes, with their ETag, compressed as the client accepts.
 */
export function servedOpenApiDocument(generation: ApiGeneration): Precompressed {
  let served = registryDocuments.get(generation);
  if (!served) {
    const { text, etag } = openApiDocument(generation);
    served = new Precompressed(Buffer.from(text), etag);
    registryDocuments.set(generation, served);
  }
  return served;
}
