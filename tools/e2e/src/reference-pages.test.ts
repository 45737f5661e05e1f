import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { chromium, type Browser, type Page } from 'playwright-core';
import { routeCoverage } from '@workcell/http';
import { openApiDocument, v1Operations } from '@workcell/registry';
import { type RunningApp, startApp, useTestEnvironment } from '@workcell/testing';
import { createBareApiV1App, useApiApps } from './support/apps.js';

/**
 * The API reference pages (issue 15): each API app serves a Scalar page of its generation's document, with its
 * assets, compressed, and no credential; the page shows what the running service really serves. The browser part
 * drives Debian's Chromium through playwright-core (never a downloaded browser): it renders operations, shows an
 * unimplemented one as such, sends a request with "Test Request" to the running API, loads nothing from any other
 * host, and saves screenshots under the test's temp directory.
 */

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
// eslint-disable-next-line no-restricted-properties -- how the machine was set up (.ci/run), not a service's configuration
const { CI: ci, WORKCELL_CHROMIUM_UNAVAILABLE: cannotInstall } = process.env;
/**
 * Why the browser check cannot run here, or null. .ci/run installs Debian's chromium and says so in
 * WORKCELL_CHROMIUM_UNAVAILABLE when it cannot; in CI without either the check fails rather than skip. On a
 * developer's machine without it, it is skipped, and said so (like the CLI's keyring check).
 */
const skipReason = hasChromium ? null : (cannotInstall ?? (ci ? null : `${CHROMIUM} is not installed (apt-get install chromium; .ci/run installs it)`));
if (skipReason) console.warn(`reference pages: the headless Chromium check is SKIPPED: ${skipReason}`);
const inBrowser = skipReason ? it.skip : it;

const env = useTestEnvironment();

interface Raw {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Buffer;
}

