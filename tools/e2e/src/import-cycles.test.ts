import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { projectSourceDirs, sourceFiles } from '@workcell/testing';

/**
 * No import circle inside any project (issue 12), type-only imports included: a circle makes the order in which
 * modules initialise depend on who imports first, and it blurs which file owns a concept. Between projects Nx
 * already refuses circles (the project graph is acyclic); this test covers the files within each project. It reads
 * every relative `import … from` and `export … from` of the sources and looks for strongly connected components.
 */

const root = fileURLToPath(new URL('../../../', import.meta.url));

/** The relative imports of each file, resolved to file paths (`./x.js` is `./x.ts`). */
export function importGraph(files: ReadonlyMap<string, string>): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const [file, text] of files) {
    const targets = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?\sfrom\s+'(\.[^']+)'/g)].map((m) => normalize(join(dirname(file), m[1]!.replace(/\.js$/, '.ts'))));
    graph.set(
      file,
      targets.filter((target) => files.has(target)),
    );
  }
  return graph;
}

/** The import circles of a graph: its strongly connected components of more than one file, or a file importing itself. */
export function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('import circles', () => {
  it('finds a circle when there is one (so the check below can fail)', () => {
    const files = new Map([
      ['/p/a.ts', "import type { B } from './b.js';\nexport type A = B;\n"],
      ['/p/b.ts', "import { c } from './sub/c.js';\nexport type B = string;\nexport const b = c;\n"],
      ['/p/sub/c.ts', "export { a } from '../a.js';\nexport const c = 1;\n"],
      ['/p/d.ts', "import { b } from './b.js';\nexport const d = b;\n"],
    ]);
    assert.deepEqual(circles(importGraph(files)), [['/p/a.ts', '/p/b.ts', '/p/sub/c.ts']]);
  });

  it('no project has one', () => {
    const found: string[] = [];
    for (const dir of projectSourceDirs(root)) {
      const files = sourceFiles(dir, { tests: true });
      const graph = importGraph(new Map(files.map((file) => [file, readFileSync(file, 'utf8')])));
      for (const circle of circles(graph)) found.push(circle.map((file) => relative(root, file)).join(' → '));
    }
    assert.deepEqual(found, []);
  });
});
