import { randomUUID } from 'node:crypto';
import { PERMISSION_KEYS, V1_SCOPES } from '@workcell/credentials';
import { type GrantResourceType, issueCredential, inTransaction } from '@workcell/db';
import { addMember, addServiceAccount } from '@workcell/e2e/support/cell';
import { RESOURCE_DOMAINS, v1Operations } from '@workcell/registry';
import { waitFor } from '@workcell/testing';
import { type Answer, inParallel, type Probe, send } from '../support/http.js';
import { Ledger } from '../support/ledger.js';
import { sampleFor } from '../support/samples.js';
import type { World } from '../support/world.js';

/**
 * Check 5 (issue 24): who may see what, differentially. In workspace A a project is shared (one member as viewer,
 * one service account as viewer) and one of every resource the registry can create is made inside it (registry
 * driven: every served create, its ids pointed at the shared project and its task). Then, for each principal kind —
 * an administrator, a member outside the list, the listed viewer, a personal token with a subset of scopes, a
 * listed and an unlisted service account with read grants on every type, one without grants, another credential
 * of the administrator (not the owner of the first one's exports and subscriptions), a member without
 * members:pii:read — the ids it meets through every list, the change feed, webhook deliveries, search, exports
 * and activity must be ids it can GET (no path shows more), and what it can GET must be on every path that shows
 * that kind of resource to the administrator (no path shows less). Its writes follow its access: nothing it
 * cannot GET, and nothing in the shared project for the viewer, may be changed.
 */

type Principal = { readonly name: string; readonly token: string; readonly scopes: readonly string[]; readonly pii: boolean };
type Ids = Map<string, Set<string>>;

const ADMINISTRATION = ['roles:write', 'members:write'];
const MEMBER_PERMISSIONS = PERMISSION_KEYS.filter((k) => !ADMINISTRATION.includes(k));
const HOOK_URL = 'https://127.0.0.1:9/hook';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The collection path of a change-feed resource type (`time-entries` -> `/v1/time-entries`) when it has a GET by id. */
const getOf = new Map(v1Operations.filter((o) => o.method === 'GET' && /^\/v1\/[a-z-]+\/\{id\}$/.test(o.path)).map((o) => [o.path.replace('/{id}', ''), o]));
// Top-level lists that need no query parameter (comments are listed per target, through activity's targets below).
const lists = v1Operations.filter(
  (o) =>
    o.method === 'GET' &&
    o.response.kind === 'list' &&
    /^\/v1\/[a-z-]+$/.test(o.path) &&
    getOf.has(o.path) &&
    Object.keys((sampleFor(o.request.query, () => undefined, false) as object | undefined) ?? {}).length === 0,
);

