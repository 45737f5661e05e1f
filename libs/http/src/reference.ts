import { existsSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '@workcell/config';
import { openApiDocument } from '@workcell/registry';
import { Precompressed } from './compression.js';
import type { ApiGeneration, RouteCoverage } from './operations.js';
import { readReferenceAsset, REFERENCE_ASSETS_DIRECTORY, REFERENCE_PAGES, REFERENCE_SCRIPT, referencePageFile } from './reference-assets.js';

export { REFERENCE_PAGES } from './reference-assets.js';
import { ProtocolError, toProblem } from './problems.js';
import type { ErrorRenderer } from './protocols.js';

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
 * `{page}/js/scalar.js` (Scalar's script) and `{page}/openapi.json` (referenceDocument), with ETags and in the coding
 * the client accepts. Nothing is loaded or compressed at start-up: the page and the script were made at build time
 * (reference-assets.ts) and are read on their first request, the document is built then.
 */
export function installApiReference(fastify: FastifyInstance, generation: ApiGeneration, document: () => string): void {
  const page = REFERENCE_PAGES[generation];
  for (const file of [referencePageFile(generation), REFERENCE_SCRIPT]) {
    if (!existsSync(`${REFERENCE_ASSETS_DIRECTORY}${file}`))
      throw new Error(`the reference page's ${file} is missing from ${REFERENCE_ASSETS_DIRECTORY}: build @workcell/http (npx nx run @workcell/http:build)`);
  }
  const once = <T>(make: () => Promise<T>) => {
    let made: Promise<T> | undefined;
    return () =>
      (made ??= make().catch((error: unknown) => {
        made = undefined;
        throw error;
      }));
  };
  const built = (file: string) =>
    once(async () => {
      const { body, ...prebuilt } = await readReferenceAsset(file);
      return new Precompressed(body, undefined, prebuilt);
    });
  const html = built(referencePageFile(generation));
  const script = built(REFERENCE_SCRIPT);
  const openApi = once(async () => new Precompressed(Buffer.from(document())));
  const serve = (url: string, body: () => Promise<Precompressed>, contentType: string) =>
    fastify.get(url, async (request, reply) => {
      // Revalidated on every use (ETag): cheap, and a new release's page and script are seen at once.
      void reply.header('cache-control', 'no-cache');
      return (await body()).send(request, reply, contentType);
    });
  fastify.get(page, async (_request, reply) => reply.redirect(`${page}/`, 301));
  serve(`${page}/`, html, 'text/html; charset=utf-8');
  serve(`${page}/js/${REFERENCE_SCRIPT}`, script, 'application/javascript; charset=utf-8');
  serve(`${page}/openapi.json`, openApi, 'application/json; charset=utf-8');
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
