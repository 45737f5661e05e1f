import assert from 'node:assert/strict';
import net from 'node:net';
import { TcpProxy } from './tcp-proxy.js';
import type { Impostor } from './impostors.js';

/** An echo server behind the proxy: what a client sends comes back, unless the proxy faults. */
function echoServer(): Promise<net.Server> {
  const server = net.createServer((socket) => {
    socket.on('error', () => undefined);
    socket.pipe(socket);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function connect(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Sends `text` and resolves with what comes back within `ms`, or with 'silence' / 'closed'. */
function roundTrip(socket: net.Socket, text: string, ms = 300): Promise<string> {
  return new Promise((resolve) => {
    let received = '';
    const done = (outcome: string) => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('close', onClose);
      resolve(outcome);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.toString('utf8');
      if (received === text) done(received);
    };
    const onClose = () => done('closed');
    const timer = setTimeout(() => done(received === '' ? 'silence' : received), ms);
    socket.on('data', onData);
    socket.once('close', onClose);
    socket.write(text);
  });
}

describe('TcpProxy', () => {
  let server: net.Server;
  let proxy: TcpProxy;

  beforeAll(async () => {
    server = await echoServer();
    proxy = await TcpProxy.start(`tcp://127.0.0.1:${(server.address() as net.AddressInfo).port}`);
  });
  afterAll(async () => {
    await proxy.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it('forwards both ways', async () => {
    const socket = await connect(proxy.port);
    assert.equal(await roundTrip(socket, 'ping'), 'ping');
    socket.destroy();
  });

  it('slow: every round trip takes at least twice the latency, in order and complete; restore is prompt again', async () => {
    const socket = await connect(proxy.port);
    await proxy.slow(150);
    assert.equal(proxy.state, 'slow');
    const started = performance.now();
    assert.equal(await roundTrip(socket, 'a-b-c', 2000), 'a-b-c');
    assert.ok(performance.now() - started >= 290, 'delayed both ways');
    // A round trip shorter than the latency finds nothing yet: the answer is late, not lost.
    assert.equal(await roundTrip(socket, 'late', 100), 'silence');
    await proxy.restore();
    const again = await connect(proxy.port);
    assert.equal(await roundTrip(again, 'prompt', 100), 'prompt');
    socket.destroy();
    again.destroy();
  });

  it('cut: open connections close and new ones are refused; restore forwards again', async () => {
    const socket = await connect(proxy.port);
    const closed = new Promise((resolve) => socket.once('close', resolve));
    socket.on('error', () => undefined);
    await proxy.cut();
    await closed;
    await assert.rejects(connect(proxy.port), /ECONNREFUSED/);
    await proxy.restore();
    const again = await connect(proxy.port);
    assert.equal(await roundTrip(again, 'back'), 'back');
    again.destroy();
  });

  it('blackhole: connections stay open (old and new) but nothing arrives; restore resets them and forwards again', async () => {
    const old = await connect(proxy.port);
    old.on('error', () => undefined);
    assert.equal(await roundTrip(old, 'a'), 'a');
    await proxy.blackhole();
    assert.equal(proxy.state, 'blackholed');
    assert.equal(await roundTrip(old, 'b'), 'silence');
    const fresh = await connect(proxy.port);
    fresh.on('error', () => undefined);
    assert.equal(await roundTrip(fresh, 'c'), 'silence');
    const oldClosed = new Promise((resolve) => old.once('close', resolve));
    const freshClosed = new Promise((resolve) => fresh.once('close', resolve));
    await proxy.restore();
    await Promise.all([oldClosed, freshClosed]);
    const after = await connect(proxy.port);
    assert.equal(await roundTrip(after, 'd'), 'd');
    after.destroy();
  });

  it('impersonate: open connections are reset and new ones meet the impostor; restore resets those and forwards again', async () => {
    const old = await connect(proxy.port);
    old.on('error', () => undefined);
    const oldClosed = new Promise((resolve) => old.once('close', resolve));
    const shouting: Impostor = (socket) => socket.on('data', (chunk: Buffer) => socket.write(chunk.toString('utf8').toUpperCase()));
    await proxy.impersonate(shouting);
    assert.equal(proxy.state, 'impersonated');
    await oldClosed;
    const fresh = await connect(proxy.port);
    fresh.on('error', () => undefined);
    assert.equal(await roundTrip(fresh, 'e', 300), 'E');
    const freshClosed = new Promise((resolve) => fresh.once('close', resolve));
    await proxy.restore();
    await freshClosed;
    const after = await connect(proxy.port);
    assert.equal(await roundTrip(after, 'f'), 'f');
    after.destroy();
  });
});
