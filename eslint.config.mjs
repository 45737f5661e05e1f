import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

/*
 * Module boundaries. Tags (set in each project's package.json "nx.tags"):
 *   type:app       a deployable NestJS service (apps/*); nothing imports an app
 *   type:e2e       cross-service tests that boot several apps
 *   type:platform  Nest/Fastify/BullMQ plumbing shared by the apps (HTTP, jobs)
 *   type:domain    typed domain procedures and rules: no HTTP, Nest platform, BullMQ or Prisma imports
 *   type:data      the data-access layer: the only place Prisma and pg are imported
 *   type:registry  the operation registry (pure data and zod schemas)
 *   type:util      small pure libraries (config, credential format)
 *   type:testing   test harness (real PostgreSQL and Redis), imported only by tests
 *   type:tool      command-line tools under tools/
 */
const prismaOnlyInData = ['@prisma/*', 'pg', '@workcell/db/*'];
const noPlatform = ['@nestjs/*', 'fastify', '@fastify/*', 'bullmq', '@trpc/*'];
const noRedis = ['ioredis'];

/** The `testing` subpaths of libraries (`@workcell/db/testing`, `@workcell/http/testing`): tests and benchmarks only. */
const testingSubpaths = { group: ['@workcell/*/testing'], message: 'A `testing` subpath is for tests and benchmarks only.' };

/** Test files may also use the test harness; production code may not. */
function boundaries(inTests) {
  const testing = inTests ? ['type:testing'] : [];
  return {
    enforceBuildableLibDependency: false,
    allow: [],
    depConstraints: [
      { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:platform', 'type:domain', 'type:data', 'type:registry', 'type:util', ...testing], bannedExternalImports: prismaOnlyInData },
      // e2e projects may share fixtures: the reliability suite boots its cells with tools/e2e's support files.
      { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:e2e', 'type:app', 'type:platform', 'type:domain', 'type:data', 'type:registry', 'type:util', 'type:testing'] },
      { sourceTag: 'type:platform', onlyDependOnLibsWithTags: ['type:platform', 'type:domain', 'type:data', 'type:registry', 'type:util', ...testing], bannedExternalImports: prismaOnlyInData },
      {
        sourceTag: 'type:domain',
        onlyDependOnLibsWithTags: ['type:domain', 'type:data', 'type:registry', 'type:util', ...testing],
        bannedExternalImports: [...noPlatform, ...noRedis, ...prismaOnlyInData],
      },
      { sourceTag: 'type:data', onlyDependOnLibsWithTags: ['type:data', 'type:util', ...testing], bannedExternalImports: noPlatform },
      { sourceTag: 'type:registry', onlyDependOnLibsWithTags: ['type:registry', 'type:util', ...testing], bannedExternalImports: [...noPlatform, ...noRedis, ...prismaOnlyInData] },
      { sourceTag: 'type:util', onlyDependOnLibsWithTags: ['type:util', ...testing], bannedExternalImports: [...noPlatform, ...noRedis, ...prismaOnlyInData] },
      { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:util', 'type:testing'], bannedExternalImports: ['@prisma/*', '@workcell/db/*'] },
      { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:data', 'type:domain', 'type:registry', 'type:util', ...testing], bannedExternalImports: [...noPlatform, ...prismaOnlyInData] },
    ],
  };
}

export default [
  { ignores: ['**/dist/**', '**/node_modules/**', '**/generated/**', '**/*.mjs', '**/*.cjs'] },
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  {
    files: ['**/*.ts'],
    languageOptions: { parser: tseslint.parser },
    rules: {
      '@nx/enforce-module-boundaries': ['error', boundaries(false)],
      // Configuration is validated once (libs/config); everything else receives the typed AppConfig.
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Read configuration from AppConfig (libs/config), not process.env.' }],
      '@typescript-eslint/no-explicit-any': 'error',
      // noUncheckedIndexedAccess makes `xs[i]!` after a bounds check the idiom, not a smell.
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': ['error', { patterns: [testingSubpaths] }],
    },
  },
  {
    // Benchmarks run against scratch databases like tests do, so they may use the test harness too.
    files: ['**/*.test.ts', '**/*.bench.ts', '**/src/testing.ts'],
    rules: { '@nx/enforce-module-boundaries': ['error', boundaries(true)], 'no-restricted-imports': 'off' },
  },
  {
    // API routes come only from the operation registry (@Operation / @LegacyOperation in @workcell/http).
    files: ['apps/api-v0/src/**/*.ts', 'apps/api-v1/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@nestjs/common',
              importNames: ['Get', 'Post', 'Put', 'Patch', 'Delete', 'All', 'Head', 'Options', 'Search', 'RequestMapping'],
              message: 'Declare API routes with @Operation / @LegacyOperation from @workcell/http, which derive them from the registry.',
            },
            {
              name: '@workcell/jobs',
              message:
                'A request starts work after commit only through its outbox event: the relay enqueues the job (libs/domain delivery/post-commit.ts), so an acknowledged request is never left without its work.',
            },
          ],
          patterns: [testingSubpaths],
        },
      ],
    },
  },
  {
    files: ['libs/config/src/config.ts'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    // Every transaction is opened or joined by inTransaction (libs/db transactions.ts): an automation step's procedure
    // runs with its run's transaction as its database and must join it, which a direct $transaction would not.
    files: ['apps/**/src/**/*.ts', 'libs/**/src/**/*.ts'],
    ignores: ['libs/db/src/transactions.ts', 'libs/db/src/query-cost.ts', '**/*.test.ts', '**/*.bench.ts', '**/src/testing.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.property.name='$transaction']", message: 'Open a transaction with inTransaction (@workcell/db), which joins the one a caller already holds.' },
        // An operation's unit of work is op.transaction (libs/domain kernel/procedure.ts): one way for every procedure.
        {
          selector: "CallExpression[callee.name='inTransaction'] > MemberExpression.arguments:first-child[object.name='op'][property.name='database']",
          message: "Use op.transaction(work): the operation's unit of work.",
        },
      ],
    },
  },
];
