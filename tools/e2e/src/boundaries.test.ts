import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';

/**
 * The module-boundary rules must actually constrain: each probe below is source that breaks one rule,
 * linted as if it lived at the given path (nothing is written to disk). A rule that silently stopped
 * applying (say, because the project graph was missing) fails this test.
 */
const root = fileURLToPath(new URL('../../../', import.meta.url));
const eslint = new ESLint({ cwd: root });

async function problems(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}${path}` });
  return (result?.messages ?? []).filter((m) => m.severity === 2).map((m) => `${m.ruleId}: ${m.message}`);
}

/** Source that imports `name` from `module` and uses it (an unused import would be a different problem). */
const importing = (name: string, module: string) => `import { ${name} } from '${module}';\nexport const x = ${name};\n`;

const probes: { rule: string; path: string; code: string; expect: RegExp }[] = [
  {
    rule: 'apps never import each other',
    path: 'apps/api-v0/src/probe.ts',
    code: importing('createApiV1App', '@workcell/api-v1'),
    expect: /enforce-module-boundaries/,
  },
  {
    rule: 'Prisma stays in the data layer (apps)',
    path: 'apps/api-v1/src/probe.ts',
    code: importing('PrismaClient', '@prisma/client'),
    expect: /enforce-module-boundaries/,
  },
  { rule: 'Prisma stays in the data layer (platform)', path: 'libs/http/src/probe.ts', code: "import pg from 'pg';\nexport const x = pg;\n", expect: /enforce-module-boundaries/ },
  {
    rule: 'utility libraries import no Nest platform',
    path: 'libs/credentials/src/probe.ts',
    code: importing('Injectable', '@nestjs/common'),
    expect: /enforce-module-boundaries/,
  },
  { rule: 'utility libraries import no BullMQ', path: 'libs/config/src/probe.ts', code: importing('Queue', 'bullmq'), expect: /enforce-module-boundaries/ },
  { rule: 'the data layer imports no HTTP plumbing', path: 'libs/db/src/probe.ts', code: importing('serve', '@workcell/http'), expect: /enforce-module-boundaries/ },
  {
    rule: 'production code does not import the test harness',
    path: 'libs/http/src/probe.ts',
    code: importing('startApp', '@workcell/testing'),
    expect: /enforce-module-boundaries/,
  },
  {
    rule: 'production code does not import a testing subpath (apps)',
    path: 'apps/api-v1/src/probe.ts',
    code: importing('measureQueryCost', '@workcell/db/testing'),
    expect: /no-restricted-imports/,
  },
  {
    rule: 'production code does not import a testing subpath (libraries)',
    path: 'libs/http/src/probe.ts',
    code: importing('measureQueryCost', '@workcell/db/testing'),
    expect: /no-restricted-imports/,
  },
  { rule: 'API routes only through the registry (v1)', path: 'apps/api-v1/src/probe.ts', code: importing('Get', '@nestjs/common'), expect: /no-restricted-imports/ },
  { rule: 'API routes only through the registry (v0)', path: 'apps/api-v0/src/probe.ts', code: importing('Post', '@nestjs/common'), expect: /no-restricted-imports/ },
  {
    rule: 'the APIs enqueue no jobs: post-commit work starts from the outbox',
    path: 'apps/api-v1/src/probe.ts',
    code: importing('JobQueues', '@workcell/jobs'),
    expect: /no-restricted-imports/,
  },
  { rule: 'only libs/config reads process.env', path: 'apps/worker/src/probe.ts', code: "export const x = process.env['DATABASE_URL'];\n", expect: /no-restricted-properties/ },
];

describe('module boundaries', () => {
  for (const probe of probes) {
    it(`enforces: ${probe.rule}`, async () => {
      const found = await problems(probe.path, probe.code);
      assert.ok(
        found.some((p) => probe.expect.test(p)),
        `no violation reported for ${probe.path}: ${JSON.stringify(found)}`,
      );
    });
  }

  it('accepts a permitted import (so the probes fail for the right reason)', async () => {
    assert.deepEqual(await problems('apps/api-v1/src/probe.ts', importing('serve', '@workcell/http')), []);
    assert.deepEqual(await problems('libs/http/src/probe.test.ts', importing('startApp', '@workcell/testing')), []);
    assert.deepEqual(await problems('tools/bench/src/probe.bench.ts', importing('insertSyntheticTags', '@workcell/db/testing')), []);
    assert.deepEqual(await problems('tools/e2e/src/probe.test.ts', importing('measureQueryCost', '@workcell/db/testing')), []);
  });
});
