import { type OperationId, OPERATIONS, type OperationSpec } from '@workcell/sdk';

export interface NamedOperation extends OperationSpec {
  readonly operationId: OperationId;
}

const ALL: readonly NamedOperation[] = Object.entries(OPERATIONS).map(([operationId, spec]) => ({ operationId: operationId as OperationId, ...spec }));

export function findOperation(name: string | undefined): NamedOperation | undefined {
  return name === undefined ? undefined : ALL.find((operation) => operation.operationId === name);
}

/** Edit distance (insertions, deletions, substitutions), for "did you mean". */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}

/** The operation names closest to a mistyped one (at most three, each at most three edits away). */
export function similarOperations(name: string): OperationId[] {
  return ALL.map((operation) => ({ id: operation.operationId, d: distance(name.toLowerCase(), operation.operationId.toLowerCase()) }))
    .filter((candidate) => candidate.d <= 3)
    .sort((x, y) => x.d - y.d)
    .slice(0, 3)
    .map((candidate) => candidate.id);
}

/** Operations whose family is `family` (when given) and whose name, path or summary contains every word. */
export function searchOperations(words: readonly string[], family?: string): NamedOperation[] {
  const needles = words.map((word) => word.toLowerCase());
  return ALL.filter((operation) => {
    if (family !== undefined && operation.family !== family) return false;
    const haystack = `${operation.operationId} ${operation.path} ${operation.summary}`.toLowerCase();
    return needles.every((needle) => haystack.includes(needle));
  });
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The names of an operation's path parameters, in path order. */
export function pathParameters(operation: OperationSpec): string[] {
  return [...operation.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
}

/**
 * The GET operation a path answers, with its path parameters: what a 202's `Location` names (the operation to
 * poll), found in the same table the calls come from rather than parsed per family.
 */
export function operationAt(location: string): { operation: NamedOperation; path: Record<string, string> } | null {
  const pathname = new URL(location, 'http://location.invalid').pathname;
  for (const operation of ALL) {
    if (operation.method !== 'GET') continue;
    const names = pathParameters(operation);
    const pattern = new RegExp(
      `^${operation.path
        .split(/\{\w+\}/)
        .map(escapeRegExp)
        .join('([^/]+)')}$`,
    );
    const match = pattern.exec(pathname);
    if (match) return { operation, path: Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(match[i + 1]!)])) };
  }
  return null;
}

/** `workcell call <operationId> --help`: what to pass and what the API expects of the call. */
export function operationHelp(operation: NamedOperation): string[] {
  const flags = pathParameters(operation).map((name) => `--path ${name}=<${name}>`);
  const lines = [
    `${operation.operationId}: ${operation.summary}`,
    '',
    `  ${operation.method} ${operation.path}   (family ${operation.family})`,
    '',
    `usage: workcell call ${operation.operationId}${flags.length ? ` ${flags.join(' ')}` : ''} [--query k=v]...${['POST', 'PUT', 'PATCH'].includes(operation.method) ? ' [--body JSON|@file|-]' : ''}`,
  ];
  if (operation.concurrency === 'if-match') lines.push('', "  Needs --if-match with the resource's ETag (read it first: the ETag is printed on stderr).");
  if (operation.concurrency === 'cas') lines.push('', '  Compare-and-set: put the resource\'s current "version" in the body as "expectedVersion".');
  if (operation.idempotent) lines.push('', '  Idempotent: an Idempotency-Key is sent (--idempotency-key to choose it); retried safely.');
  if (operation.async) lines.push('', '  Accepted asynchronously (202): --wait follows the operation to its end, showing its progress.');
  if (!operation.authenticated) lines.push('', '  Needs no credential.');
  return lines;
}
