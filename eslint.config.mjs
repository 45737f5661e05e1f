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

export default [
  { ignores: ['**/dist/**', '**/node_modules/**', '**/generated/**', '**/*.mjs', '**/*.cjs'] },
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  {
    files: ['**/*.ts'],
    languageOptions: { parser: tseslint.parser },
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: [
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:platform', 'type:domain', 'type:data', 'type:registry', 'type:util', 'type:testing'], bannedExternalImports: prismaOnlyInData },
            { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:app', 'type:platform', 'type:domain', 'type:data', 'type:registry', 'type:util', 'type:testing'] },
            { sourceTag: 'type:platform', onlyDependOnLibsWithTags: ['type:platform', 'type:domain', 'type:data', 'type:registry', 'type:util'], bannedExternalImports: prismaOnlyInData },
            { sourceTag: 'type:domain', onlyDependOnLibsWithTags: ['type:domain', 'type:data', 'type:registry', 'type:util'], bannedExternalImports: [...noPlatform, ...noRedis, ...prismaOnlyInData] },
            { sourceTag: 'type:data', onlyDependOnLibsWithTags: ['type:data', 'type:util', 'type:testing'], bannedExternalImports: noPlatform },
            { sourceTag: 'type:registry', onlyDependOnLibsWithTags: ['type:util'], bannedExternalImports: [...noPlatform, ...prismaOnlyInData] },
            { sourceTag: 'type:util', onlyDependOnLibsWithTags: ['type:util'], bannedExternalImports: [...noPlatform, ...noRedis, ...prismaOnlyInData] },
            { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:util'], bannedExternalImports: ['@prisma/*', '@workcell/db/*'] },
            { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:data', 'type:domain', 'type:registry', 'type:util', 'type:testing'] },
          ],
        },
      ],
      // Configuration is validated once (libs/config); everything else receives the typed AppConfig.
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Read configuration from AppConfig (libs/config), not process.env.' }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['libs/config/src/config.ts'],
    rules: { 'no-restricted-properties': 'off' },
  },
];
