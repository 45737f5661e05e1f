import { z } from 'zod';
import { type DomainFilter, type GrantResourceType, type SearchAfter, type SearchDomain, searchPage } from '@workcell/db';
import { DOMAIN_READ_SCOPES, RESOURCE_DOMAINS, type ResourceDomain } from '@workcell/registry';
import type { V1AuthContext } from '../kernel/auth-context.js';
import { DomainError } from '../kernel/errors.js';
import { GRANT_DOMAINS, grantedIds } from '../kernel/grants.js';
import { paginate } from '../kernel/pagination.js';
import { viewerOf } from '../kernel/visibility.js';
import { defineProcedure } from '../kernel/procedure.js';
import { assertScopes } from '../kernel/scopes.js';
import { pageInput } from '../kernel/inputs.js';
import { holdsFinanceRead } from '../project-statements/view.js';
import { seesPersonalData } from '../roles/permission-model.js';

export const searchResourcesInput = z.object({ ...pageInput, q: z.string().min(1).max(200), types: z.string().max(1024).optional() }).strict();

export interface SearchResultView {
  readonly type: ResourceDomain;
  readonly id: string;
  readonly title: string;
  readonly snippet: string | null;
  readonly score: number;
  readonly updatedAt: string;
}

/** A comment is readable only with its target's read scope and grant (the comments family's target rule). */
const COMMENT_TARGETS = [
  { targetType: 'contact', domain: 'contacts' },
  { targetType: 'project', domain: 'projects' },
  { targetType: 'task', domain: 'tasks' },
] as const;

const isDomain = (name: string): name is ResourceDomain => (RESOURCE_DOMAINS as readonly string[]).includes(name);

/**
 * The domains to search: those named in `types` (each needs its read scope: 403 naming every missing one), or
 * without `types` every domain whose read scope the credential holds (none held: an empty result, not an error).
 */
function requestedDomains(auth: V1AuthContext, types: string | undefined): ResourceDomain[] {
  if (types === undefined) return RESOURCE_DOMAINS.filter((d) => auth.effectiveScopes.includes(DOMAIN_READ_SCOPES[d]));
  const names = [...new Set(types.split(','))];
  const unknown = names.filter((n) => !isDomain(n));
  if (unknown.length > 0) {
    throw new DomainError('validation_failed', `unknown resource domain: ${unknown.join(', ')}`, [
      { pointer: '', parameter: 'types', message: `unknown resource domain ${unknown.map((n) => JSON.stringify(n)).join(', ')}; one of ${RESOURCE_DOMAINS.join(', ')}` },
    ]);
  }
  const domains = names as ResourceDomain[];
  assertScopes(
    auth.effectiveScopes,
    domains.map((d) => DOMAIN_READ_SCOPES[d]),
  );
  return domains;
}

/**
 * Each domain filtered as its own list is: unarchived rows only, a service account's resource grants applied, and
 * only the fields the caller may read are matched.
 */
function domainFilter(auth: V1AuthContext, domain: ResourceDomain): DomainFilter {
  // The domain's visibility rule (grants, project sharing) is applied by the search statement itself.
  const only = { viewer: viewerOf(auth), rule: GRANT_DOMAINS[domain] };
  // Without the finance overlay budget statements do not exist for the caller, exactly as in listProjectStatements.
  if (domain === 'project-statements') return { domain, ...only, withoutBudget: !holdsFinanceRead(auth) };
  // A member's address is matched only for a caller who may read it (the members view's rule), never an oracle for it.
  if (domain === 'users') return { domain, ...only, personalData: seesPersonalData(auth) };
  if (domain !== 'comments') return { domain: domain as SearchDomain, ...only };
  const commentTargets = COMMENT_TARGETS.filter((t) => auth.effectiveScopes.includes(DOMAIN_READ_SCOPES[t.domain])).map((t) => ({
    targetType: t.targetType,
    onlyIds: grantedIds(auth, GRANT_DOMAINS[t.domain] as GrantResourceType),
  }));
  return { domain, ...only, commentTargets };
}

const keyOf = (hit: { score: number; type: string; id: string }) => JSON.stringify([hit.score, hit.type, hit.id]);

function afterOf(key: string | undefined): SearchAfter | undefined {
  if (key === undefined) return undefined;
  // The key is our own, inside a signed cursor (kernel/pagination.ts): it parses.
  const [score, type, id] = JSON.parse(key) as [number, string, string];
  return { score, type, id };
}

/**
 * `GET /v1/search`: full-text hits over the requested domains, best first (ts_rank, then type and id), never a row
 * the caller could not read through the domain's own list (budget statements only with the finance overlay).
 * Results carry a title and a short snippet of plain text, never a finance field (price, cost, amount).
 */
export const searchResources = defineProcedure(
  'searchResources',
  searchResourcesInput,
  async (op, { cursor, limit, q, types }): Promise<{ items: SearchResultView[]; limit: number; nextCursor: string | null }> => {
    const { auth } = op;
    const domains = requestedDomains(auth, types);
    const filters = domains.map((d) => domainFilter(auth, d));
    const scope = { workspaceId: auth.workspaceId, list: 'searchResources', filter: { q, domains: [...domains].sort() } };
    const page = await paginate(
      op.config,
      scope,
      { cursor, limit },
      async (after, take) => (await searchPage(op.database, auth.workspaceId, q, filters, afterOf(after), take)).map((hit) => ({ ...hit, key: keyOf(hit) })),
      (hit) => hit.key,
    );
    return {
      items: page.items.map((hit) => ({ type: hit.type, id: hit.id, title: hit.title, snippet: hit.snippet, score: hit.score, updatedAt: hit.updatedAt.toISOString() })),
      limit,
      nextCursor: page.nextCursor,
    };
  },
);
