import assert from 'node:assert/strict';
import { mkdtemp, rm, stat, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { Precompressed } from './compression.js';
import { readReferenceAsset, REFERENCE_ASSETS_DIRECTORY, REFERENCE_PAGES, REFERENCE_SCRIPT, referencePageFile, writeReferenceAssets } from './reference-assets.js';

describe('the reference pages are made at build time (issue 25: nothing heavy while a service starts)', () => {
  let directory: string;
  beforeAll(async () => {
    directory = `${await mkdtemp(`${tmpdir()}/reference-assets-`)}/`;
  });
  afterAll(() => rm(directory, { recursive: true, force: true }));

  it('writes each page and Scalar script with its br and gzip codings, and skips a build that changes nothing', async () => {
    assert.equal(await writeReferenceAssets(REFERENCE_PAGES, directory), 'written');
    const script = await readReferenceAsset(REFERENCE_SCRIPT, directory);
    assert.ok(script.body.length > 1_000_000, "Scalar's script");
    assert.deepEqual(brotliDecompressSync(script.br!), script.body);
    assert.deepEqual(gunzipSync(script.gzip!), script.body);
    for (const [generation, page] of Object.entries(REFERENCE_PAGES) as ['v0' | 'v1', string][]) {
      const html = (await readReferenceAsset(referencePageFile(generation), directory)).body.toString('utf8');
      assert.match(html, /<script src="js\/scalar\.js"><\/script>/);
      assert.ok(html.includes(`"url": "${page}/openapi.json"`), html);
      assert.ok(html.includes('"telemetry": false') && html.includes('"withDefaultFonts": false'), html);
    }
    const before = (await stat(`${directory}${REFERENCE_SCRIPT}`)).mtimeMs;
    assert.equal(await writeReferenceAssets(REFERENCE_PAGES, directory), 'up to date');
    assert.equal((await stat(`${directory}${REFERENCE_SCRIPT}`)).mtimeMs, before);
    // An older file than the installed Scalar (an upgrade) makes the set again.
    await utimes(`${directory}${referencePageFile('v0')}`, new Date(0), new Date(0));
    assert.equal(await writeReferenceAssets(REFERENCE_PAGES, directory), 'written');
  });

  it("the library's build made them, and a service answers with the prebuilt coding instead of compressing", async () => {
    const built = await readReferenceAsset(REFERENCE_SCRIPT, REFERENCE_ASSETS_DIRECTORY);
    assert.ok(built.br && built.gzip, 'npx nx run @workcell/http:build writes dist/reference-assets');
    const marker = Buffer.from('prebuilt, not compressed here');
    const fastify = Fastify();
    const asset = new Precompressed(built.body, undefined, { br: marker });
    fastify.get('/script', (request, reply) => asset.send(request, reply, 'application/javascript'));
    const reply = await fastify.inject({ method: 'GET', url: '/script', headers: { 'accept-encoding': 'br' } });
    assert.equal(reply.headers['content-encoding'], 'br');
    assert.deepEqual(reply.rawPayload, marker);
    await fastify.close();
  });
});
