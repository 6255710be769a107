import type { IncomingMessage } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { ServerFrame } from '@teltlk/protocol';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';
import { socketUrl, TestSocket } from '../test/test-client.js';

/**
 * An open socket holds nothing of the HTTP request it was upgraded from: idle sockets are
 * most of a chat server's memory, and a request with its headers, reply and logger is
 * kilobytes more per socket than the socket itself.
 */

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const isPong = (frame: ServerFrame): frame is Extract<ServerFrame, { t: 'pong' }> =>
  frame.t === 'pong';

describe('a socket upgraded from a request', () => {
  let t: TestApp;
  let url: string;
  const requests: WeakRef<IncomingMessage>[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    t.app.server.on('upgrade', (request: IncomingMessage) => {
      requests.push(new WeakRef(request));
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = socketUrl(t.app.server.address());
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lets the request go once open, and keeps working', async () => {
    const user = await t.register();
    const socket = await TestSocket.connect(url, user.token);
    try {
      expect(requests).toHaveLength(1);
      await vi.waitFor(
        async () => {
          gc();
          await new Promise((resolve) => setImmediate(resolve));
          expect(requests[0]!.deref()).toBeUndefined();
        },
        { timeout: 5_000, interval: 50 },
      );
      socket.send({ t: 'ping' });
      await socket.next(isPong);
      expect(socket.isOpen).toBe(true);
    } finally {
      await socket.close();
    }
  });
});
