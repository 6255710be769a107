import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectError, type TestApp } from '../test/harness.js';
import { socketUrl, TestSocket } from '../test/test-client.js';

/** `/ws` asked for without an upgrade is a path like any other that is not there. */
describe('the socket path over plain HTTP', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => t?.close());

  it('answers GET with NOT_FOUND in the error shape, and HEAD with 404', async () => {
    expectError(await t.call('GET', '/ws'), 'NOT_FOUND');
    expect((await t.call('HEAD', '/ws')).statusCode).toBe(404);
  });

  it('still upgrades a socket', async () => {
    const user = await t.register();
    const socket = await TestSocket.connect(socketUrl(t.app.server.address()), user.token);
    expect(socket.frames.map((frame) => frame.t)).toEqual(['hello']);
    await socket.close();
  });
});
