import { randomUUID } from 'node:crypto';
import { PERMISSION_KEYS, V1_SCOPES } from '@workcell/credentials';
import { type GrantResourceType, issueCredential, inTransaction } from '@workcell/db';
import { routeCoverage } from '@workcell/http';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { type OperationDefinition, type V0OperationDefinition, v1Operations } from '@workcell/registry';
import type { RunningApp, TestEnvironment } from '@workcell/testing';
import { startV0Cell, type Team, type V0Cell } from '@workcell/e2e/support/v0';
import { send } from './http.js';
import { sampleFor } from './samples.js';

/**
 * The platform the reliability checks run against: the e2e fixtures' cell (auth service, worker, api-v0 and
 * api-v1 on one database) with two workspaces, A (the seeded demo workspace) and B, each with a v1 personal
 * access token, a v1 service-account credential (every scope, write grants on every resource type) and v0 team
 * tokens. A's resources are made through the API itself, driven by the registry: every served create operation
 * is sent a body generated from its schema, so a new resource type gets instances without new code here.
 */

export interface Tenant {
  readonly workspaceId: string;
  readonly memberId: string;
  /** v1 personal access token with every scope. */
  readonly pat: string;
  /** v1 service-account credential with every scope and write grants on every resource type. */
  readonly serviceAccount: string;
  /** v0 team tokens, used in turn: v0 limits each token to 100 requests a minute per path. */
  readonly teamTokens: readonly string[];
  /** The next team token in turn. */
  teamToken(): string;
}

export interface World {
  readonly cell: V0Cell;
  readonly v1: RunningApp;
  readonly a: Tenant;
  readonly b: Tenant;
  /** v1 operation ids the api-v1 app serves (the others answer 501). */
  readonly served: ReadonlySet<string>;
  /** A's resource ids by collection path template (`/v1/projects`, `/v1/members/{id}/appointments`). */
  readonly ids: Map<string, string[]>;
  /** Create operations that found no body the service accepted (their resources are probed with random ids). */
  readonly unseeded: readonly string[];
  /** The v1 path of an operation with A's ids filled in (a random UUID where A has none). */
  pathFor(op: OperationDefinition): Promise<string>;
  /** The v0 path of an operation with A's ids filled in. */
  pathForV0(op: V0OperationDefinition): string;
  /** An id resolver over A's resources for generated bodies. */
  resolve(property: string): string | undefined;
  /**
   * A new personal access token of A's member with every scope: a check gives an operation a credential of its
   * own, since some operations revoke the credential that calls them (DELETE /v1/auth/context).
   */
  mintToken(label: string): Promise<string>;
  close(): Promise<void>;
}

const RANDOM_ID = () => randomUUID();
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function equip(cell: V0Cell, team: Team, label: string, withRole: boolean, tokens: number): Promise<Tenant> {
  const { workspaceId, memberId } = team;
  const prisma = cell.database.prisma;
  const resourceTypes = (await prisma.$queryRawUnsafe<{ t: string }[]>('SELECT unnest(enum_range(NULL::resource_type))::text AS t')).map((r) => r.t);
  const { pat, serviceAccount } = await inTransaction(cell.database, async (tx) => {
    if (withRole) {
      const role = await tx.prisma.role.create({ data: { workspaceId, name: `Owner ${label}`, description: 'Every permission', permissions: [...PERMISSION_KEYS], isSystem: true } });
      await tx.prisma.memberRole.create({ data: { workspaceId, memberId, roleId: role.id } });
    }
    const account = await tx.prisma.serviceAccount.create({ data: { workspaceId, name: `reliability ${label}`, ownerMemberId: memberId } });
    await tx.prisma.resourceGrant.createMany({
      data: resourceTypes.map((resourceType) => ({ workspaceId, serviceAccountId: account.id, resourceType: resourceType as GrantResourceType, resourceId: null, access: 'write' as const })),
    });
    const pat = (await issueCredential(tx, cell.config, { workspaceId, kind: 'personal_access_token', name: `reliability pat ${label}`, scopes: V1_SCOPES, memberId })).token;
    const serviceAccount = (await issueCredential(tx, cell.config, { workspaceId, kind: 'service_account', name: `reliability sa ${label}`, scopes: V1_SCOPES, serviceAccountId: account.id })).token;
    return { pat, serviceAccount };
  });
  const teamTokens: string[] = [];
  for (let i = 0; i < tokens; i++) teamTokens.push(await team.token());
  let turn = 0;
  return { workspaceId, memberId, pat, serviceAccount, teamTokens, teamToken: () => teamTokens[turn++ % teamTokens.length]! };
}

