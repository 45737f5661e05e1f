import net from 'node:net';

/**
 * Servers that answer like a dependency in trouble, speaking just enough of its protocol for a real client to
 * read the refusal: what a fault test puts behind a TcpProxy (`TcpProxy.impersonate`) or listens with
 * (`startImpostor`). Each is a handler of one accepted connection.
 */
export type Impostor = (socket: net.Socket) => void;

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;

/** A PostgreSQL ErrorResponse ('E'): each field a type byte and a NUL-terminated value, the list ended by a NUL. */
function errorResponse(fields: Readonly<Record<string, string>>): Buffer {
  const body = Buffer.concat([...Object.entries(fields).map(([type, value]) => Buffer.from(`${type}${value}\0`, 'utf8')), Buffer.from([0])]);
  const head = Buffer.alloc(5);
  head.write('E', 0, 'latin1');
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

/**
 * A PostgreSQL server that refuses every session while reading its startup packet, as a server at
 * max_connections does: FATAL 53300 "sorry, too many clients already", then it closes. An SSL or GSS encryption
 * request is declined ('N') first, as by a server without TLS, so the client goes on to its startup packet.
 */
export function postgresRefusing(sqlstate = '53300', message = 'sorry, too many clients already'): Impostor {
  const refusal = errorResponse({ S: 'FATAL', V: 'FATAL', C: sqlstate, M: message });
  return (socket) => {
    socket.on('error', () => undefined);
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      // Startup-phase packets carry no type byte: int32 length (itself included), then int32 code.
      while (pending.length >= 8 && pending.length >= pending.readInt32BE(0)) {
        const length = pending.readInt32BE(0);
        const code = pending.readInt32BE(4);
        pending = pending.subarray(length);
        if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
          socket.write('N');
          continue;
        }
        socket.end(refusal);
        return;
      }
    });
  };
}

/** Reads RESP commands (arrays of bulk strings, or inline commands) off a socket, one callback per command. */
function readCommands(socket: net.Socket, onCommand: (args: string[]) => void): void {
  let pending = '';
  socket.on('data', (chunk: Buffer) => {
    pending += chunk.toString('latin1');
    for (;;) {
      const parsed = parseCommand(pending);
      if (!parsed) return;
      pending = pending.slice(parsed.consumed);
      onCommand(parsed.args);
    }
  });
}

function parseCommand(text: string): { args: string[]; consumed: number } | undefined {
  const lineEnd = text.indexOf('\r\n');
  if (lineEnd < 0) return undefined;
  if (!text.startsWith('*')) return { args: text.slice(0, lineEnd).split(' ').filter(Boolean), consumed: lineEnd + 2 };
  const count = Number(text.slice(1, lineEnd));
  let at = lineEnd + 2;
  const args: string[] = [];
  for (let i = 0; i < count; i++) {
    const end = text.indexOf('\r\n', at);
    if (end < 0 || text[at] !== '$') return undefined;
    const length = Number(text.slice(at + 1, end));
    if (text.length < end + 2 + length + 2) return undefined;
    args.push(text.slice(end + 2, end + 2 + length));
    at = end + 2 + length + 2;
  }
  return { args, consumed: at };
}

/** The connection set-up a client does before its first command (names, database, protocol): answered as usual. */
const HANDSHAKE = new Set(['CLIENT', 'SELECT', 'AUTH', 'QUIT']);

/**
 * A Redis server that takes connections and answers every command with an error reply of its own (`-LOADING Redis
 * is loading the dataset in memory`: a replica loading the dataset of a full resync, a server reading its file
 * after a restart; `-MASTERDOWN …`, `-CLUSTERDOWN …`, `-TRYAGAIN …` likewise), after the connection's set-up:
 * CLIENT, SELECT and AUTH answer OK and INFO reports a server done loading, so the client's ready check passes and
 * the reply reaches the commands themselves (the case a client cannot wait out: it is not told in advance).
 */
export function redisReplying(reply = 'LOADING Redis is loading the dataset in memory'): Impostor {
  return (socket) => {
    socket.on('error', () => undefined);
    readCommands(socket, ([name = '']) => {
      const command = name.toUpperCase();
      if (command === 'INFO') {
        const info = '# Server\r\nredis_version:7.2.4\r\nredis_mode:standalone\r\n# Persistence\r\nloading:0\r\n';
        socket.write(`$${Buffer.byteLength(info)}\r\n${info}\r\n`);
      } else if (HANDSHAKE.has(command)) socket.write('+OK\r\n');
      else socket.write(`-${reply}\r\n`);
    });
  };
}

/** A server of its own on a free port of 127.0.0.1 answering with `impostor`; `url` is `scheme://127.0.0.1:port`. */
export async function startImpostor(impostor: Impostor, scheme: string): Promise<{ readonly url: string; readonly port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    impostor(socket);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `${scheme}://127.0.0.1:${port}`,
    port,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
