import { randomUUID } from 'node:crypto';
import { type OperationDefinition, v0Operations, v1Operations } from '@workcell/registry';
import { V0_RECIPES } from '@workcell/e2e/support/v0';
import { type Answer, type Probe, send } from '../support/http.js';
import { judge } from '../support/judge.js';
import { Ledger } from '../support/ledger.js';
import { fieldsOf, sampleFor } from '../support/samples.js';
import type { World } from '../support/world.js';

/**
 * Check 3: concurrent writers, driven by the registry.
 * - If-Match: every PATCH with `concurrency: if-match` (projects, tasks, project templates) is sent N times at
 *   once with the same ETag: exactly one 2xx, every other 412, and the resource ends as the winner wrote it.
 * - Idempotency: every idempotent create is sent N times at once with one Idempotency-Key: exactly one
 *   resource is created; the others replay it (same id) or answer 409 `idempotency_request_in_progress`.
 * - v0 PUT is last-writer-wins: N concurrent PUTs of one resource all answer 200 and it ends as one of them.
 */

const WRITERS = 8;

const stringFieldsOf = (op: OperationDefinition, marker: string): Record<string, string> =>
  Object.fromEntries(
    fieldsOf(op.request.body)
      .filter((f) => f.kind === 'string' && f.free && !/(url|email|color|currency|code|timezone|locale)$/i.test(f.name))
      .slice(0, 2)
      .map((f) => [f.name, `${f.name} ${marker}`]),
  );

/** E-mail fields, fresh per marker: a resource may be unique per address (one pending invitation per address). */
const addressFieldsOf = (op: OperationDefinition, marker: string): Record<string, string> =>
  Object.fromEntries(
    fieldsOf(op.request.body)
      .filter((f) => f.kind === 'string' && /email$/i.test(f.name))
      .map((f) => [f.name, `${marker}@example.test`]),
  );

