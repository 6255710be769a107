import {
  SOCKET_CLOSE,
  singleConversationId,
  type Message,
  type ServerFrame,
} from '@teltlk/protocol';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, PASSWORD, type RegisteredUser, type TestApp } from '../test/harness.js';
import { socketUrl, TestSocket } from '../test/test-client.js';

/**
 * Several nodes on one PostgreSQL and one Redis, as in production at scale: users on
 * different nodes chat in real time, and a sign-out on one node kicks sockets on another.
 */

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
const TEST_REDIS_URL = process.env.TEST_REDIS_URL;

type Frame<T extends ServerFrame['t']> = Extract<ServerFrame, { t: T }>;
const is =
  <T extends ServerFrame['t']>(t: T) =>
  (frame: ServerFrame): frame is Frame<T> =>
    frame.t === t;

describe.skipIf(!TEST_DATABASE_URL || !TEST_REDIS_URL)('two nodes over Redis', () => {
  let north: TestApp;
  let south: TestApp;
  let northUrl: string;
  let southUrl: string;
  let ada: RegisteredUser;
  let bob: RegisteredUser;
  let adaBob: string;
  const sockets: TestSocket[] = [];

  async function connect(url: string, token: string): Promise<TestSocket> {
    const socket = await TestSocket.connect(url, token);
    sockets.push(socket);
    return socket;
  }

  beforeAll(async () => {
    const redis = { REDIS_URL: TEST_REDIS_URL ?? '' };
    north = await createTestApp({ dialect: 'postgres', env: redis });
    // The second node works on the first one's schema.
    south = await createTestApp({
      env: { ...redis, DATABASE_URL: north.ctx.config.databaseUrl ?? '' },
    });
    expect(south.ctx.dialect).toBe('postgres');
    await north.app.listen({ port: 0, host: '127.0.0.1' });
    await south.app.listen({ port: 0, host: '127.0.0.1' });
    northUrl = socketUrl(north.app.server.address());
    southUrl = socketUrl(south.app.server.address());
    ada = await north.register();
    bob = await south.register();
    const auth = (user: RegisteredUser) => ({ userId: user.user.id, sessionId: 'test' });
    const request = await north.ctx.services.contacts.sendRequest(auth(ada), {
      userId: bob.user.id,
    });
    await south.ctx.services.contacts.acceptRequest(auth(bob), request.id);
    adaBob = singleConversationId(ada.user.id, bob.user.id);
  });
  afterAll(async () => {
    await Promise.all(sockets.map((socket) => socket.close()));
    // The second node first: the first one drops the schema.
    await south?.close();
    await north?.close();
  });

  it('delivers messages, typing and read marks across nodes, each once', async () => {
    const adaNorth = await connect(northUrl, ada.token);
    const adaSouth = await connect(southUrl, ada.token);
    const bobSouth = await connect(southUrl, bob.token);

    const hello = (await adaNorth.sendMessage(adaBob, 'hello from the north')) as Message;
    expect(hello.seq).toBe(1);
    for (const socket of [bobSouth, adaSouth, adaNorth]) {
      const pushed = await socket.next(is('message'));
      expect(pushed.message).toEqual(hello);
    }

    const reply = (await bobSouth.sendMessage(adaBob, 'hello from the south')) as Message;
    expect(reply.seq).toBe(2);
    for (const socket of [adaNorth, adaSouth]) {
      const pushed = await socket.next(is('message'));
      expect(pushed.message).toEqual(reply);
    }

    bobSouth.send({ t: 'typing', conversationId: adaBob });
    expect(await adaNorth.next(is('typing'))).toEqual({
      t: 'typing',
      conversationId: adaBob,
      userId: bob.user.id,
    });

    adaNorth.send({ t: 'read', conversationId: adaBob, seq: 2 });
    expect(await bobSouth.next(is('read'))).toEqual({
      t: 'read',
      conversationId: adaBob,
      userId: ada.user.id,
      seq: 2,
    });
    const event = await adaSouth.next(is('event'));
    expect(event.event.data).toMatchObject({ type: 'conversation', conversation: { readSeq: 2 } });

    // Nothing arrives twice. Redis keeps the order of publishes, so once a later message
    // from the other node has arrived, any stray copy of the earlier ones would have too.
    const last = (await bobSouth.sendMessage(adaBob, 'last')) as Message;
    for (const socket of [adaNorth, adaSouth, bobSouth]) {
      await socket.next((f) => f.t === 'message' && f.message.seq === last.seq);
      const messages = socket.frames.filter((f): f is Frame<'message'> => f.t === 'message');
      expect(messages.map((f) => f.message.seq)).toEqual([1, 2, 3]);
    }
  });

  it('signs in a browser waiting on one node when its login is approved on another', async () => {
    const ticket = await north.ctx.services.deviceLogins.create({ ip: null, userAgent: null });
    const claims = vi.spyOn(north.ctx.services.deviceLogins, 'claim');
    const waiting = await TestSocket.open(northUrl);
    sockets.push(waiting);
    waiting.send({ t: 'ticket', id: ticket.id, secret: ticket.secret });
    // The socket has looked at its ticket (still pending) and now waits for a wake.
    await vi.waitFor(() => expect(claims).toHaveBeenCalledTimes(1));
    expect(await claims.mock.results[0]!.value).toMatchObject({ state: 'pending' });
    claims.mockRestore();
    const approved = await south.call('POST', `/api/v1/device-logins/${ticket.id}/decision`, {
      token: bob.token,
      body: {
        approve: true,
        match: ticket.match,
        proof: { method: 'password', password: PASSWORD },
      },
    });
    expect(approved.statusCode).toBe(200);
    expect(await waiting.next(is('signedIn'))).toMatchObject({
      auth: { user: { id: bob.user.id } },
    });
  });

  it('kicks a session signed out on another node', async () => {
    const socket = await connect(southUrl, ada.token);
    const other = await connect(northUrl, bob.token);
    const out = await north.call('POST', '/api/v1/auth/logout', { token: ada.token });
    expect(out.statusCode).toBe(204);
    expect((await socket.closed).code).toBe(SOCKET_CLOSE.kicked);
    other.send({ t: 'ping' });
    await other.next(is('pong'));
  });
});
