import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findV0Operation, getV1Operation, V0_DEPRECATED_AT, v0Operations, type V0Method } from '@workcell/registry';
import { REPO_ROOT } from './generate.js';
import { EXAMPLE_OPERATIONS, migrationSteps, renderMigrationGuide, V0_ERROR_MAPPING } from './migration-guide.js';
import { OUTPUT_FILES } from './render.js';

/** The v0 → v1 migration guide is derived from the registry entries (its drift is checked with the other artifacts). */
describe('v0 → v1 migration guide', () => {
  const steps = (method: V0Method, path: string) => {
    const v0 = findV0Operation(method, path);
    assert.ok(v0, `${method} ${path}`);
    return migrationSteps(v0, v0.v1OperationId === null ? null : getV1Operation(v0.v1OperationId));
  };

  it('has a row for every v0 operation, naming its v1 replacement', () => {
    const guide = renderMigrationGuide(v0Operations);
    for (const op of v0Operations) {
      assert.ok(guide.includes(`| \`${op.method} ${op.path}\` |`), `${op.method} ${op.path}`);
      if (op.v1OperationId) assert.ok(guide.includes(`(${op.v1OperationId})`), op.v1OperationId);
    }
  });

  it('a deprecated alias write: PATCH, the id in the path, the scope, the concurrency rule of the v1 operation', () => {
    const changes = steps('PUT', '/contactgroups').join('\n');
    assert.match(changes, /contact-groups:write/);
    assert.match(changes, /PATCH instead of PUT/);
    assert.match(changes, /id: in the path, no longer in the body/);
    assert.match(changes, /expectedVersion/);
  });

  it('a renamed resource, a paged list and a keyed create', () => {
    assert.match(steps('GET', '/journalEntries').join('\n'), /resource renamed: \/journalEntries is \/v1\/project-statements/);
    assert.match(steps('GET', '/callnotes').join('\n'), /`cursor` and `limit` instead of `page`/);
    assert.match(steps('POST', '/callnotes').join('\n'), /Idempotency-Key/);
    assert.doesNotMatch(steps('GET', '/callnotes').join('\n'), /renamed/);
  });

  it('an operation retained on v0 has nothing to change', () => {
    assert.deepEqual(steps('GET', '/calendar/{token}.ics'), ['none: it stays on v0 (no v1 replacement exists yet)']);
  });
});

/** The guide's fixed sections stay true to the code (issue 29): errors, examples, deprecation, no repository paths. */
describe('v0 → v1 migration guide: what an integrator changes beyond the operation map', () => {
  const guide = renderMigrationGuide(v0Operations);
  const v0Document = JSON.parse(readFileSync(join(REPO_ROOT, OUTPUT_FILES.v0OpenApi), 'utf8')) as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };

  it('maps every error status the v0 service sends (its document, 405 and 503) to the v1 codes', () => {
    const statuses = new Set([405, 503]);
    for (const item of Object.values(v0Document.paths)) for (const op of Object.values(item)) for (const status of Object.keys(op.responses)) if (Number(status) >= 400) statuses.add(Number(status));
    const mapped = new Set(V0_ERROR_MAPPING.map((row) => row.v0Status));
    for (const status of statuses) {
      assert.ok(mapped.has(status), `v0 status ${status} is not in the mapping`);
      assert.match(guide, new RegExp(`^\\| ${status} \\| \``, 'm'), `the guide's table has no ${status} row`);
    }
  });

  it('has one example per migration class, each an operation of the registry with that class', () => {
    const classes = new Set(v0Operations.map((op) => op.migrationClass));
    assert.deepEqual(Object.keys(EXAMPLE_OPERATIONS).sort(), [...classes].sort());
    for (const [migrationClass, operationId] of Object.entries(EXAMPLE_OPERATIONS)) {
      const op = v0Operations.find((o) => o.operationId === operationId);
      assert.ok(op, operationId);
      assert.equal(op.migrationClass, migrationClass, operationId);
      assert.equal(op.availability, 'supported', `${operationId}: an example v0 still answers`);
      assert.ok(guide.includes(`### \`${migrationClass}\`: \`${op.method} ${op.path}\``), `${operationId}: its section`);
      if (op.v1OperationId) assert.ok(guide.includes(`${getV1Operation(op.v1OperationId).method} ${getV1Operation(op.v1OperationId).path.replace('{id}', '')}`), `${operationId}: its v1 request`);
    }
  });

  it('has the sections on bodies, errors, webhooks, the first credential and the deprecation timeline', () => {
    for (const heading of [
      '## Bodies: `_id` → `id`',
      '## Errors: v0 status → v1 codes',
      '## Webhooks: unsigned v0 → signed v2',
      '## A first v1 credential',
      '## Before and after',
      '## Deprecation timeline',
    ])
      assert.ok(guide.includes(heading), heading);
    assert.ok(guide.includes(`Deprecation: @${V0_DEPRECATED_AT}`));
    assert.ok(guide.includes('signingSecret') && guide.includes('webhook-signature'));
    for (const route of ['/sign-in', '/account', '/device', 'POST /v1/service-accounts/{id}/credentials']) assert.ok(guide.includes(route), route);
  });

  it('says no Sunset header is sent, which holds while the v0 app sends none', () => {
    const sources = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [join(dir, entry.name)] : [],
      );
    const sunset = [...sources(join(REPO_ROOT, 'apps/api-v0/src')), ...sources(join(REPO_ROOT, 'libs/http/src'))].filter((file) => /sunset/i.test(readFileSync(file, 'utf8')));
    assert.deepEqual(sunset, [], 'the v0 service now sends Sunset: the deprecation timeline must name the date');
    assert.match(guide, /no `Sunset` header/);
  });

  it('points at no repository path', () => {
    const paths = guide.match(/\b(?:apps|libs|tools|docs|prisma)\/[\w./-]+|\b[\w-]+\.ts\b|`tools\/coverage`/g) ?? [];
    assert.deepEqual(paths, []);
  });
});
