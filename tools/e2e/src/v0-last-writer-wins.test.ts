import assert from 'node:assert/strict';
import { createApiV0App } from '@workcell/api-v0';
import { type RunningApp, startApp, useTestEnvironment } from '@workcell/testing';
import { callV0, startV0Cell, V0_RECIPES, type V0Cell } from './support/v0.js';

/**
 * v0 is last-writer-wins (no precondition in the frozen contract): concurrent PUTs of one resource must all
 * succeed, on one instance and across two, and the resource ends as one of them with one revision per write.
 */

const env = useTestEnvironment();

const FAMILIES = ['tasks', 'projects', 'contacts', 'products', 'productgroups', 'times'] as const;
const WRITERS = 50;

type Legacy = { _id: string; revision?: number | string; version?: number | string } & Record<string, unknown>;
const revisionOf = (resource: Legacy) => Number(resource.revision ?? resource.version);

describe('v0: concurrent PUTs are last-writer-wins', () => {
  let cell: V0Cell;
  let second: RunningApp;
  let token: string;

  beforeAll(async () => {
    cell = await startV0Cell(env);
    second = await startApp(createApiV0App, cell.config);
    token = await cell.team.token();
  });
  afterAll(async () => {
    await second?.close();
    await cell?.close();
  });

  for (const family of FAMILIES) {
    it(`${family}: ${WRITERS} concurrent PUTs all answer 200, the last one wins, the revision moves by ${WRITERS}`, async () => {
      const recipe = V0_RECIPES[family]!;
      const [field] = Object.keys(recipe.update!);
      const created = await callV0<Legacy>(cell.v0, 'POST', `/${family}`, token, recipe.create(''));
      assert.equal(created.status, 201, created.text);
      const id = created.body._id;
      const before = revisionOf((await callV0<Legacy>(cell.v0, 'GET', `/${family}/${id}`, token)).body);
      assert.ok(Number.isInteger(before), `a revision on ${family}`);
      const values = Array.from({ length: WRITERS }, (_, i) => `Writer ${i}`);
      // Two instances: the writers of one instance queue, the two instances still race each other.
      const replies = await Promise.all(values.map((value, i) => callV0<Legacy>(i % 2 ? second : cell.v0, 'PUT', `/${family}/${id}`, token, { [field!]: value })));
      assert.deepEqual(
        replies.map((r) => r.status),
        values.map(() => 200),
        replies
          .filter((r) => r.status !== 200)
          .map((r) => r.text)
          .join('\n'),
      );
      const final = (await callV0<Legacy>(cell.v0, 'GET', `/${family}/${id}`, token)).body;
      assert.ok(values.includes(final[field!] as string), `${family}.${field} is one of the writes: ${String(final[field!])}`);
      assert.equal(revisionOf(final), before + WRITERS);
      // The answer with the highest revision is the final state.
      const last = replies.map((r) => r.body).sort((a, b) => revisionOf(b) - revisionOf(a))[0]!;
      assert.equal(last[field!], final[field!]);
    });
  }
});
