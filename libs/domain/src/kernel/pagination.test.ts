import assert from 'node:assert/strict';
import { testConfig } from '@workcell/testing';
import { DomainError } from './errors.js';
import { decodeCursor, encodeCursor, paginate } from './pagination.js';

const config = testConfig();
const scope = { workspaceId: '01a1fc94-97ea-7433-a1ba-8714884845a1', list: 'listThings' };

describe('cursor pagination', () => {
  it('round-trips a cursor within its scope', () => {
    const cursor = encodeCursor(config, scope, 'abc');
    assert.equal(decodeCursor(config, scope, cursor), 'abc');
    assert.equal(decodeCursor(config, scope, undefined), undefined);
  });

  it('refuses edited, truncated, foreign and differently-filtered cursors', () => {
    const cursor = encodeCursor(config, scope, 'abc');
    const [payload, signature] = cursor.split('.') as [string, string];
    const forged = Buffer.from(JSON.stringify({ v: 1, s: 'x', a: 'zzz' })).toString('base64url');
    for (const bad of [
      `${forged}.${signature}`,
      cursor.slice(0, -2),
      `${payload}`,
      `${payload}.${signature}.x`,
      'not-a-cursor',
      encodeCursor(config, { ...scope, workspaceId: '01a1fc94-97ea-7433-a1ba-000000000000' }, 'abc'),
      encodeCursor(config, { ...scope, list: 'listOther' }, 'abc'),
      encodeCursor(config, { ...scope, filter: { status: 'active' } }, 'abc'),
      encodeCursor(testConfig({ CREDENTIAL_SECRET: 'another-secret-another-secret-1234' }), scope, 'abc'),
    ]) {
      assert.throws(
        () => decodeCursor(config, scope, bad),
        (e: unknown) => e instanceof DomainError && e.code === 'validation_failed',
        bad,
      );
    }
  });

  it('pages with one extra row and no skips or duplicates', async () => {
    const ids = Array.from({ length: 7 }, (_, i) => `id-${i}`);
    const fetch = async (after: string | undefined, take: number) =>
      ids
        .filter((id) => after === undefined || id > after)
        .slice(0, take)
        .map((id) => ({ id }));
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await paginate(config, scope, { cursor, limit: 3 }, fetch);
      seen.push(...page.items.map((i) => i.id));
      cursor = page.nextCursor ?? undefined;
      pages++;
    } while (cursor);
    assert.deepEqual(seen, ids);
    assert.equal(pages, 3);
  });
});
