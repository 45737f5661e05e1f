import net from 'node:net';

/**
 * A loopback TCP proxy a test can cut and restore, standing in for "PostgreSQL (or Redis) was killed and
 * came back" without stopping the machine's shared server. Cutting closes the listener (new connections
 * are refused, as with a stopped server) and destroys every open connection.
 */
export class TcpProxy {
  private server: net.Server | undefined;
  private readonly sockets = new Set<net.Socket>();
  private boundPort = 0;

  private constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  static async start(target: string): Promise<TcpProxy> {
    const url = new URL(target);
    const proxy = new TcpProxy(url.hostname, Number(url.port));
    await proxy.listen(0);
    return proxy;
  }

  get port(): number {
    return this.boundPort;
  }

  /** The target URL with its host and port replaced by the proxy's. */
  rewrite(target: string): string {
    const url = new URL(target);
    url.hostname = '127.0.0.1';
    url.port = String(this.boundPort);
    return url.toString();
  }

  private listen(port: number): Promise<void> {
    const server = net.createServer((client) => {
      const upstream = net.connect(this.targetPort, this.targetHost);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        this.boundPort = (server.address() as net.AddressInfo).port;
        resolve();
      });
    });
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  async restore(): Promise<void> {
    if (!this.server) await this.listen(this.boundPort);
  }

  async close(): Promise<void> {
    await this.cut();
  }
}
