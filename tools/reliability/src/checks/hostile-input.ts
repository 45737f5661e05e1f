import { type OperationDefinition, type V0OperationDefinition, v0Operations, v1Operations } from '@workcell/registry';
import { V0_RECIPES } from '@workcell/e2e/support/v0';
import { workspaceDigest } from '../support/digest.js';
import { type HostileCase, hostileCases, type RequestShape } from '../support/hostile.js';
import { inParallel, send } from '../support/http.js';
import { judge } from '../support/judge.js';
import { Ledger } from '../support/ledger.js';
import type { OperationTarget } from '../support/target.js';
import { currentEtag, idSegments } from '../support/preconditions.js';
import { refused, type Replayable, resendRefused, settled, verifyUnchanged } from '../support/refusals.js';
import { fieldsOf, sampleFor } from '../support/samples.js';
import type { World } from '../support/world.js';

/**
 * Check 1: generated hostile input for every operation of both generations (the registry's 237 v1 operations,
 * the 501 ones included, and 87 v0 operations). Per operation, the batch of hostile requests must answer no 5xx,
 * the required status where the contract names one, the generation's error body on every 4xx, and — proven with
 * a digest of workspace A before and after — write nothing when every request of the batch was refused. When
 * some requests of a batch were accepted (a lower-case `bearer`, an unknown-but-ignored v0 field), the refused
 * ones are sent again as a batch of their own and that batch is verified instead.
 */

interface Target extends OperationTarget {
  shape(): Promise<{ shape: RequestShape; token: string }>;
}

const WIDTH = 6;

export async function hostileInput(world: World, options: { only?: (name: string) => boolean } = {}): Promise<Ledger> {
  const ledger = new Ledger('hostile-input');
  const { cell, a } = world;
  const database = cell.database;

  const v1Target = (op: OperationDefinition): Target => ({
    generation: 'v1',
    name: op.operationId,
    method: op.method,
    unimplemented: !world.served.has(op.operationId),
    async: op.async,
    async shape() {
      // A credential of its own: some operations revoke the credential that calls them (DELETE /v1/auth/context).
      const token = await world.mintToken('hostile');
      const path = await world.pathFor(op);
      const etag = op.concurrency === 'if-match' ? await currentEtag(world.v1.url, op.path, path, token) : undefined;
      const sample = sampleFor(op.request.body, world.resolve, true);
      const body = op.request.body ? (sample !== null && typeof sample === 'object' && !Array.isArray(sample) ? (sample as Record<string, unknown>) : {}) : undefined;
      const shape: RequestShape = {
        method: op.method,
        path,
        idSegments: idSegments(op.path),
        authenticated: op.authenticated,
        headers: () => ({ authorization: `Bearer ${token}`, ...(op.concurrency === 'if-match' ? { 'if-match': etag ?? '"1"' } : {}) }),
        body,
        fields: fieldsOf(op.request.body),
        queryParams: fieldsOf(op.request.query),
        ifMatch: op.concurrency === 'if-match',
        idempotencyKey: op.idempotent,
      };
      return { shape, token };
    },
  });

  const v0Target = (op: V0OperationDefinition): Target => ({
    generation: 'v0',
    name: op.operationId,
    method: op.method,
    unimplemented: false,
    async: false,
    async shape() {
      const segment = op.path.split('/')[1] ?? '';
      const recipe = V0_RECIPES[segment];
      const contactId = world.ids.get('/v1/contacts')?.[0] ?? crypto.randomUUID();
      let path = world.pathForV0(op).replace('{token}', cell.demo.calendarFeedToken);
      const aliasId = world.ids.get(`/v1/${segment}`)?.[0];
      const body =
        op.body === 'required' || op.bodyAlias
          ? { ...(op.method === 'PUT' ? (recipe?.update ?? { name: 'Sample' }) : (recipe?.create(contactId) ?? { name: 'Sample' })), ...(op.bodyAlias && aliasId ? { _id: aliasId } : {}) }
          : undefined;
      if (op.method === 'DELETE' && !op.bodyAlias) path = path.replace(/\{\w+\}/, crypto.randomUUID());
      const fields = Object.entries(body ?? {}).map(([name, value]) => ({
        name,
        kind:
          name === '_id' || /Id$/.test(name)
            ? ('id' as const)
            : /At$|On$|Date$/.test(name)
              ? ('date-time' as const)
              : typeof value === 'number'
                ? ('number' as const)
                : typeof value === 'boolean'
                  ? ('boolean' as const)
                  : ('string' as const),
      }));
      const token = a.teamToken();
      const shape: RequestShape = {
        method: op.method,
        path,
        idSegments: idSegments(op.path),
        authenticated: op.authenticated,
        // Each request takes the next team token: v0 limits a token to 100 requests a minute per path.
        headers: () => ({ authorization: `Bearer ${a.teamToken()}` }),
        body,
        fields,
        queryParams: fieldsOf(op.request.query),
        ifMatch: false,
        idempotencyKey: false,
      };
      return { shape, token };
    },
  });

  // Reads first, then writes, deletes last: a hostile request that is accepted (lower-case `bearer`) and
  // archives the resource would otherwise leave the later operations nothing but 404s.
  const rank = (method: string) => (method === 'GET' ? 0 : method === 'DELETE' ? 2 : 1);
  const targets = [...v1Operations.map(v1Target), ...v0Operations.map(v0Target)].filter((t) => !options.only || options.only(t.name)).sort((x, y) => rank(x.method) - rank(y.method));
  ledger.bump('operations', 0);

  const url = (t: Target) => (t.generation === 'v1' ? world.v1.url : cell.v0.url);
  const sendAll = (t: Target, cases: readonly HostileCase[]) => inParallel(cases, WIDTH, (c) => send(url(t), c.probe));
  const replayable = (c: HostileCase): Replayable => ({ label: c.group ?? c.label, request: async () => c.probe });

  let previousAsync = false;
  for (const target of targets) {
    ledger.bump('operations');
    const { shape, token } = await target.shape();
    const cases = hostileCases(shape, token);
    // Work an asynchronous operation left to the worker must not be counted against the next operation.
    const before = previousAsync ? await settled(database, a.workspaceId) : await workspaceDigest(database, a.workspaceId);
    previousAsync = target.async;
    const answers = await sendAll(target, cases);
    cases.forEach((c, i) => judge(ledger, target.generation, `${target.generation} ${target.name}`, c.probe, answers[i]!, { ...c, unimplemented: target.unimplemented, label: c.group ?? c.label }));
    let batch = cases;
    let start = before;
    // A read writes nothing whatever it answers; a write batch with accepted requests is verified again
    // with only its refused requests.
    if (target.method !== 'GET' && !answers.every(refused)) {
      batch = cases.filter((_c, i) => refused(answers[i]!));
      // An accepted asynchronous operation (202: a project lifecycle operation, say) goes on in the worker:
      // the refused ones are verified on their own once the workspace stops changing.
      const again = await resendRefused(ledger, database, a.workspaceId, batch.map(replayable), () => sendAll(target, batch), target.async);
      if (again === null) continue;
      start = again;
    }
    await verifyUnchanged(ledger, database, a.workspaceId, `${target.generation} ${target.name}`, batch.map(replayable), (probe) => send(url(target), probe), start);
  }
  return ledger;
}
