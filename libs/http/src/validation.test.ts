import assert from 'node:assert/strict';
import { hostileInputIssues, jsonStructureProblem, MAX_JSON_DEPTH } from './validation.js';

describe('JSON body structure', () => {
  it('finds a key repeated within one object, however it is escaped, and only there', () => {
    for (const ok of ['{"a":1,"b":{"a":2}}', '[{"a":1},{"a":2}]', '{"a":"}{\\",\\"a\\":","b":1}', '{"a":"\\\\","b":"\\\\"}', '"a"', '[]', '{}']) {
      assert.equal(jsonStructureProblem(ok), null, ok);
    }
    for (const bad of ['{"a":1,"a":2}', '{"a":1,"b":[1,{"c":1}],"a":3}', '{"a\\"b":1,"a\\u0022b":2}', '{"x":{"n":1,"n":1}}', '{"a":"\\\\","a":1}']) {
      assert.match(jsonStructureProblem(bad) ?? '', /appears more than once/, bad);
    }
  });

  it(`refuses nesting deeper than ${MAX_JSON_DEPTH} levels`, () => {
    const nested = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
    assert.equal(jsonStructureProblem(nested(MAX_JSON_DEPTH)), null);
    assert.match(jsonStructureProblem(nested(MAX_JSON_DEPTH + 1)) ?? '', /deeper than/);
    assert.match(jsonStructureProblem(`{"a":${nested(100_000)}}`) ?? '', /deeper than/);
  });
});

describe('text no operation accepts', () => {
  const request = (parts: { url?: string; params?: unknown; query?: unknown; body?: unknown }) => ({ url: '/x', params: {}, query: {}, body: undefined, ...parts });

  it('keeps tab, line feed, carriage return and well-formed Unicode', () => {
    assert.deepEqual(hostileInputIssues(request({ body: { note: 'a\tb\r\nc', emoji: '\u{1F600}', deep: [{ x: 'é' }] }, query: { q: 'x' } })), []);
  });

  it('names the pointer or parameter of NUL, other control characters and lone surrogates', () => {
    const issues = hostileInputIssues(
      request({ body: { name: 'a\u0000b', list: [{ 'k/~': '\u001b[31m' }], half: '\ud800' }, query: { q: '\u0007', tags: ['ok', 'a\u0000'] }, params: { id: '\u0000' } }),
    );
    assert.deepEqual(issues.map((i) => i.parameter ?? i.pointer).sort(), ['/half', '/list/0/k~1~0', '/name', 'id', 'q', 'tags'].sort());
  });

  it('refuses percent-encoding that does not decode to UTF-8', () => {
    assert.deepEqual(hostileInputIssues(request({ url: '/v1/tags?cursor=%E2%82%AC&x=a+b' })), []);
    assert.deepEqual(
      hostileInputIssues(request({ url: '/v1/tags?cursor=%FF' })).map((i) => i.parameter),
      ['cursor'],
    );
    assert.deepEqual(
      hostileInputIssues(request({ url: '/v1/tags?%ED%A0%80=1' })).map((i) => i.parameter),
      ['query'],
    );
    assert.deepEqual(
      hostileInputIssues(request({ url: '/v1/tags/%C3%28' })).map((i) => i.parameter),
      ['path'],
    );
  });
});
