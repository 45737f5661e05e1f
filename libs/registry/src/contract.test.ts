import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { CONTRACT_FIXTURE } from './contract-fixture.js';
import { CONTRACT_PATH, loadContract, parseOperationMap, parseScopes, parseStatedBehaviors, tableRows } from './contract.js';
import { findV0Operation, findV1Operation, getV1Operation, v0Operations, v1Operations } from './index.js';

const contract = loadContract();
const map = parseOperationMap(contract.text);

/** v1 paths of the contract tables have no version prefix; the registry serves them under /v1. */
const v1Path = (path: string) => (path.startsWith('/v1') ? path : `/v1${path}`);

describe(`contract 4.3 / 4.4 agreement (source: ${contract.source})`, () => {
  (existsSync(CONTRACT_PATH) ? it : it.skip)('the embedded fixture equals the live contract tables', () => {
    const live = readFileSync(CONTRACT_PATH, 'utf8');
    for (const heading of ['### 4.3', '### 4.4', '### 5.3']) {
      assert.deepEqual(tableRows(CONTRACT_FIXTURE, heading), tableRows(live, heading), heading);
    }
    assert.deepEqual(parseScopes(CONTRACT_FIXTURE), parseScopes(live));
  });

  it('falls back to the embedded transcription when the contract file is absent', () => {
    const fallback = loadContract('/nonexistent/service-contract.md');
    assert.equal(fallback.source, 'fixture');
    assert.deepEqual(parseOperationMap(fallback.text), map);
    assert.deepEqual(parseStatedBehaviors(fallback.text), parseStatedBehaviors(contract.text));
  });

  it('4.3 has 87 rows and the registry has exactly those v0 operations, in table order', () => {
    assert.equal(map.length, 87);
    assert.deepEqual(
      v0Operations.map((op) => `${op.method} ${op.path}`),
      map.map((row) => `${row.method} ${row.path}`),
    );
  });

  for (const row of map) {
    it(`v0 ${row.method} ${row.path} agrees with 4.3`, () => {
      const op = findV0Operation(row.method as 'GET', row.path);
      assert.ok(op, 'missing v0 operation');
      assert.equal(op.availability, row.availability);
      assert.equal(op.migrationClass, row.migrationClass);
      assert.equal(op.v1OperationId, row.v1?.operationId ?? null);
      if (row.v1) {
        const target = getV1Operation(row.v1.operationId);
        if (row.v1.method) assert.equal(target.method, row.v1.method);
        if (row.v1.path) assert.equal(target.path, v1Path(row.v1.path));
      }
    });
  }

  it('every v1 operation named by 4.3 exists with exactly that method, path and name', () => {
    const named = map.flatMap((row) => (row.v1 ? [row.v1] : []));
    const distinct = new Map(named.map((n) => [n.operationId, n]));
    assert.ok(distinct.size >= 60);
    for (const n of distinct.values()) {
      const op = findV1Operation(n.operationId);
      assert.ok(op, n.operationId);
      if (n.method && n.path) {
        assert.equal(`${op.method} ${op.path}`, `${n.method} ${v1Path(n.path)}`, n.operationId);
      }
    }
    assert.equal(getV1Operation('getApiVersion').path, '/v1');
  });

  it('the v1 operations with stated behavior (4.4) exist with their scope', () => {
    const stated = parseStatedBehaviors(contract.text);
    assert.equal(stated.length, 3);
    for (const s of stated) {
      const op = v1Operations.find((o) => o.method === s.method && o.path === v1Path(s.path));
      assert.ok(op, `${s.method} ${s.path}`);
      if (s.scope.startsWith('none')) assert.deepEqual(op.scopes, []);
      else assert.deepEqual(op.scopes, [s.scope]);
      assert.ok(op.authenticated);
    }
    assert.equal(getV1Operation('getAuthContext').method, 'GET');
    assert.equal(getV1Operation('revokeAuthContext').method, 'DELETE');
    assert.equal(getV1Operation('getWorkspace').path, '/v1/workspace');
  });

  (contract.source === 'live' ? it : it.skip)('v0 public operations are exactly those 4.2 marks "Auth none"', () => {
    const none = tableRows(contract.text, '### 4.2').filter((c) => c[1] === 'none');
    const routes = none.map((c) => (c[0] ?? '').replace(/ \(.*\)$/, ''));
    assert.deepEqual(
      routes,
      v0Operations.filter((op) => !op.authenticated).map((op) => `${op.method} ${op.path}`),
    );
  });
});
