import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { ApiGeneration } from './operations.js';

/**
 * The API reference pages (Scalar): one per generation, served by the API app itself at these paths, with its
 * script and the document it shows, and nothing loaded from anywhere else (no CDN, no fonts, no telemetry), so the
 * page works offline. They are infrastructure like /healthz, not API operations: no credential, outside the
 * registry (which lists the API's operations, and which the page documents).
 */
export const REFERENCE_PAGES: Readonly<Record<ApiGeneration, string>> = { v1: '/v1/docs', v0: '/docs' };

/**
 * The reference pages' static parts, made when the library is built (`build-reference-assets.ts`, the second step of
 * `@workcell/http:build`), never while a service starts: each generation's page (HTML) and Scalar's 4 MB script,
 * with the script's br and gzip codings beside it. Loading Scalar's module (a 4 MB bundle) and compressing its script
 * at start-up cost about a second on a quiet machine and more than Fastify's 10 s plugin timeout on a loaded one,
 * which stopped `npm start` (issue 25). A service reads these files on the first request for a page.
 */
export const REFERENCE_ASSETS_DIRECTORY = fileURLToPath(new URL('../dist/reference-assets/', import.meta.url));

export const REFERENCE_SCRIPT = 'scalar.js';
export const referencePageFile = (generation: ApiGeneration) => `${generation}.html`;

/** The pages' Scalar configuration; the document each shows is `{page}/openapi.json` (referenceDocument). */
export function referenceConfiguration(generation: ApiGeneration, page: string) {
  return {
    url: `${page}/openapi.json`,
    pageTitle: generation === 'v1' ? 'Workcell API v1 reference' : 'Workcell API v0 reference (frozen legacy)',
    // Nothing from elsewhere: no web fonts, no telemetry, no AI agent, no MCP or developer-tools links.
    withDefaultFonts: false,
    telemetry: false,
    agent: { disabled: true },
    mcp: { disabled: true },
    showDeveloperTools: 'never' as const,
    // A credential typed into "Test Request" lives only as long as the page (not in local storage).
    persistAuth: false,
  };
}

/**
 * Quality 9: within 11 % of quality 11 on Scalar's script (1.05 MB against 0.94 MB) at a twelfth of the time
 * (0.8 s against 10 s), which a build that changes Scalar pays.
 */
const BUILD_BROTLI_QUALITY = 9;

/**
 * Renders both pages and extracts the script through Scalar's own Fastify plugin (an in-process request to a
 * throwaway instance: the plugin's public behaviour, so an upgrade of Scalar needs nothing here), then writes them.
 * Skipped when the files are newer than the installed Scalar module and this one.
 */
export async function writeReferenceAssets(pages: Readonly<Record<ApiGeneration, string>>, directory = REFERENCE_ASSETS_DIRECTORY): Promise<'written' | 'up to date'> {
  const scalarModule = fileURLToPath(import.meta.resolve('@scalar/fastify-api-reference'));
  const sources = await Promise.all([scalarModule, fileURLToPath(import.meta.url)].map((file) => stat(file).then((s) => s.mtimeMs)));
  const outputs = [REFERENCE_SCRIPT, `${REFERENCE_SCRIPT}.br`, `${REFERENCE_SCRIPT}.gz`, ...Object.keys(pages).map((g) => referencePageFile(g as ApiGeneration))];
  const written = await Promise.all(
    outputs.map((file) =>
      stat(`${directory}${file}`).then(
        (s) => s.mtimeMs,
        () => 0,
      ),
    ),
  );
  if (Math.min(...written) > Math.max(...sources)) return 'up to date';

  // Imported only when writing: an up-to-date build then costs a few stat calls.
  const [{ default: Fastify }, { default: scalar }, { compress }] = await Promise.all([import('fastify'), import('@scalar/fastify-api-reference'), import('./compression.js')]);
  const fastify = Fastify({ logger: false });
  for (const [generation, page] of Object.entries(pages) as [ApiGeneration, string][]) {
    await fastify.register(scalar, { routePrefix: page as `/${string}`, configuration: referenceConfiguration(generation, page) });
  }
  await fastify.ready();
  const fetched = async (url: string) => {
    const reply = await fastify.inject({ method: 'GET', url });
    if (reply.statusCode !== 200) throw new Error(`Scalar's plugin answered ${reply.statusCode} to ${url}`);
    return reply.rawPayload;
  };
  await mkdir(directory, { recursive: true });
  const script = await fetched(`${Object.values(pages)[0]}/js/${REFERENCE_SCRIPT}`);
  const [br, gz] = await Promise.all([compress('br', script, BUILD_BROTLI_QUALITY), compress('gzip', script)]);
  await Promise.all([writeFile(`${directory}${REFERENCE_SCRIPT}`, script), writeFile(`${directory}${REFERENCE_SCRIPT}.br`, br), writeFile(`${directory}${REFERENCE_SCRIPT}.gz`, gz)]);
  for (const [generation, page] of Object.entries(pages) as [ApiGeneration, string][]) {
    await writeFile(`${directory}${referencePageFile(generation)}`, await fetched(`${page}/`));
  }
  await fastify.close();
  return 'written';
}

/** A built asset's bytes with its prebuilt codings, where the build made them. */
export async function readReferenceAsset(file: string, directory = REFERENCE_ASSETS_DIRECTORY): Promise<{ body: Buffer; br?: Buffer; gzip?: Buffer }> {
  const optional = (path: string) =>
    readFile(path).then(
      (b) => b,
      () => undefined,
    );
  const [body, br, gz] = await Promise.all([readFile(`${directory}${file}`), optional(`${directory}${file}.br`), optional(`${directory}${file}.gz`)]);
  return { body, ...(br ? { br } : {}), ...(gz ? { gzip: gz } : {}) };
}
