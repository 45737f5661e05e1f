import assert from 'node:assert/strict';
import { v1Operations } from '@workcell/registry';
import { testConfig } from '@workcell/testing';
import { captureLogger, createStrayApiApp } from './fixtures.js';
import { compareWithRegistry, INFRASTRUCTURE_ROUTES, registryRoutes, routePath } from './index.js';

describe('registry routing', () => {
  it('converts registry path templates to route syntax', () => {
    assert.equal(routePath('/v1/tasks/{id}/timer/start'), '/v1/tasks/:id/timer/start');
    assert.equal(routePath('/calendar/{token}.ics'), '/calendar/:token.ics');
  });

  it('reports implemented and missing operations', () => {
    const mounted = [{ method: 'GET', url: '/v1' }, { method: 'HEAD', url: '/v1' }, { method: 'GET', url: '/healthz' }, { method: 'POST', url: '/trpc/:path' }];
    const coverage = compareWithRegistry('v1', mounted, INFRASTRUCTURE_ROUTES);
    assert.deepEqual(coverage.implemented, ['getApiVersion']);
    assert.equal(coverage.notImplemented.length, v1Operations.length - 1);
    assert.equal(registryRoutes('v1').length, 237);
    assert.equal(registryRoutes('v0').length, 87);
  });

  it('refuses a route that is not a registry operation', () => {
    assert.throws(() => compareWithRegistry('v1', [{ method: 'GET', url: '/v1/bogus' }], INFRASTRUCTURE_ROUTES), /not registry operations: GET \/v1\/bogus/);
    assert.throws(() => compareWithRegistry('v0', [{ method: 'PATCH', url: '/tasks/:_id' }], INFRASTRUCTURE_ROUTES), /PATCH \/tasks\/:_id/);
  });

  it('an API app that mounts a stray route refuses to start', async () => {
    const config = testConfig();
    await assert.rejects(createStrayApiApp(config, captureLogger(config).logger), /GET \/v1\/not-in-the-registry/);
  });
});