/** A GET with exactly these headers (fetch would add and undo Accept-Encoding itself), the body as sent. */
function get(url: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    httpRequest(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

const decoded = (raw: Raw) => {
  const coding = raw.headers['content-encoding'];
  return (coding === 'br' ? brotliDecompressSync(raw.body) : coding === 'gzip' ? gunzipSync(raw.body) : raw.body).toString('utf8');
};

type Doc = { info: { description: string }; servers: { url: string; variables?: Record<string, { default: string }> }[]; paths: Record<string, Record<string, Record<string, unknown>>> };

describe('API reference pages', () => {
  const apps = useApiApps(env);

  it('serves each page, its script and its document without a credential, compressed when the client accepts it', async () => {
    for (const [app, page] of [
      [apps.v1, '/v1/docs'],
      [apps.v0, '/docs'],
    ] as const) {
      const bare = await get(`${app.url}${page}`);
      assert.equal(bare.status, 301, page);
      assert.equal(bare.headers['location'], `${page}/`);
      const html = await get(`${app.url}${page}/`, { 'accept-encoding': 'gzip' });
      assert.equal(html.status, 200, page);
      assert.match(String(html.headers['content-type']), /^text\/html/);
      const markup = decoded(html);
      // The script is the app's own; nothing names another host.
      assert.match(markup, /<script src="js\/scalar\.js"><\/script>/);
      assert.doesNotMatch(markup, /https?:\/\/(?!127\.0\.0\.1)/);
      const script = await get(`${app.url}${page}/js/scalar.js`, { 'accept-encoding': 'br, gzip' });
      assert.equal(script.status, 200);
      assert.equal(script.headers['content-encoding'], 'br');
      assert.ok(script.body.length < decoded(script).length / 3, 'the script is sent compressed');
      // Revalidation: the same representation answers 304.
      const again = await get(`${app.url}${page}/js/scalar.js`, { 'accept-encoding': 'br, gzip', 'if-none-match': String(script.headers['etag']) });
      assert.equal(again.status, 304);
      for (const coding of ['br', 'gzip', 'identity'] as const) {
        const document = await get(`${app.url}${page}/openapi.json`, { 'accept-encoding': coding });
        assert.equal(document.status, 200);
        assert.equal(document.headers['content-encoding'], coding === 'identity' ? undefined : coding, `${page} ${coding}`);
        assert.equal(document.headers['vary'], 'accept-encoding');
        assert.ok((JSON.parse(decoded(document)) as Doc).paths, `${page} ${coding}`);
      }
    }
    // The registry's own documents: the same bytes as before, compressed too.
    for (const [app, path, generation] of [
      [apps.v1, '/v1/openapi.json', 'v1'],
      [apps.v0, '/openapi.json', 'v0'],
    ] as const) {
      const document = await get(`${app.url}${path}`, { 'accept-encoding': 'gzip, br;q=0' });
      assert.equal(document.headers['content-encoding'], 'gzip');
      assert.equal(decoded(document), openApiDocument(generation).text);
    }
  });

  it('shows what the running service serves: unimplemented operations marked with their 501, this service as the first server', async () => {
    // Every operation has a handler in api-v1 (nothing marked); an api-v1 without controllers has none (all marked).
    assert.deepEqual(routeCoverage(apps.v1.app).notImplemented, []);
    const bareApi = await startApp(createBareApiV1App, env.config);
    try {
      assert.deepEqual(routeCoverage(bareApi.app).implemented, []);
      for (const app of [apps.v1, bareApi]) {
        const coverage = routeCoverage(app.app);
        const doc = JSON.parse(decoded(await get(`${app.url}/v1/docs/openapi.json`))) as Doc;
        for (const op of v1Operations) {
          const operation = doc.paths[op.path]![op.method.toLowerCase()]!;
          const implemented = coverage.implemented.includes(op.operationId);
          assert.equal(operation['x-implemented'], implemented, op.operationId);
          assert.equal(String(operation['description']).startsWith('**Not implemented yet: answers 501 `not_implemented`**'), !implemented, op.operationId);
          assert.equal('501' in (operation['responses'] as object), !implemented, op.operationId);
        }
        assert.match(doc.info.description, new RegExp(`serves ${coverage.implemented.length} of these 237 operations`));
        assert.deepEqual(
          doc.servers.map((s) => s.url),
          ['/', '{regional_base_url}'],
        );
        assert.equal(doc.servers[1]?.variables?.['regional_base_url']?.default, env.config.baseUrls.v1);
      }
    } finally {
      await bareApi.close();
    }
    const legacy = JSON.parse(decoded(await get(`${apps.v0.url}/docs/openapi.json`))) as Doc;
    assert.deepEqual(
      legacy.servers.map((s) => [s.url, Object.values(s.variables ?? {})[0]?.default]),
      [
        ['/', undefined],
        ['{base_url}', env.config.baseUrls.v0],
        ['{base_url_alt}', env.config.baseUrls.v0Alt],
      ],
    );
  });

  it('documents what the public operations send: an undeclared query parameter is 400 validation_failed there too', async () => {
    const doc = JSON.parse(openApiDocument('v1').text) as Doc;
    for (const op of v1Operations.filter((o) => !o.authenticated)) {
      const declared = (doc.paths[op.path]![op.method.toLowerCase()]!['responses'] as Record<string, unknown>)['400'];
      assert.deepEqual(declared, { $ref: '#/components/responses/BadRequest' }, op.operationId);
      const reply = await get(`${apps.v1.url}${op.path}?undeclared=1`);
      assert.equal(reply.status, 400, op.operationId);
      assert.equal((JSON.parse(decoded(reply)) as { errors: { code: string }[] }).errors[0]?.code, 'validation_failed', op.operationId);
    }
  });

  describe('in headless Chromium', () => {
    let browser: Browser;
    const shots = mkdtempSync(join(tmpdir(), 'workcell-reference-pages-'));
    /** Requests the pages made to any other origin (each is refused: the pages must work offline). */
    const elsewhere: string[] = [];

    beforeAll(async () => {
      if (!hasChromium) return;
      browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
    });
    afterAll(async () => {
      await browser?.close();
    });

    /** A page that may reach only this app; everything else is refused and recorded. */
    async function open(app: RunningApp, path: string): Promise<Page> {
      const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
      await page.route('**/*', (route) => {
        if (route.request().url().startsWith(`${app.url}/`)) return route.continue();
        elsewhere.push(route.request().url());
        return route.abort();
      });
      await page.goto(`${app.url}${path}`);
      return page;
    }

    inBrowser('v1: renders operations, marks an unimplemented one, and "Test Request" reaches the API', async () => {
      assert.ok(hasChromium, `${CHROMIUM} is missing in CI, where .ci/run installs it (or sets WORKCELL_CHROMIUM_UNAVAILABLE saying why it could not)`);
      const started = Date.now();
      const page = await open(apps.v1, '/v1/docs#tag/tasks/GET/v1/tasks/{id}');
      await page.getByRole('heading', { name: 'Get task', exact: true }).waitFor({ timeout: 60_000 });
      assert.ok(await page.getByText('tasks:read').first().isVisible());

      // Every operation has a handler in api-v1; an api-v1 without controllers shows one without.
      const bareApi = await startApp(createBareApiV1App, env.config);
      const notImplementedShot = join(shots, 'v1-not-implemented.png');
      try {
        const missing = v1Operations.find((op) => op.operationId === 'getTask')!;
        const bare = await open(bareApi, `/v1/docs#tag/${missing.family}/${missing.method}${missing.path}`);
        await bare.getByRole('heading', { name: missing.summary, exact: true }).waitFor({ timeout: 60_000 });
        await bare.getByText('Not implemented yet: answers 501').first().waitFor({ timeout: 30_000 });
        assert.ok(await bare.getByText('Not implemented', { exact: true }).first().isVisible(), 'the badge');
        await bare.screenshot({ path: notImplementedShot });
        await bare.close();
      } finally {
        await bareApi.close();
      }

      // "Test Request" on getApiVersion, sent to this service (the document's first server).
      await page.goto(`${apps.v1.url}/v1/docs#tag/meta/GET/v1`);
      await page.getByRole('heading', { name: 'Get the API version and discovery links', exact: true }).waitFor({ timeout: 30_000 });
      await page.getByRole('button', { name: 'Test Request' }).first().click();
      const answered = page.waitForResponse((response) => response.url() === `${apps.v1.url}/v1` && response.request().method() === 'GET', { timeout: 30_000 });
      await page.getByRole('button', { name: /^Send/ }).first().click();
      const response = await answered;
      assert.equal(response.status(), 200);
      assert.ok(response.headers()['x-request-id'], 'answered by the API (it sets X-Request-Id)');
      // The answer is shown in the client: the body's real openapiUrl (the document's example says otherwise).
      await page.getByText('"/v1/openapi.json"').first().waitFor({ timeout: 30_000 });
      await page.getByText('200 OK').first().waitFor({ timeout: 30_000 });
      const tryItShot = join(shots, 'v1-try-it.png');
      await page.screenshot({ path: tryItShot });
      await page.close();
      console.log(`reference pages: v1 checked in Chromium in ${Date.now() - started} ms; screenshots: ${notImplementedShot}, ${tryItShot}`);
      assert.deepEqual(elsewhere, [], 'the page loaded something from another host');
    });

    inBrowser('v0: renders the frozen operations with their examples', async () => {
      assert.ok(hasChromium, `${CHROMIUM} is missing in CI, where .ci/run installs it`);
      const page = await open(apps.v0, '/docs#tag/tasks/GET/tasks');
      await page.getByRole('heading', { name: 'GET /tasks (frozen v0)', exact: true }).waitFor({ timeout: 60_000 });
      assert.ok(await page.getByText('v1 replacement: listTasks').first().isVisible());
      const shot = join(shots, 'v0-reference.png');
      await page.screenshot({ path: shot });
      await page.close();
      console.log(`reference pages: v0 screenshot: ${shot}`);
      assert.deepEqual(elsewhere, [], 'the page loaded something from another host');
    });
  });
});
