// The published SDK has no @workcell/* dependency: after `tsc -b`, the credential format it reads
// (libs/credentials/src/format.ts, built by the dependency's own build) is copied into dist/credentials/ and the
// shipped files import that copy. The copy is the workspace's compiled output, never a second source.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const source = join(root, '..', 'credentials', 'dist');
const target = join(dist, 'credentials');
const SPECIFIER = /(['"])@workcell\/credentials\1/g;

mkdirSync(target, { recursive: true });
for (const file of ['format.js', 'format.d.ts']) {
  if (!existsSync(join(source, file))) throw new Error(`${join(source, file)} is missing: build @workcell/credentials first`);
  // Its maps point at sources the package does not ship.
  writeFileSync(join(target, file), readFileSync(join(source, file), 'utf8').replace(/\n\/\/# sourceMappingURL=.*\n?$/, '\n'));
}

const shipped = (name) => (name.endsWith('.js') || name.endsWith('.d.ts')) && !name.includes('.test.');
let rewritten = 0;
function walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (path !== target) walk(path);
      continue;
    }
    if (!shipped(entry.name)) continue;
    const text = readFileSync(path, 'utf8');
    let spec = relative(dirname(path), join(target, 'format.js')).split('\\').join('/');
    if (!spec.startsWith('.')) spec = `./${spec}`;
    const next = text.replace(SPECIFIER, (_, quote) => `${quote}${spec}${quote}`);
    if (next !== text) {
      writeFileSync(path, next);
      rewritten++;
    }
    const left = /['"]@workcell\/[^'"]+['"]/.exec(next);
    if (left) throw new Error(`${relative(root, path)} still imports ${left[0]}: the published package must not depend on a workspace package`);
  }
}
walk(dist);
console.log(`@workcell/sdk: credential format inlined (${rewritten} file(s) rewritten)`);
