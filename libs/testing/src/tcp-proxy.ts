import net from 'node:net';
import type { Impostor } from './impostors.js';

/**
 * A loopback TCP proxy a test can fault and restore, standing in for a dependency (PostgreSQL, Redis, the auth
 * service) failing without touching the machine's shared servers. Two faults, the two a network produces, and a
 * third the dependency itself produces:
 *
 * - `cut()`: the dependency is gone. The listener closes (new connections are refused, as with a stopped
 *   server) and every open connection is destroyed (its peer sees a reset/close at once).
 * - `blackhole()`: a partition. Nothing is refused or closed; every byte in either direction is silently
 *   dropped and new connections are accepted but never reach the target, so a client learns of the fault only
 *   from its own timeouts.
 * - `impersonate(impostor)`: the dependency is up but refuses the work (PostgreSQL at max_connections, Redis
 *   loading its dataset; impostors.ts). Every open connection is destroyed, as by the restart that brought it to
 *   that state, and every new one is answered by the impostor instead of the target.
 * - `slow(ms)`: the dependency answers, late. Every chunk, either way, is forwarded `ms` later (in order), so each
 *   round trip takes at least twice that; nothing is lost.
 *
 * `restore()` ends any fault. Connections that were black-holed lost bytes and cannot resume, so they are
 * destroyed then (as a partition outlasting TCP's retransmissions does); new connections forward again.
 */
export class TcpProxy {
  private server: net.Server | undefined;
  private readonly sockets = new Set<net.Socket>();
  /** Connections alive while the proxy was black-holed: destroyed on restore. */
  private readonly stale = new Set<net.Socket>();
  private boundPort = 0;
  private dropping = false;
  private latencyMs = 0;
  private impostor: Impostor | undefined;

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

  /** The current fault, for a test's messages. */
  get state(): 'forwarding' | 'cut' | 'blackholed' | 'impersonated' | 'slow' {
    if (!this.server) return 'cut';
    if (this.impostor) return 'impersonated';
    if (this.latencyMs > 0) return 'slow';
    return this.dropping ? 'blackholed' : 'forwarding';
  }

  /** The target URL with its host and port replaced by the proxy's. */
  rewrite(target: string): string {
    const url = new URL(target);
    url.hostname = '127.0.0.1';
    url.port = String(this.boundPort);
    return url.toString();
  }

  private track(socket: net.Socket, peer: () => net.Socket | undefined): void {
    this.sockets.add(socket);
    if (this.dropping) this.stale.add(socket);
    socket.on('close', () => {
      this.sockets.delete(socket);
      this.stale.delete(socket);
      peer()?.destroy();
    });
    socket.on('error', () => {
      socket.destroy();
      peer()?.destroy();
    });
    const forward = (chunk: Buffer) => {
      if (this.dropping) return;
      const other = peer();
      if (!other || other.destroyed) return;
      // Back-pressure as pipe() would apply it, so a fast side cannot buffer without bound in the proxy.
      if (!other.write(chunk)) {
        socket.pause();
        other.once('drain', () => socket.resume());
      }
    };
    // Timers of one duration fire in the order they were set, so a slowed stream keeps its order.
    socket.on('data', (chunk: Buffer) => (this.latencyMs > 0 ? setTimeout(() => forward(chunk), this.latencyMs) : forward(chunk)));
  }

  private listen(port: number): Promise<void> {
    const server = net.createServer((client) => {
      if (this.impostor) {
        // Answered here, never forwarded; reset on restore like a black-holed connection.
        this.sockets.add(client);
        this.stale.add(client);
        client.on('close', () => {
          this.sockets.delete(client);
          this.stale.delete(client);
        });
        this.impostor(client);
        return;
      }
      // While black-holed a connection is accepted but never forwarded: the partition swallows it.
      const upstream = this.dropping ? undefined : net.connect(this.targetPort, this.targetHost);
      this.track(client, () => upstream);
      if (upstream) this.track(upstream, () => client);
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

  /** The dependency is gone: refuse new connections and reset every open one. */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    this.dropping = false;
    this.latencyMs = 0;
    this.impostor = undefined;
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    this.stale.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** A partition: keep every connection open and accept new ones, but drop every byte either way. */
  async blackhole(): Promise<void> {
    if (!this.server) await this.listen(this.boundPort);
    this.latencyMs = 0;
    this.dropping = true;
    for (const s of this.sockets) this.stale.add(s);
  }

  /** The dependency answers, but with a refusal: open connections are reset and new ones meet `impostor`. */
  async impersonate(impostor: Impostor): Promise<void> {
    if (!this.server) await this.listen(this.boundPort);
    this.dropping = false;
    this.latencyMs = 0;
    this.impostor = impostor;
    for (const s of this.sockets) s.destroy();
  }

  /** A slow dependency: every chunk either way is forwarded `latencyMs` late; open connections carry on, slowed. */
  async slow(latencyMs: number): Promise<void> {
    if (!this.server) await this.listen(this.boundPort);
    this.dropping = false;
    this.impostor = undefined;
    this.latencyMs = latencyMs;
  }

  /** Ends any fault: new connections forward again; connections that lost bytes or met an impostor are reset. */
  async restore(): Promise<void> {
    this.latencyMs = 0;
    this.dropping = false;
    this.impostor = undefined;
    for (const s of this.stale) s.destroy();
    this.stale.clear();
    if (!this.server) await this.listen(this.boundPort);
  }

  async close(): Promise<void> {
    await this.cut();
  }
}
