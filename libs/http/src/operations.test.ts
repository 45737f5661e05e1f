import assert from 'node:assert/strict';
import { type V1OperationId, v1Operations } from '@workcell/registry';
import { testConfig } from '@workcell/testing';
import { captureLogger, createMisplacedHandlerApp, createStrayApiApp } from './testing.js';
import { compareWithRegistry, INFRASTRUCTURE_ROUTES, Operation, registryRoutes, routePath } from './index.js';

describe('registry routing', () => {
  it('converts registry path templates to route syntax', () => {
    assert.equal(routePath('/v1/tasks/{id}/timer/start'), '/v1/tasks/:id/timer/start');
    assert.equal(routePath('/calendar/{token}.ics'), '/calendar/:token.ics');
  });

  it('reports implemented and missing operations', () => {
    const mounted = [
      { method: 'GET', url: '/v1' },
      { method: 'HEAD', url: '/v1' },
      { method: 'GET', url: '/healthz' },
      { method: 'POST', url: '/trpc/:path' },
    ];
    const coverage = compareWithRegistry('v1', mounted, INFRASTRUCTURE_ROUTES);
    assert.deepEqual(coverage.implemented, ['getApiVersion']);
    assert.equal(coverage.notImplemented.length, v1Operations.length - 1);
    assert.equal(registryRoutes('v1').length, 237);
    assert.equal(registryRoutes('v0').length, 87);
  });

  it('@Operation sends the Cache-Control its registry entry declares (every secret-revealing operation), and no other', () => {
    const headersOf = (operationId: V1OperationId) => {
      const target = { handler: () => undefined };
      const descriptor = Object.getOwnPropertyDescriptor(target, 'handler')!;
      Operation(operationId)(target, 'handler', descriptor);
      return (Reflect.getMetadata('__headers__', descriptor.value) ?? []) as { name: string; value: string }[];
    };
    const declaring = v1Operations.filter((op) => op.responseHeaders.includes('Cache-Control'));
    assert.ok(
      v1Operations.filter((op) => op.revealsSecret).every((op) => declaring.includes(op)),
      'an operation that reveals a secret declares it',
    );
    for (const op of v1Operations) {
      const expected = declaring.includes(op) ? [{ name: 'Cache-Control', value: 'private, no-store' }] : [];
      assert.deepEqual(headersOf(op.operationId as V1OperationId), expected, op.operationId);
    }
  });

  it('refuses a route that is not a registry operation', () => {
    assert.throws(() => compareWithRegistry('v1', [{ method: 'GET', url: '/v1/bogus' }], INFRASTRUCTURE_ROUTES), /not registry operations: GET \/v1\/bogus/);
    assert.throws(() => compareWithRegistry('v0', [{ method: 'PATCH', url: '/tasks/:_id' }], INFRASTRUCTURE_ROUTES), /PATCH \/tasks\/:_id/);
  });

  it('an API app that mounts a stray route refuses to start', async () => {
    const config = testConfig();
    await assert.rejects(createStrayApiApp(config, captureLogger(config).logger), /GET \/v1\/not-in-the-registry/);
  });

  it('an API app with a handler of an operation it does not serve refuses to start', async () => {
    const config = testConfig();
    await assert.rejects(createMisplacedHandlerApp(config, captureLogger(config).logger), /v1 has handlers for operations it does not serve: legacyGetTeams/);
  });
});
