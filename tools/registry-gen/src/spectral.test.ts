import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { REPO_ROOT } from './generate.js';
import { OUTPUT_FILES } from './render.js';

/**
 * Issue 15: Spectral with the OWASP API Security ruleset (`.spectral.yaml`) over both generated documents leaves no
 * error and no warning; every rule it switches off says why.
 */

const SPECTRAL = resolve(REPO_ROOT, 'node_modules/.bin/spectral');
const RULESET = resolve(REPO_ROOT, '.spectral.yaml');

interface Finding {
  readonly code: string;
  readonly severity: number;
  readonly message: string;
  readonly path: readonly (string | number)[];
  readonly source?: string;
}

/** Runs `spectral lint` from the repository root (the ruleset's overrides name the documents by relative path). */
function lint(files: readonly string[]): Promise<Finding[]> {
  return new Promise((done, fail) => {
    const child = spawn(SPECTRAL, ['lint', '--ruleset', RULESET, '--format', 'json', '--quiet', '--fail-severity', 'hint', ...files], { cwd: REPO_ROOT });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    child.on('error', fail);
    child.on('close', () => {
      try {
        done(out.trim() === '' ? [] : (JSON.parse(out) as Finding[]));
      } catch {
        fail(new Error(`spectral printed no JSON: ${out.slice(0, 500)} ${err.slice(0, 2000)}`));
      }
    });
  });
}

const describeFinding = (f: Finding) => `${f.source ?? ''} ${f.code} at ${f.path.join('.')}: ${f.message}`;

describe('Spectral OWASP lint of the OpenAPI documents', () => {
  it('finds nothing in the v1 and v0 documents', async () => {
    const findings = await lint([OUTPUT_FILES.v1OpenApi, OUTPUT_FILES.v0OpenApi]);
    assert.deepEqual(findings.map(describeFinding), []);
  }, 120_000);

  it('can fail: an unbounded request string and an undeclared 500 in a copy of v1 are found', async () => {
    const document = JSON.parse(readFileSync(resolve(REPO_ROOT, OUTPUT_FILES.v1OpenApi), 'utf8')) as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
      components: { schemas: Record<string, { properties: Record<string, Record<string, unknown>> }> };
    };
    delete document.components.schemas['TagCreate']!.properties['name']!['maxLength'];
    delete document.paths['/v1/tags']!['post']!.responses['500'];
    const dir = mkdtempSync(join(tmpdir(), 'spectral-'));
    try {
      // Inside the repository's tree is not needed: the rules that fire here apply to any document.
      const copy = join(dir, 'v1.openapi.json');
      writeFileSync(copy, JSON.stringify(document));
      const codes = (await lint([copy])).map((f) => `${f.code} ${f.path.join('.')}`);
      assert.ok(
        codes.some((c) => c.startsWith('workcell:request-string-limit') && c.includes('TagCreate')),
        codes.join('\n'),
      );
      assert.ok(
        codes.some((c) => c.startsWith('owasp:api8:2023-define-error-responses-500') && c.includes('/v1/tags')),
        codes.join('\n'),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('says why for every rule it switches off', () => {
    const lines = readFileSync(RULESET, 'utf8').split('\n');
    const unexplained: string[] = [];
    lines.forEach((line, i) => {
      if (!/^\s+[\w:.-]+:\s*off\s*$/.test(line)) return;
      // The reason is the comment block above the rule, or above the block of rules (an override's `rules:`) it opens.
      let j = i - 1;
      while (j >= 0 && /^\s+[\w:.-]+:\s*off\s*$|^\s+rules:\s*$|^\s+(- )?files:\s*$|^\s+- (?:"[^"]+"|'[^']+')\s*$/.test(lines[j]!)) j--;
      if (j < 0 || !/^\s*#/.test(lines[j]!)) unexplained.push(line.trim());
    });
    assert.deepEqual(unexplained, []);
  });
});
