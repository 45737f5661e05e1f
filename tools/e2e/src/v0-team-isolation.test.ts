import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { v0Operations } from '@workcell/registry';
import { useTestEnvironment } from '@workcell/testing';
import { callV0, type LegacyReply, type Team, startV0Cell, V0_RECIPES, type V0Cell } from './support/v0.js';

/**
 * Contract 1 and issue 5: "the token's team is applied on every write; a different team id in a body or
 * selector never moves an operation to another team and never reveals another team's data". Driven by the
 * registry: EVERY v0 write operation is called with another team's ids in its selector (path or body alias)
 * and that team's id in every team-ish body field; creates must land in the token's team, everything else must
 * answer 404 (403 for `unavailable` operations), and the other team's resources must be exactly as before.
 */

const env = useTestEnvironment();

type Legacy = { _id: string } & Record<string, unknown>;

describe('v0: the token’s team on every write operation', () => {
  let cell: V0Cell;
  let own: Team;
  let other: Team;
  let ownToken: string;
  let otherToken: string;
  let ownContactId: string;
  const foreign = new Map<string, string>();

  const call = <T = unknown>(method: string, path: string, token: string, body?: unknown) => callV0<T>(cell.v0, method, path, token, body);
  const created = async (reply: LegacyReply<Legacy>, what: string) => {
    assert.equal(reply.status, 201, `${what}: ${reply.text}`);
    return reply.body._id;
  };
  /** Every field name a legacy client might use to name a team, all set to the other team. */
  const teamFields = () => ({ team: other.workspaceId, teamId: other.workspaceId, _team: other.workspaceId, workspaceId: other.workspaceId, workspace: other.workspaceId });
  /** What the other team can see of its own resources, to compare before and after. */
  const otherTeamState = async () => {
    const state: Record<string, unknown> = {};
    for (const segment of Object.keys(V0_RECIPES)) {
      const list = await call<Legacy[]>('GET', `/${segment}?limit=500`, otherToken);
      assert.equal(list.status, 200, `${segment}: ${list.text}`);
      state[segment] = list.body;
    }
    return state;
  };

  beforeAll(async () => {
    cell = await startV0Cell(env);
    own = cell.team;
    other = await cell.otherTeam();
    ownToken = await own.token();
    otherToken = await other.token();
    ownContactId = await created(await call<Legacy>('POST', '/contacts', ownToken, V0_RECIPES['contacts']!.create('')), 'own contact');
    const otherContactId = await created(await call<Legacy>('POST', '/contacts', otherToken, V0_RECIPES['contacts']!.create('')), 'other contact');
    for (const [segment, resource] of Object.entries(V0_RECIPES)) {
      foreign.set(segment, await created(await call<Legacy>('POST', `/${segment}`, otherToken, resource.create(otherContactId)), `other ${segment}`));
    }
  });

  afterAll(() => cell?.close());

  it('covers every v0 write operation of the registry', () => {
    const writes = v0Operations.filter((op) => op.method !== 'GET');
    assert.equal(writes.length, 54);
    for (const op of writes) {
      const segment = op.path.split('/')[1]!;
      if (op.availability !== 'unavailable') assert.ok(V0_RECIPES[segment], `${op.method} ${op.path} has a body recipe`);
    }
  });

  it('creates land in the token’s team; every other write of another team’s resource answers 404 (403 when unavailable) and changes nothing', async () => {
    const before = await otherTeamState();
    for (const op of v0Operations.filter((o) => o.method !== 'GET')) {
      const segment = op.path.split('/')[1]!;
      const resource = V0_RECIPES[segment];
      const foreignId = foreign.get(segment) ?? randomUUID();
      const path = op.path.replace('{_id}', foreignId);
      const what = `${op.method} ${op.path}`;
      const isCreate = op.method === 'POST' && op.path === `/${segment}`;
      let body: Record<string, unknown> | undefined;
      if (isCreate) body = { ...(resource?.create(ownContactId) ?? { name: 'x' }), ...teamFields() };
      else if (op.method === 'PUT') body = { ...(resource?.update ?? { name: 'Hijacked' }), ...teamFields(), ...(op.bodyAlias ? { _id: foreignId } : {}) };
      else if (op.method === 'POST') body = { ...teamFields() };
      else if (op.bodyAlias) body = { _id: foreignId, ...teamFields() };
      const reply = await call<Legacy>(op.method, path, ownToken, body);

      if (op.availability === 'unavailable') {
        assert.equal(reply.status, 403, `${what}: ${reply.text}`);
      } else if (isCreate) {
        const id = await created(reply, what);
        assert.equal((await call('GET', `/${segment}/${id}`, ownToken)).status, 200, `${what}: readable by its own team`);
        assert.equal((await call('GET', `/${segment}/${id}`, otherToken)).status, 404, `${what}: not created in the other team`);
      } else {
        assert.equal(reply.status, 404, `${what}: ${reply.text}`);
      }
    }
    assert.deepEqual(await otherTeamState(), before, 'the other team’s resources are exactly as before');
  });

  it('reads never reveal another team’s resource either', async () => {
    for (const [segment, id] of foreign) assert.equal((await call('GET', `/${segment}/${id}`, ownToken)).status, 404, segment);
  });
});
