import assert from 'node:assert/strict';
import { V1_SCOPES, generateToken, withChecksum } from '@workcell/credentials';
import { measureQueryCost } from '@workcell/db/testing';
import { authenticateCredential, invoke } from '@workcell/domain';
import { useTestEnvironment } from '@workcell/testing';
import { startV1Cell, type V1Cell } from './support/cell.js';

/**
 * Issue 4: no timing difference may reveal which check failed for the secret comparison. Timings on a shared
 * machine prove nothing either way, so this proves the cause instead, deterministically: a well-formed token
 * whose secret is unknown and one that differs from a real credential's secret in a single character take
 * exactly the same path through the database (the same statements: one lookup by the keyed hash, which
 * misses) and get the same answer. A real credential takes a longer path, which shows the recording can tell
 * paths apart.
 */

const env = useTestEnvironment();

describe('v1 credential verification path', () => {
  let cell: V1Cell;
  let real: string;

  beforeAll(async () => {
    cell = await startV1Cell(env);
    real = await cell.mint(V1_SCOPES);
  });
  afterAll(() => cell?.close());

  /** The SELECT statements authentication sends for `token`, and its answer. */
  const verify = async (token: string) => {
    let answer: unknown;
    const costs = await measureQueryCost(cell.config, async (database) => {
      answer = await invoke(authenticateCredential, { database, config: cell.config, now: () => new Date() }, { token });
    });
    return { statements: costs.map((c) => c.sql), answer };
  };

  it('an unknown secret and a one-character miss of a real secret are indistinguishable', async () => {
    const body = real.slice(0, -6);
    const last = body.at(-1) === 'a' ? 'b' : 'a';
    const nearMiss = withChecksum(body.slice(0, -1) + last);
    const unknown = generateToken('personal_access_token', cell.config.region, cell.config.cell);
    const a = await verify(unknown);
    const b = await verify(nearMiss);
    assert.deepEqual(b.statements, a.statements);
    assert.equal(a.statements.length, 1, 'one lookup by the keyed hash');
    assert.deepEqual(b.answer, a.answer);
    assert.deepEqual((a.answer as { ok: boolean; code: string }).code, 'unauthenticated');
  });

  it('the recording tells paths apart: a real credential reads further', async () => {
    const unknown = await verify(generateToken('personal_access_token', cell.config.region, cell.config.cell));
    const valid = await verify(real);
    assert.equal((valid.answer as { ok: boolean }).ok, true);
    assert.ok(valid.statements.length > unknown.statements.length, `${valid.statements.length} statements`);
  });
});
