import assert from 'node:assert/strict';
import fastJsonStringify from 'fast-json-stringify';
import { openApiDocument } from '@workcell/registry';
import { measureCompiledSerialization, successSchemaOf } from './serialization.bench.js';

describe('the compiled-serialization ledger row', () => {
  const example = (): unknown => {
    const document = JSON.parse(openApiDocument('v1').text) as { paths: Record<string, Record<string, { responses: Record<string, { content: Record<string, { example: unknown }> }> }>> };
    return document.paths['/v1/tasks']!['get']!.responses['200']!.content['application/json']!.example;
  };

  it('compiles the success schema of an operation from the published document, with the components it refers to', () => {
    const schema = successSchemaOf('listTasks');
    assert.ok('components' in schema);
    const compiled = fastJsonStringify(schema);
    assert.equal(compiled(example()), JSON.stringify(example()));
    assert.throws(() => successSchemaOf('noSuchOperation'), /not in the v1 document/);
  });

  it('reports both serializers per page and whether their bytes agree', async () => {
    const result = await measureCompiledSerialization('listTasks', example(), 4, 2);
    assert.equal(result.identical, true);
    assert.ok(result.baselineMs > 0 && result.candidateMs > 0);
    // A body the schema cannot describe byte for byte (a property it does not declare) is told apart.
    const extra = { ...(example() as object), undeclared: true };
    assert.equal((await measureCompiledSerialization('listTasks', extra, 2, 1)).identical, false);
  });
});
