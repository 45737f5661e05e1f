import { createHash } from 'node:crypto';
import type { OperationDefinition, V0OperationDefinition, V0OperationRow, V1OperationRow } from './types.js';

/** The `operations.json` projection of a v1 operation (fixed key order). */
export function toV1Row(op: OperationDefinition): V1OperationRow {
  return {
    operationId: op.operationId,
    method: op.method,
    path: op.path,
    family: op.family,
    scopes: [...op.scopes],
    anyOfScopes: [...op.anyOfScopes],
    overlayScopes: [...op.overlayScopes],
    authenticated: op.authenticated,
    concurrency: op.concurrency,
    idempotent: op.idempotent,
    retry: op.retry,
    async: op.async,
    sensitive: op.sensitive,
  };
}

/** The `operations.json` projection of a v0 operation (fixed key order). */
export function toV0Row(op: V0OperationDefinition): V0OperationRow {
  return {
    method: op.method,
    path: op.path,
    availability: op.availability,
    migrationClass: op.migrationClass,
    v1OperationId: op.v1OperationId,
    authenticated: op.authenticated,
  };
}

/** JSON with object keys sorted recursively and no whitespace. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * Registry digest: SHA-256 (hex) of `canonicalJson({ v1: rows, v0: rows })`
 * (keys sorted, arrays in registry order). The API and application cells
 * compare it to prove they serve the same fixed registry.
 */
export function registryDigest(v1: readonly V1OperationRow[], v0: readonly V0OperationRow[]): string {
  return createHash('sha256').update(canonicalJson({ v1, v0 })).digest('hex');
}
