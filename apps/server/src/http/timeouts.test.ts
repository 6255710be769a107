import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { socketUrl, TestSocket } from '../test/test-client.js';
import { createTestApp, type TestApp } from '../test/harness.js';

/**
 * Slow clients against the HTTP server's time limits: a request whose headers never
 * finish is closed (slowloris), while a slow body within the request limit and an open
 * WebSocket keep working. The limits are short here; the defaults are in ServerTimeouts.
 */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A raw TCP connection to the server, with everything it received and how it ended. */
function rawClient(
  port: number,
): Promise<{ socket: Socket; received: () => string; ended: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const ended = new Promise<void>((done) => socket.once('close', () => done()));
    socket.on('error', () => undefined);
    socket.once('connect', () => resolve({ socket, received: () => text, ended }));
    socket.once('error', reject);
  });
}

describe('HTTP server timeouts', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp({
      serverTimeouts: {
        headersTimeoutMs: 300,
        requestTimeoutMs: 2_000,
        connectionTimeoutMs: 1_000,
        checkIntervalMs: 50,
      },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    port = typeof address === 'object' && address ? address.port : 0;
  });
  afterAll(async () => {
    await t.close();
  });

  it(
    'closes a connection whose headers never finish, though it keeps sending',
    { timeout: 10_000 },
    async () => {
      const client = await rawClient(port);
      client.socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n');
      // A header line now and then: never idle, never done.
      const drip = setInterval(() => client.socket.write('X-Slow: 1\r\n'), 100);
      try {
        await client.ended;
      } finally {
        clearInterval(drip);
      }
      expect(client.received()).toMatch(/^HTTP\/1\.1 408 /);
    },
  );

  it('closes a connection that sends nothing', { timeout: 10_000 }, async () => {
    const client = await rawClient(port);
    await client.ended;
    expect(client.received()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('reads a body that arrives slowly within the request limit', async () => {
    const client = await rawClient(port);
    const body = JSON.stringify({ account: 'nobody@example.com', password: 'Passw0rd!' });
    client.socket.write(
      'POST /api/v1/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`,
    );
    // Past the headers limit in all, each pause well within the idle limit.
    const third = Math.ceil(body.length / 3);
    for (const part of [
      body.slice(0, third),
      body.slice(third, 2 * third),
      body.slice(2 * third),
    ]) {
      await sleep(200);
      client.socket.write(part);
    }
    await client.ended;
    expect(client.received()).toMatch(/^HTTP\/1\.1 400 /);
    expect(client.received()).toContain('"ACCOUNT_NOT_FOUND"');
  });

  it('leaves an upgraded WebSocket open past every limit', async () => {
    const user = await t.register();
    const socket = await TestSocket.connect(socketUrl(t.app.server.address()), user.token);
    // Silent past the request limit, the idle limit, and many checks.
    await sleep(2_500);
    expect(socket.isOpen).toBe(true);
    socket.send({ t: 'ping' });
    await socket.next((frame) => frame.t === 'pong');
    await socket.close();
  });
});
