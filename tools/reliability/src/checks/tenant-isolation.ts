import { type OperationDefinition, v0Operations, v1Operations } from '@workcell/registry';
import { V0_RECIPES } from '@workcell/e2e/support/v0';
import { digestDifference, workspaceDigest } from '../support/digest.js';
import { type Answer, type Probe, send } from '../support/http.js';
import { judge } from '../support/judge.js';
import { Ledger } from '../support/ledger.js';
import { currentEtag } from '../support/preconditions.js';
import { fieldsOf, sampleFor } from '../support/samples.js';
import type { World } from '../support/world.js';

/**
 * Check 2: every id-taking operation called with workspace A's ids by workspace B's credentials — a v1 personal
 * access token, a v1 service-account credential (every scope, write grants on every resource type) and v0
 * team tokens. Driven by the registry: an operation with a path parameter is sent A's id there (and A's current
 * ETag where it needs If-Match, so only tenancy can stop it); a create whose body references ids is sent A's
 * ids in the body. Every answer must be 404 (403 for v0's unavailable operations; a 501 for an unimplemented
 * v1 operation), never 2xx; a 2xx list or read must not contain any of A's ids; and A's digest must be exactly
 * as before.
 */
export async function tenantIsolation(world: World): Promise<Ledger> {
  const ledger = new Ledger('tenant-isolation');
  const { cell, a, b } = world;
  const aIds = new Set([...world.ids.values()].flat());
  const leaks = (answer: Answer) => [...aIds].filter((id) => answer.text.includes(id));
  const before = await workspaceDigest(cell.database, a.workspaceId);
  const rank = (method: string) => (method === 'GET' ? 0 : method === 'DELETE' ? 2 : 1);

  const v1Targets: { op: OperationDefinition; probe: (token: string) => Probe; strict: boolean }[] = [];
  for (const op of [...v1Operations].sort((x, y) => rank(x.method) - rank(y.method))) {
    if (!op.authenticated) continue;
    const hasPathId = op.path.includes('{');
    // With a path id, the body carries what is required and one plain text field (an update needs an
    // attribute), no references, so the path id is what the answer is about.
    const full = sampleFor(op.request.body, world.resolve, true);
    const text = fieldsOf(op.request.body).find((f) => f.kind === 'string' && !/(url|email|color|currency|code|version)$/i.test(f.name))?.name;
    const required = sampleFor(op.request.body, world.resolve, false);
    const sample =
      hasPathId && required !== null && typeof required === 'object' && !Array.isArray(required) ? { ...required, ...(text ? { [text]: (full as Record<string, unknown>)[text] } : {}) } : full;
    const bodyText = sample === undefined ? undefined : JSON.stringify(sample);
    const bodyReferencesA = bodyText !== undefined && [...aIds].some((id) => bodyText.includes(id));
    if (!hasPathId && !bodyReferencesA) continue;
    // Required query parameters (an availability window) get samples, or the edge's 400 would answer before the id is looked at.
    const query = sampleFor(op.request.query, world.resolve, false) as Record<string, unknown> | undefined;
    const search = query && Object.keys(query).length > 0 ? `?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString()}` : '';
    const path = `${await world.pathFor(op)}${search}`;
    if (hasPathId && ![...aIds].some((id) => path.includes(id))) {
      ledger.bump('operations without an id of A (random id used)');
    }
    const etag = op.concurrency === 'if-match' ? await currentEtag(world.v1.url, op.path, path, a.pat) : undefined;
    v1Targets.push({
      op,
      // With a path id the answer must be 404 whatever the body; a body reference alone may also be refused as invalid.
      strict: hasPathId,
      probe: (token) => ({
        method: op.method,
        path,
        headers: { authorization: `Bearer ${token}`, ...(bodyText ? { 'content-type': 'application/json' } : {}), ...(etag ? { 'if-match': etag } : {}) },
        ...(bodyText ? { body: bodyText } : {}),
      }),
    });
  }

  for (const [credential, token] of [
    ['v1 PAT of B', b.pat],
    ['v1 service account of B', b.serviceAccount],
  ] as const) {
    for (const target of v1Targets) {
      const probe = target.probe(token);
      const answer = await send(world.v1.url, probe);
      const name = `v1 ${target.op.operationId} (${credential})`;
      const unimplemented = !world.served.has(target.op.operationId);
      // A 400 that points into the body (`source.pointer`) is validation, which may come before the lookup.
      const bodyValidation =
        answer.status === 400 &&
        probe.body !== undefined &&
        (answer.json as { errors?: { source?: { pointer?: string } }[] } | undefined)?.errors?.every((e) => typeof e.source?.pointer === 'string') === true;
      const label = `${target.strict ? 'path id' : 'body reference'} of A (${credential})`;
      judge(
        ledger,
        'v1',
        name,
        probe,
        answer,
        target.strict && !bodyValidation ? { expect: unimplemented ? [403, 404, 501] : [403, 404], unimplemented, label } : { refuse: true, unimplemented, label },
      );
      if (answer.status >= 200 && answer.status < 300) {
        const leaked = leaks(answer);
        ledger.find('cross-tenant-access', name, probe, answer, `another workspace's credential got ${answer.status}${leaked.length ? `, revealing ${leaked.length} of A's ids` : ''}`);
      }
    }
  }

  // v0: every operation with an id (in the path, or in the body for the deprecated aliases), with B's team token.
  const anyA = (segment: string) => world.ids.get(`/v1/${segment}`)?.[0] ?? [...aIds][0]!;
  for (const op of [...v0Operations].sort((x, y) => rank(x.method) - rank(y.method))) {
    if (!op.authenticated || (!op.path.includes('{_id}') && !op.bodyAlias)) continue;
    const segment = op.path.split('/')[1] ?? '';
    const path = world.pathForV0(op);
    const recipe = V0_RECIPES[segment];
    const body =
      op.body === 'required' || op.bodyAlias
        ? { ...(op.method === 'PUT' ? (recipe?.update ?? { name: 'x' }) : (recipe?.create(anyA('contacts')) ?? { name: 'x' })), ...(op.bodyAlias ? { _id: anyA(segment) } : {}) }
        : undefined;
    const probe: Probe = {
      method: op.method,
      path,
      headers: { authorization: `Bearer ${b.teamToken()}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    };
    const answer = await send(cell.v0.url, probe);
    const name = `v0 ${op.method} ${op.path} (team token of B)`;
    if (answer.status === 429) {
      ledger.count(answer);
      continue;
    }
    judge(ledger, 'v0', name, probe, answer, { expect: op.availability === 'unavailable' ? [403] : [404], label: 'path or body id of A (team token of B)' });
    if (answer.status >= 200 && answer.status < 300) ledger.find('cross-tenant-access', name, probe, answer, `another team's token got ${answer.status}`);
  }

  const changed = digestDifference(before, await workspaceDigest(cell.database, a.workspaceId));
  if (changed.length > 0) ledger.find('other-workspace-changed', 'all of the above', 'B’s credentials on A’s ids', undefined, `workspace A changed: ${changed.join(', ')}`);
  else ledger.bump('digest of A unchanged', 1);
  return ledger;
}
