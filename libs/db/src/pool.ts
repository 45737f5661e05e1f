import pg from 'pg';

/**
 * A pg pool that is safe to end right before its database goes away (tests drop their database with FORCE the
 * moment they finish):
 *
 * - It always has an 'error' listener. A server that terminates a pooled connection (a restart, a dropped
 *   database, a network fault) makes pg emit 'error' on the pool; without a listener that kills the process.
 *   Prisma's adapter adds a listener only while it is connected, and `$disconnect()` removes it.
 * - `end()` resolves only when every connection is closed. pg-pool's own `end()` resolves as soon as it has
 *   *asked* its clients to close, so a DROP DATABASE … WITH (FORCE) issued right after could still find a
 *   backend and terminate it; its FATAL reached a client that had already left the pool.
 */
export interface ManagedPool {
  readonly pool: pg.Pool;
  end(): Promise<void>;
}

export function createManagedPool(options: pg.PoolConfig): ManagedPool {
  return managePool(new pg.Pool(options));
}

/** Makes any pg pool (a subclass too) a ManagedPool: the listener, and an `end()` that waits for every connection. */
export function managePool<P extends pg.Pool>(pool: P): ManagedPool & { readonly pool: P } {
  pool.on('error', () => undefined);
  const open = new Set<pg.PoolClient>();
  pool.on('connect', (client) => {
    open.add(client);
    client.once('end', () => open.delete(client));
  });
  let ended: Promise<void> | undefined;
  return {
    pool,
    end() {
      ended ??= (async () => {
        const closing = [...open].map((client) => new Promise<void>((resolve) => client.once('end', () => resolve())));
        await pool.end();
        await Promise.all(closing);
      })();
      return ended;
    },
  };
}
