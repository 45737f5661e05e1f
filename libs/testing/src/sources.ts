import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The repository's TypeScript sources, for tests that read code as text (the event catalog scanner, the import
 * circle check): never declarations, nothing under node_modules, dist or generated.
 */
export function sourceFiles(dir: string, options: { readonly tests?: boolean } = {}): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!['node_modules', 'dist', 'generated'].includes(entry.name)) out.push(...sourceFiles(path, options));
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') && (options.tests === true || !entry.name.endsWith('.test.ts'))) out.push(path);
  }
  return out;
}

/** The `src` folder of every project under these top folders of the repository at `root` (a project without one is left out). */
export function projectSourceDirs(root: string, tops: readonly string[] = ['libs', 'apps', 'tools']): string[] {
  return tops.flatMap((top) =>
    readdirSync(join(root, top), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && existsSync(join(root, top, entry.name, 'src')))
      .map((entry) => join(root, top, entry.name, 'src')),
  );
}