/** `projectId` -> `project`, `contactGroupId` -> `contact-group`, `tagIds` -> `tag`. */
function kebabOfIdProperty(property: string): string {
  return property
    .replace(/Ids?$/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .toLowerCase();
}

/** `/v1/product-groups` -> `product-group`. */
function singularOfCollection(path: string): string {
  return (path.split('/').pop() ?? '').replace(/ies$/, 'y').replace(/s$/, '');
}

export async function startWorld(env: TestEnvironment, settings: Record<string, string> = {}): Promise<World> {
  const cell = await startV0Cell(env, { v1: true, settings });
  const v1 = cell.v1!;
  const a = await equip(cell, cell.team, 'A', false, 40);
  const b = await equip(cell, await cell.otherTeam('Reliability B'), 'B', true, 10);
  const served = new Set(routeCoverage(v1.app as NestFastifyApplication).implemented);
  const ids = new Map<string, string[]>();
  const add = (collection: string, id: unknown) => {
    if (typeof id !== 'string' && typeof id !== 'number') return;
    const list = ids.get(collection) ?? [];
    if (!list.includes(String(id))) list.push(String(id));
    ids.set(collection, list);
  };
  const resolve = (property: string): string | undefined => {
    const wanted = kebabOfIdProperty(property);
    if (/^(assignee|member|owner-member|user|actor|created-by)$/.test(wanted) || wanted.endsWith('member')) return ids.get('/v1/members')?.[0];
    // A `targetId` beside a `targetType` (comments): a generated body takes the enum's first type, contacts.
    if (wanted === 'target') return ids.get('/v1/contacts')?.[0];
    // A project's customer is a contact.
    if (wanted === 'customer') return ids.get('/v1/contacts')?.[0];
    let best: string | undefined;
    for (const collection of ids.keys()) {
      if (collection.includes('{')) continue;
      const singular = singularOfCollection(collection);
      if ((wanted === singular || wanted.endsWith(`-${singular}`)) && (!best || singular.length > singularOfCollection(best).length)) best = collection;
    }
    return best ? ids.get(best)?.[0] : undefined;
  };
  const get = async (path: string) => send(v1.url, { method: 'GET', path, headers: { authorization: `Bearer ${a.pat}` } });

  // What A has already (the demo seed): every served top-level list, except the identities the suite itself
  // authenticates with. An accepted hostile DELETE (a lower-case `bearer` is valid) on the first credential,
  // member or service account listed would revoke the suite's own access; A gets a spare member instead, and the
  // credentials and service accounts made below.
  const OWN_IDENTITIES = new Set(['/v1/credentials', '/v1/service-accounts', '/v1/members']);
  const spare = await inTransaction(cell.database, async (tx) => {
    const user = await tx.prisma.user.create({ data: { email: `${randomUUID()}@reliability.test`, name: 'Spare member' } });
    return tx.prisma.workspaceMember.create({ data: { workspaceId: a.workspaceId, userId: user.id } });
  });
  add('/v1/members', spare.id);
  for (const op of v1Operations.filter((o) => o.method === 'GET' && o.response.kind === 'list' && !o.path.includes('{') && served.has(o.operationId) && !OWN_IDENTITIES.has(o.path))) {
    const reply = await get(op.path);
    // Only UUIDs are A's resources: a static catalog's keys (`/v1/automation-actions`: `tasks.create`) belong to no workspace.
    for (const item of (reply.json as { data?: { id?: string }[] } | undefined)?.data ?? []) if (typeof item.id === 'string' && UUID.test(item.id)) add(op.path, item.id);
  }
  // Then one of everything A can create: a few passes, since some bodies need ids of other resources.
  const creates = v1Operations.filter((o) => o.method === 'POST' && !o.path.includes('{') && (o.success === 201 || o.success === 202) && o.request.body && served.has(o.operationId));
  const pending = new Set(creates);
  for (let pass = 0; pass < 3 && pending.size > 0; pass++) {
    for (const op of [...pending]) {
      for (const full of [false, true]) {
        const body = sampleFor(op.request.body, resolve, full);
        const reply = await send(v1.url, { method: 'POST', path: op.path, headers: { authorization: `Bearer ${a.pat}`, 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) });
        const id = (reply.json as { data?: { id?: string } } | undefined)?.data?.id;
        if (reply.status >= 200 && reply.status < 300 && id) {
          add(op.path, id);
          // A create that makes another resource too names it (an upload intent's `fileId`): A has that one as well.
          for (const [property, value] of Object.entries((reply.json as { data: Record<string, unknown> }).data)) {
            const collection = `/v1/${kebabOfIdProperty(property)}s`;
            if (/[a-z]Id$/.test(property) && !ids.has(collection) && creates.every((c) => c.path !== collection) && v1Operations.some((o) => o.path === collection && o.method === 'GET'))
              add(collection, value);
          }
          pending.delete(op);
          break;
        }
      }
    }
  }

  // Another member's calendar (the delegated /v1/members/{id}/… creates, which the passes above skip): one of each
  // for the spare member, so the nested routes (`…/appointments/{appointmentId}`) reach a real resource.
  for (const op of v1Operations.filter((o) => o.method === 'POST' && /^\/v1\/members\/\{id\}\/[a-z-]+$/.test(o.path) && o.success === 201 && o.request.body && served.has(o.operationId))) {
    const body = sampleFor(op.request.body, resolve, false);
    const reply = await send(v1.url, {
      method: 'POST',
      path: op.path.replace('{id}', spare.id),
      headers: { authorization: `Bearer ${a.pat}`, 'content-type': 'application/json' },
      body: JSON.stringify(body ?? {}),
    });
    if (reply.status !== 201) pending.add(op);
  }

  const nested = new Map<string, string[]>();
  const pathFor = async (op: OperationDefinition): Promise<string> => {
    let path = op.path as string;
    for (let k = 0; ; k++) {
      const match = /\{(\w+)\}/.exec(path);
      if (!match) return path;
      const collection = path.slice(0, match.index - 1);
      // The first parameter names a top-level resource; later ones a nested resource, which its own list
      // operation names (`/v1/projects/<id>/lifecycle-operations`).
      let found = k === 0 ? ids.get(collection)?.[0] : undefined;
      if (found === undefined) {
        if (!nested.has(collection)) {
          const reply = await get(collection);
          const data = (reply.json as { data?: Record<string, unknown>[] } | undefined)?.data;
          nested.set(collection, Array.isArray(data) ? data.map((d) => String(d['id'] ?? d['versionNumber'] ?? d['version'] ?? d['number'] ?? '')).filter(Boolean) : []);
        }
        found = nested.get(collection)?.[0];
      }
      // A numbered nested resource (`{versionNumber}`) of which A has none: a number, so the lookup answers, not the edge.
      const missing = /Number$/.test(match[1]!) ? '1' : RANDOM_ID();
      path = `${path.slice(0, match.index)}${found ?? missing}${path.slice(match.index + match[0].length)}`;
    }
  };
  const collectionOfV0 = (op: V0OperationDefinition): string | undefined => {
    const target = v1Operations.find((o) => o.operationId === op.v1OperationId);
    const first = target?.path.split('/')[2];
    return first ? `/v1/${first}` : undefined;
  };
  const pathForV0 = (op: V0OperationDefinition): string =>
    op.path.replace(/\{(\w+)\}/g, (_m, name: string) => (name === 'token' ? '{token}' : (ids.get(collectionOfV0(op) ?? '')?.[0] ?? RANDOM_ID())));

  /** Create operations that found no body the service accepted (their resources are probed with random ids). */
  const unseeded = [...pending].map((op) => op.operationId);
  let minted = 0;
  const mintToken = async (label: string) =>
    (
      await inTransaction(cell.database, (tx) =>
        issueCredential(tx, cell.config, { workspaceId: a.workspaceId, kind: 'personal_access_token', name: `${label}-${++minted}`, scopes: V1_SCOPES, memberId: a.memberId }),
      )
    ).token;
  return {
    unseeded,
    cell,
    v1,
    a,
    b,
    served,
    ids,
    pathFor,
    pathForV0,
    resolve,
    mintToken,
    close: () => cell.close(),
  };
}
