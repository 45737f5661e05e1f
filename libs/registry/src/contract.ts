import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONTRACT_FIXTURE } from './contract-fixture.js';

/**
 * Parsers for the contract tables the registry must agree with. Used by the
 * tests (and usable by other conformance suites).
 */

export interface ContractV0Row {
  readonly method: string;
  readonly path: string;
  readonly availability: string;
  readonly migrationClass: string;
  /** null: no v1 operation (calendar feed) */
  readonly v1: { readonly operationId: string; readonly method: string | null; readonly path: string | null } | null;
}

export interface ContractV1Behavior {
  readonly method: string;
  readonly path: string;
  readonly scope: string;
}

/** Repository root when running from `libs/registry/dist`. */
const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** Where the shared contract lives relative to the repository (`../shared/spec`). */
export const CONTRACT_PATH = resolve(REPO_ROOT, '../shared/spec/service-contract.md');

/** The live contract when present, else the embedded transcription. */
export function loadContract(path: string = CONTRACT_PATH): { readonly text: string; readonly source: 'live' | 'fixture' } {
  if (existsSync(path)) return { text: readFileSync(path, 'utf8'), source: 'live' };
  return { text: CONTRACT_FIXTURE, source: 'fixture' };
}

function sectionLines(text: string, heading: string): string[] {
  const lines = text.split(/\r?\n/);
  const start = lines.findIndex((l) => l.startsWith(heading));
  if (start < 0) throw new Error(`Contract section not found: ${heading}`);
  const out: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (/^#{1,3} /.test(line)) break;
    out.push(line);
  }
  return out;
}

/** Table rows (cells trimmed) of a section, without header and separator rows. */
export function tableRows(text: string, heading: string): string[][] {
  const rows = sectionLines(text, heading)
    .filter((l) => l.startsWith('|'))
    .map((l) =>
      l
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim()),
    );
  return rows.filter((cells, i) => i > 0 && !cells.every((c) => /^-+$/.test(c)));
}

const ROUTE = /^(GET|POST|PUT|PATCH|DELETE) (\S+)$/;

/** Section 4.3: every v0 row with its availability, class and v1 operation. */
export function parseOperationMap(text: string): ContractV0Row[] {
  return tableRows(text, '### 4.3').map((cells) => {
    const [v0 = '', availability = '', migrationClass = '', v1 = ''] = cells;
    const route = ROUTE.exec(v0);
    if (!route) throw new Error(`Unparsable v0 operation: ${v0}`);
    let target: ContractV0Row['v1'];
    const full = /^(GET|POST|PUT|PATCH|DELETE) (\S+) (\w+)$/.exec(v1);
    if (full) target = { method: full[1] ?? null, path: full[2] ?? null, operationId: full[3] ?? '' };
    else if (/^none\b/.test(v1)) target = null;
    else {
      const nameOnly = /^(\w+)\b/.exec(v1);
      if (!nameOnly) throw new Error(`Unparsable v1 operation: ${v1}`);
      target = { operationId: nameOnly[1] ?? '', method: null, path: null };
    }
    return { method: route[1] ?? '', path: route[2] ?? '', availability, migrationClass, v1: target };
  });
}

/** Section 4.4: v1 operations with stated behavior. */
export function parseStatedBehaviors(text: string): ContractV1Behavior[] {
  return tableRows(text, '### 4.4').map((cells) => {
    const route = ROUTE.exec(cells[0] ?? '');
    if (!route) throw new Error(`Unparsable 4.4 row: ${cells[0]}`);
    return { method: route[1] ?? '', path: route[2] ?? '', scope: cells[1] ?? '' };
  });
}

/**
 * Section 5.3: the scope names, expanded. `task-recurrences:read, :write, :run`
 * gives three scopes; a `:suffix` replaces the last segment of the first name.
 */
export function parseScopes(text: string): string[] {
  const out: string[] = [];
  for (const cells of tableRows(text, '### 5.3')) {
    const names = (cells[0] ?? '').split(',').map((s) => s.trim());
    const first = names[0] ?? '';
    const base = first.slice(0, first.lastIndexOf(':'));
    for (const name of names) out.push(name.startsWith(':') ? `${base}${name}` : name);
  }
  return out;
}

/** Scopes that 5.3 marks sensitive in their row. */
export function parseSensitiveScopes(text: string): string[] {
  const out: string[] = [];
  for (const cells of tableRows(text, '### 5.3')) {
    if (!/\bsensitive\b/.test(cells[1] ?? '')) continue;
    const names = (cells[0] ?? '').split(',').map((s) => s.trim());
    const first = names[0] ?? '';
    const base = first.slice(0, first.lastIndexOf(':'));
    for (const name of names) out.push(name.startsWith(':') ? `${base}${name}` : name);
  }
  return out;
}
