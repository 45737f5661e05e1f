import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { generateToken } from '@workcell/credentials';
import { type ListItem, type RequestBody, type ResponseData, WorkcellClient } from './client.js';
import { renderTypes, TARGET } from './types-gen.js';

describe('generated request and response types', () => {
  it('match the v1 OpenAPI document (regenerate with `npx nx run @workcell/sdk:generate-types`)', async () => {
    assert.equal(readFileSync(TARGET, 'utf8'), await renderTypes());
  });

  it('type bodies, data and list items per operation (checked by the compiler)', () => {
    const tag: ResponseData<'getTag'> = { id: 'x', createdAt: '', updatedAt: '', archivedAt: null, name: 'n', color: null };
    const item: ListItem<'listTags'> = tag;
    const body: RequestBody<'createTag'> = { name: 'n' };
    const api = new WorkcellClient({
      credential: generateToken('personal_access_token', 'eu1', 'c1'),
      baseUrl: 'https://api.test',
      fetch: (async () => new Response(null, { status: 204 })) as unknown as typeof fetch,
    });
    // @ts-expect-error a body attribute the operation does not declare
    void api.call('createTag', { body: { nme: 'n' } }).catch(() => undefined);
    // @ts-expect-error getTag answers a tag, not a project
    const wrong: ResponseData<'getTag'> = { title: 'x' };
    assert.deepEqual([item.name, body.name, typeof wrong], ['n', 'n', 'object']);
  });
});

describe('typed path and query parameters', () => {
  const api = new WorkcellClient({
    credential: generateToken('personal_access_token', 'eu1', 'c1'),
    baseUrl: 'https://api.test',
    fetch: (async () => new Response('{"data":[]}', { status: 200 })) as unknown as typeof fetch,
  });
  const quiet = (call: Promise<unknown>) => void call.catch(() => undefined);

  it('refuse at compile time what the operation does not declare (checked by the compiler)', () => {
    quiet(api.call('getTag', { path: { id: 'x' } }));
    quiet(api.call('listTags', { query: { limit: 5, cursor: 'c' } }));
    // @ts-expect-error a misspelt path parameter
    quiet(api.call('getTag', { path: { idd: 'x' } }));
    // @ts-expect-error the path parameter is missing
    quiet(api.call('getTag', {}));
    // @ts-expect-error the options (and with them the path) are missing
    quiet(api.call('getTag'));
    // @ts-expect-error a misspelt query parameter
    quiet(api.call('listTags', { query: { limt: 5 } }));
    // @ts-expect-error a query parameter of the wrong type
    quiet(api.call('listTags', { query: { limit: 'many' } }));
    // @ts-expect-error getWorkspace takes no path parameters
    quiet(api.call('getWorkspace', { path: { id: 'x' } }));
    quiet(api.call('updateTask', { path: { id: 'x' }, body: { title: 'n' }, ifMatch: '"1"' }));
    // @ts-expect-error an If-Match operation without ifMatch (contract 4.4)
    quiet(api.call('updateTask', { path: { id: 'x' }, body: { title: 'n' } }));
    // @ts-expect-error ifMatch where the operation declares no If-Match
    quiet(api.call('getTag', { path: { id: 'x' }, ifMatch: '"1"' }));
    quiet(api.download('downloadExport', { path: { id: 'x' } }));
    // @ts-expect-error download takes the operations that answer a file only
    quiet(api.download('getTag', { path: { id: 'x' } }));
    quiet(
      (async () => {
        // @ts-expect-error paginate types its parameters too
        for await (const _ of api.paginate('listTags', { query: { limt: 5 } })) break;
      })(),
    );
    assert.ok(true);
  });

  it('leave run-time operation names to request(), which the API checks instead', async () => {
    const reply = await api.request('listTags', { query: { limit: '5' } });
    assert.deepEqual(reply.data, []);
    await assert.rejects(api.request('noSuchOperation'), /unknown operation noSuchOperation/);
  });
});
