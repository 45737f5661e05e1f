import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { parseToken, V1_SCOPES, withChecksum } from '@workcell/credentials';
import { WorkcellClient } from '@workcell/sdk';
import { Redis } from 'ioredis';
import { type RedisServer, startRedisServer, useTestEnvironment } from '@workcell/testing';
import { startV1Cell, type V1Cell } from './support/cell.js';
import { type FrontDoor, startFrontDoor } from './support/front-door.js';
import { assertProblem, callApi } from './support/v1.js';

/**
 * Two cells side by side (issue 16, docs/scale-out.md "Cells"): eu1/c1 on the machine's PostgreSQL and Redis, and
 * us1/c2 with a database and a Redis server of its own. A credential works only in its own cell: the other
 * refuses it (401, never a redirect, contract 5.2 rule 2 and 9.6), whatever its untrusted routing hint says; the
 * SDK and the CLI send each credential to its cell's endpoint, derived from the hint through an endpoint template.
 * A front door on one port stands in for regional DNS: it routes `/<region>/<cell>/…` to that cell.
 */

const CELL_B: Record<string, string> = { REGION: 'us1', CELL: 'c2' };
let redisB: RedisServer | undefined;
beforeAll(async () => {
  redisB = await startRedisServer();
  CELL_B['REDIS_URL'] = redisB.url;
});
const envA = useTestEnvironment();
const envB = useTestEnvironment(CELL_B);
const CLI = createRequire(import.meta.url).resolve('@workcell/cli/dist/main.js');

/** The stand-in for regional DNS: `/<region>/<cell>/<path>` of one port goes to that cell's API. */
function regionalDns(cells: Record<string, string>): Promise<FrontDoor> {
  return startFrontDoor((url) => {
    const [, region, cell, ...rest] = url.split('/');
    const target = cells[`${region}/${cell}`];
    return target ? { target, path: `/${rest.join('/')}` } : undefined;
  });
}

