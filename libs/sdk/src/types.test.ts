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
    const api = new WorkcellClient({ credential: generateToken('personal_access_token', 'eu1', 'c1'), baseUrl: 'https://api.test', fetch: (async () => new Response(null, { status: 204 })) as unknown as typeof fetch });
    // @ts-expect-error a body attribute the operation does not declare
    void api.call('createTag', { body: { nme: 'n' } }).catch(() => undefined);
    // @ts-expect-error getTag answers a tag, not a project
    const wrong: ResponseData<'getTag'> = { title: 'x' };
    assert.deepEqual([item.name, body.name, typeof wrong], ['n', 'n', 'object']);
  });
});