export async function visibility(world: World): Promise<Ledger> {
  const ledger = new Ledger('visibility');
  const { cell, a } = world;
  const v1 = world.v1.url;
  const call = async (token: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> => {
    const probe: Probe = {
      method,
      path,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    };
    const answer = await send(v1, probe);
    ledger.count(answer);
    if (answer.status >= 500) ledger.find('5xx', `${method} ${path}`, probe, answer, `answered ${answer.status}`);
    return answer;
  };
  const dataOf = <T>(answer: Answer) => (answer.json as { data?: T } | undefined)?.data;
  const listAll = async (token: string, path: string): Promise<Record<string, unknown>[] | null> => {
    const items: Record<string, unknown>[] = [];
    let next: string | null = path;
    for (let page = 0; next && page < 200; page++) {
      const answer = await call(token, 'GET', next);
      if (answer.status !== 200) return answer.status === 403 ? null : (ledger.find('list-refused', path, next, answer, `a list answered ${answer.status}`), null);
      const body = answer.json as { data: Record<string, unknown>[]; links?: { next: string | null } };
      items.push(...body.data);
      next = body.links?.next ? new URL(body.links.next).pathname + new URL(body.links.next).search : null;
    }
    return items;
  };

  // --- the shared project, and one of everything inside it -------------------------------------------------------
  const marker = `zvis${randomUUID().slice(0, 8)}`;
  const shared = dataOf<{ id: string }>(await call(a.pat, 'POST', '/v1/projects', { name: `${marker} shared project` }))!.id;
  const sharedTask = dataOf<{ id: string }>(await call(a.pat, 'POST', '/v1/tasks', { title: `${marker} shared task`, projectId: shared }))!.id;
  const openTask = dataOf<{ id: string }>(await call(a.pat, 'POST', '/v1/tasks', { title: `${marker} open task` }))!.id;
  const known: Ids = new Map([
    ['/v1/projects', new Set([shared])],
    ['/v1/tasks', new Set([sharedTask, openTask])],
  ]);
  for (const [collection, ids] of world.ids) if (getOf.has(collection)) for (const id of ids) (known.get(collection) ?? known.set(collection, new Set()).get(collection)!).add(id);
  const inside = (property: string) => (/^project(Id)?$/i.test(property) ? shared : /^(task|templateTask)Id$/.test(property) ? sharedTask : world.resolve(property));
  const properties = (op: (typeof v1Operations)[number]) => Object.keys(((op.request.body as { shape?: object } | null)?.shape ?? {}) as object);
  for (const op of v1Operations.filter((o) => o.method === 'POST' && /^\/v1\/[a-z-]+$/.test(o.path) && o.request.body && world.served.has(o.operationId))) {
    let made: Answer | undefined;
    // Every attribute first, then only the required ones; either way pointed at the shared project and its task.
    for (const full of [true, false]) {
      const sample = sampleFor(op.request.body, inside, full);
      if (sample === null || typeof sample !== 'object' || Array.isArray(sample)) continue;
      const body: Record<string, unknown> = { ...(sample as Record<string, unknown>) };
      const names = properties(op);
      if (names.includes('projectId') && op.path !== '/v1/projects') body['projectId'] = shared;
      for (const key of ['taskId', 'templateTaskId']) if (names.includes(key)) body[key] = sharedTask;
      if (names.includes('taskId') && names.includes('projectId')) delete body['projectId'];
      if ('targetType' in body) Object.assign(body, { targetType: 'tasks', targetId: sharedTask });
      // A time range of its own (a generated one may overlap the world's entry of the same member: 409).
      if (names.includes('startedAt') && names.includes('endedAt'))
        Object.assign(body, { startedAt: '2021-03-04T05:06:00.000Z', endedAt: '2021-03-04T05:16:00.000Z', durationSeconds: undefined, userId: undefined });
      for (const key of ['name', 'title']) if (typeof body[key] === 'string') body[key] = `${marker} ${op.operationId}`;
      made = await call(a.pat, 'POST', op.path, body);
      if (made.status < 300) break;
    }
    const id = made === undefined ? undefined : dataOf<{ id?: string }>(made)?.id;
    if (made && made.status < 300 && id) (known.get(op.path) ?? known.set(op.path, new Set()).get(op.path)!).add(id);
    else ledger.bump(`creates inside the shared project refused (${op.operationId} ${made?.status ?? 'no body'})`);
  }

  // --- the principals ---------------------------------------------------------------------------------------------
  const all = await cell.database.prisma.$queryRawUnsafe<{ t: string }[]>('SELECT unnest(enum_range(NULL::resource_type))::text AS t');
  const readGrants = all.map((r) => ({ resourceType: r.t as GrantResourceType, resourceId: null, access: 'read' as const }));
  const outsider = await addMember(cell.database, cell.config, a.workspaceId, MEMBER_PERMISSIONS);
  const viewer = await addMember(cell.database, cell.config, a.workspaceId, MEMBER_PERMISSIONS);
  const noPii = await addMember(
    cell.database,
    cell.config,
    a.workspaceId,
    MEMBER_PERMISSIONS.filter((k) => k !== 'members:pii:read'),
  );
  const owner = { workspaceId: a.workspaceId, ownerMemberId: a.memberId };
  const listedSa = await addServiceAccount(cell.database, cell.config, owner, V1_SCOPES, readGrants);
  const unlistedSa = await addServiceAccount(cell.database, cell.config, owner, V1_SCOPES, readGrants);
  const bareSa = await addServiceAccount(cell.database, cell.config, owner, V1_SCOPES, []);
  const version = dataOf<{ version: string }>(await call(a.pat, 'GET', `/v1/projects/${shared}/sharing`))!.version;
  const sharing = await call(a.pat, 'PUT', `/v1/projects/${shared}/sharing`, {
    expectedVersion: version,
    entries: [
      { principalType: 'member', principalId: viewer.memberId, access: 'viewer' },
      { principalType: 'service-account', principalId: listedSa.serviceAccountId, access: 'viewer' },
    ],
  });
  if (sharing.status !== 200) ledger.find('setup', 'replaceProjectSharing', 'PUT sharing', sharing, 'the project could not be shared');
  const subset = [
    'projects:read',
    'tasks:read',
    'time-entries:read',
    'comments:read',
    'documents:read',
    'activity:read',
    'search:read',
    'changes:read',
    'exports:read',
    'exports:write',
    'webhooks:read',
    'webhooks:write',
  ];
  const principals: Principal[] = [
    { name: 'administrator', token: a.pat, scopes: V1_SCOPES, pii: true },
    { name: 'member outside the list', token: await outsider.mint(V1_SCOPES), scopes: V1_SCOPES, pii: true },
    { name: 'listed viewer', token: await viewer.mint(V1_SCOPES), scopes: V1_SCOPES, pii: true },
    { name: 'member without members:pii:read', token: await noPii.mint(V1_SCOPES), scopes: V1_SCOPES, pii: false },
    { name: 'personal token with a subset of scopes', token: await viewer.mint(subset), scopes: subset, pii: false },
    { name: 'listed service account (read grants)', token: listedSa.token, scopes: V1_SCOPES, pii: true },
    { name: 'unlisted service account (read grants)', token: unlistedSa.token, scopes: V1_SCOPES, pii: true },
    { name: 'service account without grants', token: bareSa.token, scopes: V1_SCOPES, pii: true },
  ];
  // Another credential of the administrator: the first one's exports and subscriptions are not its own.
  const other = await inTransaction(cell.database, (tx) =>
    issueCredential(tx, cell.config, { workspaceId: a.workspaceId, kind: 'personal_access_token', name: `visibility ${marker}`, scopes: V1_SCOPES, memberId: a.memberId }),
  );
  principals.push({ name: 'administrator’s other credential', token: other.token, scopes: V1_SCOPES, pii: true });

  // Subscriptions of every principal before the events are fanned out again below.
  const hooks = new Map<string, string>();
  for (const p of principals) {
    const made = await call(p.token, 'POST', '/v1/webhooks', { url: HOOK_URL, eventTypes: ['*'] });
    const id = dataOf<{ id: string }>(made)?.id;
    if (id) hooks.set(p.name, id);
  }
  // The administrator's own export, which no other credential may see on any path.
  const adminExport = dataOf<{ id: string }>(await call(a.pat, 'POST', '/v1/exports', { resourceTypes: ['tags'], format: 'jsonl' }))?.id;
  if (adminExport) known.set('/v1/exports', new Set([adminExport]));
  if (hooks.get('administrator')) known.set('/v1/webhooks', new Set([hooks.get('administrator')!]));

  // --- what each can GET: asked once per (principal, resource), when a path first shows it or it is known ----------------
  // Appointments and absences are not compared: their GET is the caller's own calendar, while their events and lists
  // follow the delegated scopes (another member's calendar is read through /v1/members/{id}/…).
  const UNCOMPARED = new Set(['/v1/appointments', '/v1/absences']);
  const answers = new Map<string, Promise<boolean>>();
  const canGet = (p: Principal, collection: string, id: string): Promise<boolean> => {
    const key = `${p.name} ${collection}/${id}`;
    if (!answers.has(key))
      answers.set(
        key,
        call(p.token, 'GET', `${collection}/${id}`).then((r) => r.status === 200),
      );
    return answers.get(key)!;
  };
  const comparable = (collection: string) => getOf.has(collection) && !UNCOMPARED.has(collection);
  for (const p of principals) for (const [collection, set] of known) if (comparable(collection)) await inParallel([...set], 4, (id) => canGet(p, collection, id));
  const report = async (p: Principal, path: string, shown: string, collection: string, id: string) => {
    if (!comparable(collection)) return ledger.bump('entries not compared');
    if (await canGet(p, collection, id)) return;
    ledger.find('shown-but-not-gettable', `${path} (${p.name})`, `${path} as ${p.name}`, undefined, `${shown} shows ${collection}/${id}, which GET answers 404 or 403`, `${path} shows more than GET`);
  };
  const missing = (p: Principal, path: string, collection: string, id: string) =>
    ledger.find(
      'gettable-but-not-shown',
      `${path} (${p.name})`,
      `${path} as ${p.name}`,
      undefined,
      `${collection}/${id} can be read with GET but ${path} leaves it out (the administrator's shows it)`,
      `${path} shows less than GET`,
    );

  // Sanity: the rule is in force at all (otherwise every comparison below is vacuous).
  const outsiderName = 'member outside the list';
  if (await canGet(principals[1]!, '/v1/projects', shared)) ledger.find('sharing-not-enforced', 'getProject', `GET /v1/projects/${shared}`, undefined, `the ${outsiderName} reads the shared project`);
  if (!(await canGet(principals[2]!, '/v1/tasks', sharedTask)))
    ledger.find('sharing-over-enforced', 'getTask', `GET /v1/tasks/${sharedTask}`, undefined, 'the listed viewer cannot read the shared project’s task');

  // --- lists --------------------------------------------------------------------------------------------------------
  const adminLists = new Map<string, Set<string>>();
  for (const op of lists) {
    for (const p of principals) {
      const items = await listAll(p.token, op.path);
      if (items === null) continue;
      const ids = new Set(items.map((i) => String(i['id'])));
      if (p.name === 'administrator') adminLists.set(op.path, ids);
      for (const id of ids) await report(p, op.operationId, op.path, op.path, id);
      for (const id of adminLists.get(op.path) ?? []) if (comparable(op.path) && !ids.has(id) && (await canGet(p, op.path, id))) missing(p, op.operationId, op.path, id);
      if (!p.pii)
        for (const item of items)
          if (typeof item['email'] === 'string') ledger.find('personal-data-shown', `${op.operationId} (${p.name})`, op.path, undefined, 'an e-mail address reached a caller without members:pii:read');
    }
  }

  // --- the change feed ----------------------------------------------------------------------------------------------
  const feedOf = async (p: Principal) => (await listAll(p.token, '/v1/changes?limit=200')) as { id: string; resourceType: string; resourceId: string; action: string }[] | null;
  const adminFeed = (await feedOf(principals[0]!)) ?? [];
  const bySequence = new Map(adminFeed.map((c) => [c.id, c]));
  for (const p of principals.slice(1)) {
    const feed = await feedOf(p);
    if (feed === null) continue;
    const seen = new Set(feed.map((c) => `${c.resourceType}/${c.resourceId}`));
    for (const c of feed) await report(p, 'listChanges', 'the change feed', `/v1/${c.resourceType}`, c.resourceId);
    // Every project and task it can read was created: its feed has that entry when its scopes cover the type.
    for (const c of adminFeed) {
      const collection = `/v1/${c.resourceType}`;
      if (
        c.action === 'created' &&
        (c.resourceType === 'projects' || c.resourceType === 'tasks') &&
        p.scopes.includes(`${c.resourceType}:read`) &&
        !seen.has(`${c.resourceType}/${c.resourceId}`) &&
        (await canGet(p, collection, c.resourceId))
      ) {
        missing(p, 'listChanges', collection, c.resourceId);
      }
    }
  }

  // --- webhook fan-out: every event of A fanned out again, now to every principal's subscription ----------------------
  await cell.database.prisma.$executeRawUnsafe('UPDATE outbox_events SET published_at = NULL WHERE workspace_id = $1::uuid', a.workspaceId);
  await cell.database.prisma.$executeRawUnsafe("SELECT pg_notify('workcell_outbox', $1)", a.workspaceId);
  await waitFor('the relay to publish every event again', async () => (await cell.database.prisma.outboxEvent.count({ where: { workspaceId: a.workspaceId, publishedAt: null } })) === 0, 120_000, 250);
  for (const p of principals) {
    const hook = hooks.get(p.name);
    if (!hook) continue;
    const rows = await cell.database.prisma.$queryRawUnsafe<{ sequence: string }[]>(
      'SELECT o.sequence::text AS sequence FROM webhook_deliveries d JOIN outbox_events o ON o.workspace_id = d.workspace_id AND o.id = d.event_id WHERE d.workspace_id = $1::uuid AND d.subscription_id = $2::uuid',
      a.workspaceId,
      hook,
    );
    for (const { sequence } of rows) {
      const c = bySequence.get(sequence);
      if (!c) ledger.bump('deliveries of events outside the feed (not compared)');
      else await report(p, 'webhook fan-out', 'a webhook delivery', `/v1/${c.resourceType}`, c.resourceId);
    }
    ledger.bump('webhook deliveries compared', rows.length);
  }

  // --- search -------------------------------------------------------------------------------------------------------
  const adminHits = new Set<string>();
  for (const p of principals) {
    const hits = await listAll(p.token, `/v1/search?q=${marker}`);
    if (hits === null) continue;
    const ids = new Set(hits.map((h) => `${String(h['type'])}/${String(h['id'])}`));
    if (p.name === 'administrator') for (const id of ids) adminHits.add(id);
    for (const h of hits) await report(p, 'searchResources', 'search', `/v1/${String(h['type'])}`, String(h['id']));
    for (const key of adminHits) {
      const [type, id] = key.split('/') as [string, string];
      if (p.scopes.includes(`${type}:read`) && comparable(`/v1/${type}`) && !ids.has(key) && (await canGet(p, `/v1/${type}`, id))) missing(p, 'searchResources', `/v1/${type}`, id);
    }
  }
  // A member's address matches nothing for a caller who may not read it.
  for (const p of principals.filter((x) => !x.pii && x.scopes.includes('users:read') && x.scopes.includes('search:read'))) {
    const hits = (await listAll(p.token, `/v1/search?q=${encodeURIComponent(outsider.email)}&types=users`)) ?? [];
    if (hits.length > 0)
      ledger.find('personal-data-matched', `searchResources (${p.name})`, 'search by e-mail', undefined, 'a search by an e-mail address found its member for a caller without members:pii:read');
  }

  // --- exports ------------------------------------------------------------------------------------------------------
  const exportable = RESOURCE_DOMAINS.filter((d) => d !== 'comments');
  for (const p of principals) {
    const types = exportable.filter((d) => p.scopes.includes(`${d}:read`) && known.has(`/v1/${d}`));
    if (!p.scopes.includes('exports:write') || types.length === 0) continue;
    for (let i = 0; i < types.length; i += 10) {
      const made = await call(p.token, 'POST', '/v1/exports', { resourceTypes: types.slice(i, i + 10), format: 'jsonl' });
      const id = dataOf<{ id: string }>(made)?.id;
      if (!id) continue;
      const done = await waitFor(
        `export ${id}`,
        async () => {
          const status = dataOf<{ status: string }>(await call(p.token, 'GET', `/v1/exports/${id}`))?.status;
          return status === 'succeeded' || status === 'failed' ? status : null;
        },
        60_000,
        250,
      );
      if (done !== 'succeeded') continue;
      const download = await call(p.token, 'GET', `/v1/exports/${id}/download`);
      for (const line of download.text.split('\n').filter(Boolean)) {
        const row = JSON.parse(line) as { type: string; data: { id?: string } };
        if (row.data.id && UUID.test(row.data.id)) await report(p, 'createExport', 'an export', `/v1/${row.type}`, row.data.id);
      }
    }
  }

  // --- activity: a target's stream exactly when the target can be read -------------------------------------------------
  for (const p of principals.filter((x) => x.scopes.includes('activity:read'))) {
    for (const [collection, targetType] of [
      ['/v1/projects', 'projects'],
      ['/v1/tasks', 'tasks'],
    ] as const) {
      if (!p.scopes.includes(`${collection.slice(4)}:read`)) continue;
      for (const id of known.get(collection) ?? []) {
        const answer = await call(p.token, 'GET', `/v1/activity?targetType=${targetType}&targetId=${id}`);
        const readable = await canGet(p, collection, id);
        if (answer.status === 200 && !readable) report(p, 'listActivity', 'activity', collection, id);
        if (answer.status !== 200 && readable) missing(p, 'listActivity', collection, id);
      }
    }
  }

  // --- writes follow access: nothing it cannot GET changes, nor anything of the shared project for its viewer -------------
  const updates = v1Operations.filter((o) => o.method === 'PATCH' && /^\/v1\/[a-z-]+\/\{id\}$/.test(o.path) && world.served.has(o.operationId));
  for (const p of principals.slice(1)) {
    const viewerOnly = p.name === 'listed viewer' || p.name === 'listed service account (read grants)';
    for (const op of updates) {
      const collection = op.path.replace('/{id}', '');
      for (const id of known.get(collection) ?? []) {
        if (!comparable(collection)) continue;
        const hidden = !(await canGet(p, collection, id));
        const insideShared = viewerOnly && !hidden && !(await canGet(principals[1]!, collection, id));
        if (!hidden && !insideShared) continue;
        const current = await call(a.pat, 'GET', `${op.path.replace('{id}', id)}`);
        const version = (dataOf<{ version?: string; revision?: string }>(current) ?? {}).version;
        const etag = typeof current.headers.etag === 'string' ? current.headers.etag : undefined;
        const body = { ...(sampleFor(op.request.body, world.resolve, false) as Record<string, unknown> | undefined), ...(version === undefined ? {} : { expectedVersion: version }) };
        const answer = await call(p.token, 'PATCH', op.path.replace('{id}', id), body, op.concurrency === 'if-match' && etag ? { 'if-match': etag } : {});
        ledger.bump('writes tried beyond access');
        if (answer.status < 300)
          ledger.find(
            'write-beyond-access',
            `${op.operationId} (${p.name})`,
            `PATCH ${op.path}`,
            answer,
            `${hidden ? 'a resource it cannot read' : 'a resource of a project it only views'} was changed`,
          );
      }
    }
  }
  ledger.bump('principals', principals.length);
  return ledger;
}
