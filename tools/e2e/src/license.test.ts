import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The repository is Apache-2.0 (issue 29): the license's text at the root, and the SPDX identifier in the root
 * package.json and in every workspace package's (the ones the root's `workspaces` globs name).
 */
const root = fileURLToPath(new URL('../../../', import.meta.url));
const manifest = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as { license?: unknown; workspaces?: string[] };

/** Every workspace package.json: each `dir/*` glob of the root's `workspaces`, expanded one level. */
function workspaceManifests(): string[] {
  const globs = manifest(join(root, 'package.json')).workspaces ?? [];
  assert.ok(globs.length > 0, 'the root package.json names its workspaces');
  return globs.flatMap((glob) => {
    assert.match(glob, /^[\w-]+\/\*$/, `a workspace glob this test can expand: ${glob}`);
    const dir = join(root, glob.slice(0, -2));
    return readdirSync(dir)
      .map((name) => join(dir, name, 'package.json'))
      .filter((path) => existsSync(path));
  });
}

describe('the license', () => {
  it('is the Apache License 2.0, at the root', () => {
    const text = readFileSync(join(root, 'LICENSE'), 'utf8');
    assert.match(text, /^\s*Apache License\s+Version 2\.0, January 2004\s+http:\/\/www\.apache\.org\/licenses\//);
    assert.match(text, /TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION/);
    assert.match(text, /END OF TERMS AND CONDITIONS/);
  });

  it('ships in the published packages (the SDK and the CLI), the same text as at the root', () => {
    const text = readFileSync(join(root, 'LICENSE'), 'utf8');
    for (const dir of ['libs/sdk', 'tools/cli']) assert.equal(readFileSync(join(root, dir, 'LICENSE'), 'utf8'), text, `${dir}/LICENSE`);
  });

  it('is Apache-2.0 in the root package.json and every workspace package.json', () => {
    const manifests = [join(root, 'package.json'), ...workspaceManifests()];
    assert.ok(manifests.length > 20, `found the workspace packages (${manifests.length})`);
    const wrong = manifests.filter((path) => manifest(path).license !== 'Apache-2.0').map((path) => path.slice(root.length));
    assert.deepEqual(wrong, [], 'package.json files without "license": "Apache-2.0"');
  });
});
