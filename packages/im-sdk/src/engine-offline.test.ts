import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { BACKOFF_CAP_MS } from './connection.js';
import { record, texts } from './test-fixtures.js';
import { ServerWorld, startServer, until, type LiveServer } from './test-server.js';

/**
 * The engine against the real server when the device loses the network, or the server
 * signs it out: what was written offline goes once the network is back, and a device
 * kicked offline stays so.
 */

let server: LiveServer;
let world: ServerWorld;

beforeAll(async () => {
  server = await startServer();
}, 60_000);

afterAll(async () => {
  await server.t.close();
});

beforeEach(async () => {
  world = await ServerWorld.open(server);
}, 60_000);

afterEach(async () => {
  await world.close();
});

describe('ImEngine offline', { timeout: 30_000 }, () => {
  it('sends what was written offline after the restart, and shows the cache at once', async () => {
    const id = world.conversationId;
    await world.send({ kind: 'text', text: 'before' });
    let engine = await world.started();
    let handle = engine.conversation(id);
    await until(() => expect(texts(handle)).toEqual(['before']));
    handle.setDraft('half written');

    await world.goOffline(engine);
    await handle.send({ kind: 'text', text: 'offline' });
    engine = await world.restart(engine);
    await engine.start();
    // The cache, before any network.
    expect(engine.getSnapshot().status).not.toBe('starting');
    expect(engine.getSnapshot().conversations[0]).toMatchObject({ id, draft: 'half written' });
    handle = engine.conversation(id);
    await until(() => expect(texts(handle)).toEqual(['before', 'offline']));
    expect(handle.getSnapshot().messages[1]?.status).toBe('sending');

    await world.send({ kind: 'text', text: 'while away' });
    world.network.up = true;
    await until(() => expect(texts(handle)).toEqual(['before', 'while away', 'offline']));
    await until(() => expect(handle.getSnapshot().messages[2]?.status).toBe('sent'));
    expect(await world.contents()).toEqual([
      { kind: 'text', text: 'before' },
      { kind: 'text', text: 'while away' },
      { kind: 'text', text: 'offline' },
    ]);
  });

  it('stops for good when kicked offline', async () => {
    const engine = await world.started();
    const kicked = record(engine, 'kickedOffline');
    const opened = world.network.sockets.length;
    // The clock jumps past the longest reconnect delay: no new socket is tried.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      // Signed out everywhere (a password changed on another device, say).
      await server.t.ctx.services.sessions.revokeAll(world.me.user.id);
      await vi.waitFor(() => expect(kicked).toHaveLength(1));
      await vi.advanceTimersByTimeAsync(BACKOFF_CAP_MS * 2);
    } finally {
      vi.useRealTimers();
    }
    expect(world.network.sockets).toHaveLength(opened);
    expect(engine.getSnapshot().status).toBe('offline');
  });
});
