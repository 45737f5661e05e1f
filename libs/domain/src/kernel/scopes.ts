import { DomainError } from './errors.js';

/**
 * The scope check of contract 5.3, in one place: the operation gate (libs/auth) runs it with the registry entry's
 * static scopes before any handler, and procedures run it for the scopes a request decides at run time (the
 * registry's `dynamicScopes`, kernel/targets.ts). Either way a refusal is the same 403 `insufficient_scope`
 * naming what is missing. Scopes are checked on every request, never cached.
 */
export function assertScopes(held: readonly string[], allOf: readonly string[], anyOf: readonly string[] = []): void {
  const have = new Set(held);
  const missing = allOf.filter((s) => !have.has(s));
  const anyOfMissing = anyOf.length > 0 && !anyOf.some((s) => have.has(s));
  if (missing.length === 0 && !anyOfMissing) return;
  const parts = [...(missing.length > 0 ? [missing.join(', ')] : []), ...(anyOfMissing ? [`one of ${anyOf.join(' | ')}`] : [])];
  throw new DomainError('insufficient_scope', `the credential lacks the required scopes: ${parts.join('; ')}`, [], { missingScopes: missing, anyOfScopes: anyOfMissing ? anyOf : [] });
}