export async function races(world: World): Promise<Ledger> {
  const ledger = new Ledger('races');
  const { cell, a } = world;
  const v1 = (probe: Probe) => send(world.v1.url, probe);
  const auth = { authorization: `Bearer ${a.pat}` };

  // If-Match writers.
  for (const op of v1Operations.filter((o) => o.concurrency === 'if-match' && o.method === 'PATCH' && world.served.has(o.operationId))) {
    const path = await world.pathFor(op);
    const current = await v1({ method: 'GET', path, headers: auth });
    const etag = current.headers.etag;
    if (current.status !== 200 || typeof etag !== 'string') {
      ledger.find('race-setup', `v1 ${op.operationId}`, { method: 'GET', path }, current, 'could not read the resource and its ETag');
      continue;
    }
    const bodies = Array.from({ length: WRITERS }, (_v, i) => stringFieldsOf(op, `writer-${i}-${randomUUID().slice(0, 8)}`));
    const probes = bodies.map((body): Probe => ({ method: 'PATCH', path, headers: { ...auth, 'content-type': 'application/json', 'if-match': etag }, body: JSON.stringify(body) }));
    const answers = await Promise.all(probes.map(v1));
    answers.forEach((answer, i) => judge(ledger, 'v1', `v1 ${op.operationId}`, probes[i]!, answer, { expect: [200, 412] }));
    const winners = answers.flatMap((answer, i) => (answer.status === 200 ? [i] : []));
    if (winners.length !== 1) {
      ledger.find(
        'if-match-race',
        `v1 ${op.operationId}`,
        `${WRITERS} concurrent ${op.method} ${path} with If-Match ${etag}`,
        answers[0],
        `${winners.length} writers succeeded; exactly one must (the rest 412): statuses ${answers.map((x) => x.status).join(',')}`,
      );
    } else {
      const after = await v1({ method: 'GET', path, headers: auth });
      const data = (after.json as { data?: Record<string, unknown> } | undefined)?.data ?? {};
      const expected = bodies[winners[0]!]!;
      const lost = Object.entries(expected).filter(([k, v]) => data[k] !== v);
      if (lost.length > 0) ledger.find('lost-update', `v1 ${op.operationId}`, `GET ${path}`, after, `the winning write's ${lost.map(([k]) => k).join(', ')} did not stick`, 'If-Match race');
      else ledger.bump('if-match races with one winner');
    }
  }

  // Idempotent creates.
  for (const op of v1Operations.filter((o) => o.idempotent && o.method === 'POST' && !o.path.includes('{') && o.request.body && world.served.has(o.operationId))) {
    // A body the service accepts: the one a plain request proves, with a fresh marker in its text fields.
    let accepted: boolean | undefined;
    for (const full of [false, true]) {
      const fresh = `probe-${randomUUID().slice(0, 8)}`;
      const candidate = { ...(sampleFor(op.request.body, world.resolve, full) as Record<string, unknown>), ...stringFieldsOf(op, fresh), ...addressFieldsOf(op, fresh) };
      const probe = await v1({ method: 'POST', path: op.path, headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(candidate) });
      if (probe.status >= 200 && probe.status < 300) {
        accepted = full;
        break;
      }
    }
    if (accepted === undefined) {
      ledger.bump('idempotent creates without a known valid body');
      continue;
    }
    const fresh = `idem-${randomUUID().slice(0, 8)}`;
    const body = { ...(sampleFor(op.request.body, world.resolve, accepted) as Record<string, unknown>), ...stringFieldsOf(op, fresh), ...addressFieldsOf(op, fresh) };
    const key = `reliability-${randomUUID()}`;
    const probe: Probe = { method: 'POST', path: op.path, headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': key }, body: JSON.stringify(body) };
    const answers: Answer[] = await Promise.all(Array.from({ length: WRITERS }, () => v1(probe)));
    const name = `v1 ${op.operationId}`;
    answers.forEach((answer) => judge(ledger, 'v1', name, probe, answer, { expect: [op.success, 409] }));
    const ids = new Set(answers.filter((x) => x.status === op.success).map((x) => (x.json as { data?: { id?: string } } | undefined)?.data?.id));
    const inProgress = answers.filter((x) => x.status === 409).every((x) => (x.json as { errors?: { code?: string }[] } | undefined)?.errors?.[0]?.code === 'idempotency_request_in_progress');
    if (ids.size !== 1 || !inProgress) {
      ledger.find(
        'idempotency-race',
        name,
        probe,
        answers.find((x) => x.status !== op.success) ?? answers[0],
        `${WRITERS} concurrent POSTs with one Idempotency-Key created ${ids.size} distinct resources (must be 1; the others replay or 409 idempotency_request_in_progress): statuses ${answers.map((x) => x.status).join(',')}`,
      );
    } else {
      // And nothing beyond the replayed one exists: the collection holds the marker once.
      const marker = Object.values(stringFieldsOf(op, '')).length > 0 ? String(Object.values(body).find((v) => typeof v === 'string' && v.includes('idem-'))) : undefined;
      if (marker) {
        let found = 0;
        let next: string | null = `${op.path}?limit=100`;
        for (let pages = 0; next && pages < 50; pages++) {
          const page: Answer = await v1({ method: 'GET', path: next, headers: auth });
          if (page.status !== 200) break;
          const json = page.json as { data?: unknown[]; links?: { next?: string | null } };
          found += (json.data ?? []).filter((item) => JSON.stringify(item).includes(marker)).length;
          next = json.links?.next ? new URL(json.links.next, world.v1.url).pathname + new URL(json.links.next, world.v1.url).search : null;
        }
        if (found > 1) ledger.find('duplicate-create', name, probe, undefined, `the collection holds ${found} resources with ${marker}`);
      }
      ledger.bump('idempotent races with one resource');
    }
  }

  // v0 PUTs: last writer wins.
  for (const op of v0Operations.filter((o) => o.method === 'PUT' && o.path.includes('{_id}') && o.availability !== 'unavailable')) {
    const segment = op.path.split('/')[1] ?? '';
    const recipe = V0_RECIPES[segment];
    if (!recipe?.update) continue;
    const created = await send(cell.v0.url, {
      method: 'POST',
      path: `/${segment}`,
      headers: { authorization: `Bearer ${a.teamToken()}`, 'content-type': 'application/json' },
      body: JSON.stringify(recipe.create(world.ids.get('/v1/contacts')?.[0] ?? '')),
    });
    const id = (created.json as { _id?: string } | undefined)?._id;
    if (!id) {
      ledger.find('race-setup', `v0 POST /${segment}`, `POST /${segment}`, created, 'could not create the resource to race on');
      continue;
    }
    const path = op.path.replace('{_id}', id);
    const [field, value] = Object.entries(recipe.update)[0]!;
    const values = Array.from({ length: WRITERS }, (_v, i) => (typeof value === 'string' ? `${value} ${i}` : value));
    const probes = values.map((v): Probe => ({
      method: 'PUT',
      path,
      headers: { authorization: `Bearer ${a.teamToken()}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...recipe.update, [field]: v }),
    }));
    const answers = await Promise.all(probes.map((p) => send(cell.v0.url, p)));
    const name = `v0 PUT ${op.path}`;
    answers.forEach((answer, i) => judge(ledger, 'v0', name, probes[i]!, answer));
    const ok = answers.filter((x) => x.status === 200).length;
    if (ok !== WRITERS) {
      ledger.find(
        'v0-last-writer-wins',
        name,
        probes[answers.findIndex((x) => x.status !== 200)]!,
        answers.find((x) => x.status !== 200),
        `${WRITERS - ok} of ${WRITERS} concurrent PUTs were refused; v0 is last-writer-wins, every one must answer 200`,
        'concurrent v0 PUTs',
      );
      continue;
    }
    const after = await send(cell.v0.url, { method: 'GET', path, headers: { authorization: `Bearer ${a.teamToken()}` } });
    const final = (after.json as Record<string, unknown> | undefined)?.[field];
    if (!values.includes(final as never)) ledger.find('lost-update', name, `GET ${path}`, after, `${field} is ${JSON.stringify(final)}, none of the values written`);
    else ledger.bump('v0 last-writer-wins races');
  }
  return ledger;
}
