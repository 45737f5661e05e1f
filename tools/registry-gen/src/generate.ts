import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderAll, type RenderedFile } from './render.js';

/** Repository root: tools/registry-gen/dist -> ../../.. */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

export function writeFiles(files: readonly RenderedFile[], root: string): void {
  for (const file of files) {
    const target = resolve(root, file.path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, file.content);
  }
}

/** Paths (relative) whose committed content differs from the rendered content. */
export function driftedFiles(files: readonly RenderedFile[], root: string): string[] {
  return files
    .filter((file) => {
      try {
        return readFileSync(resolve(root, file.path), 'utf8') !== file.content;
      } catch {
        return true;
      }
    })
    .map((file) => file.path);
}

function main(argv: readonly string[]): number {
  const check = argv.includes('--check');
  const outIndex = argv.indexOf('--out');
  const root = outIndex >= 0 && argv[outIndex + 1] ? resolve(argv[outIndex + 1] ?? '') : REPO_ROOT;
  const files = renderAll();
  if (check) {
    const drift = driftedFiles(files, root);
    if (drift.length > 0) {
      process.stderr.write(`registry-gen: generated files are out of date:\n${drift.map((p) => `  ${p}`).join('\n')}\n` + 'Run: npx nx run @workcell/registry-gen:generate\n');
      return 1;
    }
    process.stdout.write(`registry-gen: ${files.length} generated files are up to date.\n`);
    return 0;
  }
  writeFiles(files, root);
  process.stdout.write(`registry-gen: wrote ${files.map((f) => f.path).join(', ')}\n`);
  return 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
