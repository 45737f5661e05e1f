import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { mountedRoutes, ProtocolError } from '@workcell/http';

/**
 * A path of the service asked with a method it does not serve there answers 405 with `Allow` (RFC 9110 15.5.6),
 * as the API apps' known paths do, instead of 404: the routes mounted by then (the pages, the probes) say which.
 */
export function installMethodNotAllowed(app: NestFastifyApplication): void {
  const routes = mountedRoutes(app);
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRequest', async (request) => {
      if (request.routeOptions.url !== undefined) return;
      const path = request.url.split('?')[0];
      const allow = [...new Set(routes.filter((r) => r.url === path).map((r) => r.method))].sort();
      if (allow.length > 0) throw new ProtocolError(405, 'method_not_allowed', `${request.method} is not allowed on this path; allowed: ${allow.join(', ')}`, [], { allow: allow.join(', ') });
    });
}
