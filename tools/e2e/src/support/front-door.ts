import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A reverse proxy on a port of 127.0.0.1: what stands in front of a cell's instances or a region's cells. */
export interface FrontDoor {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Starts a front door that forwards each request to the base URL `route` picks (with the path it returns), or answers
 * 404 when it picks none: a load balancer over instances, or regional DNS over cells.
 */
export async function startFrontDoor(route: (path: string) => { target: string; path: string } | undefined): Promise<FrontDoor> {
  const server = http.createServer((req, res) => {
    const picked = route(req.url ?? '/');
    if (!picked) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('no route');
      return;
    }
    const upstream = new URL(picked.path, picked.target);
    const forwarded = http.request(upstream, { method: req.method, headers: { ...req.headers, host: upstream.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forwarded.on('error', () => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
    req.pipe(forwarded);
  });
  // Keep-alive sockets of clients would hold close() open.
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A round-robin load balancer over instances of one service. */
export function startBalancer(targets: readonly string[]): Promise<FrontDoor> {
  let next = 0;
  return startFrontDoor((path) => ({ target: targets[next++ % targets.length]!, path }));
}
