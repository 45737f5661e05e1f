import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/**
 * One supported Node.js range everywhere (issue 29), and the code kept free of what only Node 22+ has: tests run on
 * Node 20 while the images run Node 24, so an API Node 20 lacks would pass in production and fail nowhere else.
 * The guard is the compiler: `lib` ES2023 and `@types/node` 20 make such an API a type error in every project.
 */
const root = fileURLToPath(new URL('../../../', import.meta.url));
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const manifest = (path: string) => JSON.parse(read(path)) as { engines?: { node?: string }; devDependencies?: Record<string, string>; workspaces?: string[] };
const RANGE = '>=20.19';

describe('the supported Node.js versions', () => {
  it('are >=20.19 in the root, in every workspace package that states engines, and 20 in .nvmrc', () => {
    assert.equal(manifest('package.json').engines?.node, RANGE);
    assert.equal(read('.nvmrc').trim(), '20');
    const packages = ['apps', 'libs', 'tools'].flatMap((dir) => readdirSync(join(root, dir)).map((name) => `${dir}/${name}/package.json`)).filter((path) => existsSync(join(root, path)));
    const stated = packages.filter((path) => manifest(path).engines !== undefined);
    assert.ok(stated.includes('libs/sdk/package.json') && stated.includes('tools/cli/package.json'), 'the published packages state engines');
    assert.deepEqual(
      stated.filter((path) => manifest(path).engines?.node !== RANGE),
      [],
    );
  });

  it('the README states the Node version of the Docker images as the Dockerfile has it', () => {
    const image = /ARG NODE_IMAGE=node:(\d+)-/.exec(read('Dockerfile'));
    assert.ok(image, 'the Dockerfile names its Node image');
    assert.match(read('README.md'), new RegExp(`Docker images \\(\`Dockerfile\`, \`node:${image[1]}-[^\`]*\`\\) run Node ${image[1]}`));
  });

  it('type-checks Node 20 APIs and rejects Node 22+ ones (lib ES2023, @types/node 20)', () => {
    assert.match(manifest('package.json').devDependencies?.['@types/node'] ?? '', /^\^20\./);
    const base = ts.parseJsonConfigFileContent(JSON.parse(read('tsconfig.base.json')) as object, ts.sys, root);
    const dir = mkdtempSync(join(tmpdir(), 'workcell-node-api-'));
    try {
      const probes = {
        'node20.ts': "import { styleText } from 'node:util';\nexport const a = [3, 1].toSorted();\nexport const b = structuredClone({ x: 1 });\nexport const c = typeof styleText;\n",
        'promise-with-resolvers.ts': 'export const p = Promise.withResolvers<number>();\n',
        'array-from-async.ts': 'export const a = Array.fromAsync([1]);\n',
        'set-methods.ts': 'export const s = new Set([1]).union(new Set([2]));\n',
        'fs-glob.ts': "import { glob } from 'node:fs/promises';\nexport const g = glob;\n",
        'node-sqlite.ts': "import { DatabaseSync } from 'node:sqlite';\nexport const d = DatabaseSync;\n",
      };
      for (const [name, text] of Object.entries(probes)) writeFileSync(join(dir, name), text);
      const options: ts.CompilerOptions = {
        ...base.options,
        types: ['node'],
        typeRoots: [join(root, 'node_modules/@types')],
        noEmit: true,
        composite: false,
        incremental: false,
        declaration: false,
        declarationMap: false,
        sourceMap: false,
      };
      const program = ts.createProgram(
        Object.keys(probes).map((name) => join(dir, name)),
        options,
      );
      const failing = new Set(ts.getPreEmitDiagnostics(program).flatMap((d) => (d.file ? [d.file.fileName.slice(dir.length + 1)] : [])));
      assert.deepEqual(
        [...failing].sort(),
        Object.keys(probes)
          .filter((name) => name !== 'node20.ts')
          .sort(),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