describe('two cells side by side', () => {
  let a: V1Cell;
  let b: V1Cell;
  let door: FrontDoor;
  let template: string;

  beforeAll(async () => {
    a = await startV1Cell(envA);
    b = await startV1Cell(envB, { settings: CELL_B });
    door = await regionalDns({ 'eu1/c1': a.v1.url, 'us1/c2': b.v1.url });
    template = `${door.url}/{region}/{cell}`;
  });
  afterAll(async () => {
    await door?.close();
    await b?.close();
    await a?.close();
    await redisB?.stop();
  });

  it('each cell serves its own credentials and says which cell it is', async () => {
    const [tokenA, tokenB] = [await a.mint(['workspace:read']), await b.mint(['workspace:read'])];
    assert.match(tokenA, /^svc_pat_v2_eu1_c1_/);
    assert.match(tokenB, /^svc_pat_v2_us1_c2_/);
    const contextA = await callApi(a.v1, 'GET', '/v1/auth/context', tokenA);
    const contextB = await callApi(b.v1, 'GET', '/v1/auth/context', tokenB);
    assert.equal(contextA.status, 200);
    assert.equal(contextB.status, 200);
    const [dataA, dataB] = [contextA.body as { data: { region: string; cell: string } }, contextB.body as { data: { region: string; cell: string } }];
    assert.deepEqual([dataA.data.region, dataA.data.cell, dataB.data.region, dataB.data.cell], ['eu1', 'c1', 'us1', 'c2']);
    assert.notEqual(a.workspaceId, b.workspaceId);
  });

  it("refuses the other cell's credential with 401 and no redirect, in both directions", async () => {
    const [tokenA, tokenB] = [await a.mint(['workspace:read']), await b.mint(['workspace:read'])];
    for (const [url, token] of [
      [a.v1.url, tokenB],
      [b.v1.url, tokenA],
    ] as const) {
      const response = await fetch(`${url}/v1/workspace`, { headers: { authorization: `Bearer ${token}` }, redirect: 'manual' });
      assert.equal(response.status, 401);
      assert.equal(response.headers.get('location'), null);
      assert.match(response.headers.get('www-authenticate') ?? '', /^Bearer/);
      // The answer any unknown credential gets: nothing says the credential lives in another cell.
      assert.equal(((await response.json()) as { errors: { code: string }[] }).errors[0]?.code, 'unauthenticated');
    }
    // The same tokens still work at home: the refusal did not touch them.
    assert.equal((await callApi(b.v1, 'GET', '/v1/workspace', tokenB)).status, 200);
  });

  it('treats the routing hint as untrusted: a credential re-labelled for the other cell is refused there', async () => {
    const tokenB = await b.mint(['workspace:read']);
    const parsed = parseToken(tokenB);
    assert.ok(parsed.ok);
    // B's secret under A's hint, with a valid checksum: well-formed for A, but A has no such credential.
    const body = tokenB.slice(0, -6).replace('_us1_c2_', '_eu1_c1_');
    const relabelled = withChecksum(body);
    assert.ok(parseToken(relabelled).ok, 'the forged token is well-formed');
    const refused = await callApi(a.v1, 'GET', '/v1/workspace', relabelled);
    assertProblem(refused, 401, 'unauthenticated');
  });

  it("the SDK sends each credential to its own cell's endpoint, from the hint", async () => {
    const tokenA = await a.mint(V1_SCOPES);
    const tokenB = await b.mint(V1_SCOPES);
    const clientA = new WorkcellClient({ credential: tokenA, baseUrl: template });
    const clientB = new WorkcellClient({ credential: tokenB, baseUrl: template });
    const [contextA, contextB] = [await clientA.call('getAuthContext'), await clientB.call('getAuthContext')];
    assert.deepEqual([contextA.data.region, contextB.data.region], ['eu1', 'us1']);
    const tag = await clientB.call('createTag', { body: { name: 'made in us1' } });
    // The write landed in B's database only.
    assert.ok(await b.database.prisma.tag.findFirst({ where: { workspaceId: b.workspaceId, id: tag.data.id } }));
    assert.equal(await a.database.prisma.tag.count({ where: { id: tag.data.id } }), 0);
  });

  it('the CLI sends each credential to its own cell, from the hint', async () => {
    const run = (token: string) =>
      new Promise<{ status: number; stdout: string; stderr: string }>((resolve) =>
        execFile(
          process.execPath,
          [CLI, 'whoami', '--json'],
          { env: { PATH: '/usr/bin:/bin', CI: 'true', WORKCELL_TOKEN: token, WORKCELL_BASE_URL: template }, encoding: 'utf8', timeout: 30_000 },
          (error, stdout, stderr) => resolve({ status: error ? 1 : 0, stdout, stderr }),
        ),
      );
    for (const [cell, region] of [
      [a, 'eu1'],
      [b, 'us1'],
    ] as const) {
      const { token } = await cell.serviceAccount(['workspace:read'], []);
      const answer = await run(token);
      assert.equal(answer.status, 0, answer.stderr);
      assert.equal((JSON.parse(answer.stdout) as { region: string }).region, region);
    }
  });

  it("keeps each cell's state in its own Redis", async () => {
    const tokenB = await b.mint(['workspace:read']);
    assert.equal((await callApi(b.v1, 'GET', '/v1/workspace', tokenB)).status, 200);
    const own = new Redis(redisB!.url, { maxRetriesPerRequest: 1 });
    const machine = new Redis(a.config.redis.url, { maxRetriesPerRequest: 1 });
    try {
      const [ownKeys, leaked] = [await own.keys(`${envB.redisPrefix}*`), await machine.keys(`${envB.redisPrefix}*`)];
      assert.ok(ownKeys.length > 0, "cell B's Redis holds its keys");
      assert.deepEqual(leaked, [], "nothing of cell B is in cell A's Redis");
    } finally {
      own.disconnect();
      machine.disconnect();
    }
  });
});
