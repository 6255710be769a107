import {
  SOCKET_CLOSE,
  SOCKET_FRAME_MAX_BYTES,
  singleConversationId,
  type AuthResult,
  type Message,
  type ServerFrame,
  type SessionInfo,
} from '@teltlk/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  dialects,
  PASSWORD,
  type RegisteredUser,
  type TestApp,
} from '../test/harness.js';
import { socketUrl, TestSocket } from '../test/test-client.js';

type Frame<T extends ServerFrame['t']> = Extract<ServerFrame, { t: T }>;

const is =
  <T extends ServerFrame['t']>(t: T) =>
  (frame: ServerFrame): frame is Frame<T> =>
    frame.t === t;

describe.each(dialects)('socket gateway on $dialect', ({ dialect }) => {
  let t: TestApp;
  let url: string;
  let ada: RegisteredUser;
  let bob: RegisteredUser;
  let eve: RegisteredUser;
  let adaBob: string;
  const sockets: TestSocket[] = [];

  const auth = (user: RegisteredUser) => ({ userId: user.user.id, sessionId: 'test' });

  async function connect(token: string): Promise<TestSocket> {
    const socket = await TestSocket.connect(url, token);
    sockets.push(socket);
    return socket;
  }

  async function open(): Promise<TestSocket> {
    const socket = await TestSocket.open(url);
    sockets.push(socket);
    return socket;
  }

  async function login(user: RegisteredUser): Promise<string> {
    const response = await t.call('POST', '/api/v1/auth/login', {
      body: { account: user.destination, password: PASSWORD },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<AuthResult>().token;
  }

  beforeAll(async () => {
    t = await createTestApp({ dialect, socketTimings: { authTimeoutMs: 300 } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = socketUrl(t.app.server.address());
    ada = await t.register();
    bob = await t.register();
    eve = await t.register();
    const request = await t.ctx.services.contacts.sendRequest(auth(ada), { userId: bob.user.id });
    await t.ctx.services.contacts.acceptRequest(auth(bob), request.id);
    adaBob = singleConversationId(ada.user.id, bob.user.id);
  });
  afterAll(async () => {
    await Promise.all(sockets.map((socket) => socket.close()));
    await t.close();
  });

  describe('connecting', () => {
    it('says hello to a valid token', async () => {
      const socket = await open();
      socket.send({ t: 'auth', token: ada.token });
      const hello = await socket.next(is('hello'));
      expect(hello).toMatchObject({ userId: ada.user.id, now: t.clock.now() });
      expect(typeof hello.sessionId).toBe('string');
    });

    it('answers frames sent right behind the auth frame once authenticated, in order', async () => {
      const socket = await open();
      socket.send({ t: 'auth', token: ada.token });
      socket.send({ t: 'ping' });
      socket.send({
        t: 'send',
        rid: 'early',
        conversationId: adaBob,
        clientMsgId: 'early-000001',
        content: { kind: 'text', text: 'sent before hello' },
      });
      await socket.next(is('pong'));
      const ack = await socket.next(is('ack'));
      expect(ack).toMatchObject({ rid: 'early', message: { clientMsgId: 'early-000001' } });
      // (The push of the message itself to this socket comes too; it is not a reply.)
      const replies = socket.frames.filter((f) => f.t !== 'message').map((f) => f.t);
      expect(replies).toEqual(['hello', 'pong', 'ack']);
    });

    it('closes with 4004 when no auth frame comes in time', async () => {
      const socket = await open();
      expect((await socket.closed).code).toBe(SOCKET_CLOSE.protocol);
    });

    it('closes with 4004 when the first frame is not auth', async () => {
      for (const first of [{ t: 'ping' }, 'not json', { t: 'auth' }]) {
        const socket = await open();
        socket.send(first);
        expect((await socket.closed).code).toBe(SOCKET_CLOSE.protocol);
      }
    });

    it('closes with 4001 for an unknown token and 4002 for an ended session', async () => {
      const unknown = await open();
      unknown.send({ t: 'auth', token: 'x'.repeat(43) });
      expect((await unknown.closed).code).toBe(SOCKET_CLOSE.tokenInvalid);

      const token = await login(eve);
      await t.call('POST', '/api/v1/auth/logout', { token });
      const ended = await open();
      ended.send({ t: 'auth', token });
      expect((await ended.closed).code).toBe(SOCKET_CLOSE.tokenExpired);
    });

    it('kicks sockets of a session signed out elsewhere, on every device of that session only', async () => {
      const user = await t.register();
      const phone = await login(user);
      const phoneSocket = await connect(phone);
      const laptopSocket = await connect(user.token);
      const sessions = (await t.call('GET', '/api/v1/sessions', { token: user.token })).json<{
        sessions: SessionInfo[];
      }>().sessions;
      const phoneSession = sessions.find((s) => !s.current);
      const revoked = await t.call('DELETE', `/api/v1/sessions/${phoneSession?.id}`, {
        token: user.token,
      });
      expect(revoked.statusCode, revoked.body).toBe(204);
      expect((await phoneSocket.closed).code).toBe(SOCKET_CLOSE.kicked);
      laptopSocket.send({ t: 'ping' });
      expect(await laptopSocket.next(is('pong'))).toMatchObject({ t: 'pong' });

      // Signing out kicks that session's own sockets too.
      await t.call('POST', '/api/v1/auth/logout', { token: user.token });
      expect((await laptopSocket.closed).code).toBe(SOCKET_CLOSE.kicked);
    });

    it('kicks every other session when the password changes', async () => {
      const user = await t.register();
      const other = await connect(await login(user));
      const current = await connect(user.token);
      const changed = await t.call('PUT', '/api/v1/me/password', {
        token: user.token,
        body: { currentPassword: PASSWORD, newPassword: 'N3wPassword' },
      });
      expect(changed.statusCode, changed.body).toBe(204);
      expect((await other.closed).code).toBe(SOCKET_CLOSE.kicked);
      current.send({ t: 'ping' });
      await current.next(is('pong'));
    });
  });

  describe('messaging', () => {
    it('answers pings', async () => {
      const socket = await connect(ada.token);
      socket.send({ t: 'ping' });
      expect(await socket.next(is('pong'))).toEqual({ t: 'pong', now: t.clock.now() });
    });

    it('acks a send and pushes it to the recipient and the sender’s other devices', async () => {
      const adaPhone = await connect(ada.token);
      const adaLaptop = await connect(ada.token);
      const bobPhone = await connect(bob.token);
      const message = (await adaPhone.sendMessage(adaBob, 'over the socket')) as Message;
      expect(message).toMatchObject({
        conversationId: adaBob,
        senderId: ada.user.id,
        content: { kind: 'text', text: 'over the socket' },
      });
      // Every socket of every member gets the push, the sending one too (clients dedupe by seq).
      for (const socket of [adaPhone, adaLaptop, bobPhone]) {
        const pushed = await socket.next(is('message'));
        expect(pushed.message).toEqual(message);
      }
      // REST sends are pushed the same way.
      const rest = await t.call('POST', '/api/v1/messages', {
        token: bob.token,
        body: {
          conversationId: adaBob,
          clientMsgId: 'rest-0000001',
          content: { kind: 'text', text: 'by REST' },
        },
      });
      const restMessage = rest.json<Message>();
      expect(restMessage.seq).toBe(message.seq + 1);
      for (const socket of [adaPhone, adaLaptop, bobPhone]) {
        const pushed = await socket.next(is('message'));
        expect(pushed.message.seq).toBe(restMessage.seq);
      }
      // A retried send over the socket is acked with the stored message, not stored twice.
      const retry = (await adaPhone.sendMessage(
        adaBob,
        'over the socket',
        message.clientMsgId,
      )) as Message;
      expect(retry).toEqual(message);
    });

    it('relays typing and read marks to the other person only', async () => {
      const adaSocket = await connect(ada.token);
      const adaOther = await connect(ada.token);
      const bobSocket = await connect(bob.token);
      const eveSocket = await connect(eve.token);
      // Eve is not in the conversation: her typing goes nowhere.
      eveSocket.send({ t: 'typing', conversationId: adaBob });
      adaSocket.send({ t: 'typing', conversationId: adaBob });
      const typing = await bobSocket.next(is('typing'));
      expect(typing).toEqual({ t: 'typing', conversationId: adaBob, userId: ada.user.id });

      const sent = (await bobSocket.sendMessage(adaBob, 'read me')) as Message;
      adaSocket.send({ t: 'read', conversationId: adaBob, seq: sent.seq });
      expect(await bobSocket.next(is('read'))).toEqual({
        t: 'read',
        conversationId: adaBob,
        userId: ada.user.id,
        seq: sent.seq,
      });
      // Ada's other device learns it from her event stream.
      const event = (await adaOther.next(
        (f) => f.t === 'event' && f.event.data.type === 'conversation',
      )) as Frame<'event'>;
      expect(event.event.data).toMatchObject({ conversation: { id: adaBob, readSeq: sent.seq } });
      // Eve's read of a conversation she is not in is refused.
      eveSocket.send({ t: 'read', conversationId: adaBob, seq: 1 });
      const refused = await eveSocket.next(is('error'));
      expect(refused).toMatchObject({ rid: null, error: { code: 'CONVERSATION_NOT_FOUND' } });
      expect(
        bobSocket.pending().filter((f) => f.t === 'typing' && f.userId === eve.user.id),
      ).toEqual([]);
    });

    it('answers broken frames with error frames and keeps the socket usable', async () => {
      const socket = await connect(ada.token);
      const errorFor = async (frame: unknown) => {
        socket.send(frame);
        return await socket.next(is('error'));
      };
      expect(await errorFor('{not json')).toMatchObject({
        rid: null,
        error: { code: 'MALFORMED_REQUEST' },
      });
      expect(await errorFor({ t: 'dance' })).toMatchObject({
        rid: null,
        error: { code: 'VALIDATION_FAILED' },
      });
      expect(await errorFor([1, 2, 3])).toMatchObject({
        rid: null,
        error: { code: 'VALIDATION_FAILED' },
      });
      expect(
        await errorFor({
          t: 'send',
          rid: 'r-blank',
          conversationId: adaBob,
          clientMsgId: 'blank-0001',
          content: { kind: 'text', text: '  ' },
        }),
      ).toEqual({
        t: 'error',
        rid: 'r-blank',
        error: { code: 'BLANK_MESSAGE', message: 'Cannot send blank message' },
      });
      expect(
        await errorFor({
          t: 'send',
          rid: 'r-bad',
          conversationId: 'nope',
          clientMsgId: 'x',
          content: {},
        }),
      ).toMatchObject({ rid: 'r-bad', error: { code: 'VALIDATION_FAILED' } });
      // A call's record is the server's to write when the call ends, never a client's.
      expect(
        await errorFor({
          t: 'send',
          rid: 'r-call',
          conversationId: adaBob,
          clientMsgId: 'forged-call-0001',
          content: {
            kind: 'call',
            callId: 'forged',
            media: 'audio',
            outcome: 'completed',
            durationSeconds: 60,
            group: false,
          },
        }),
      ).toMatchObject({ rid: 'r-call', error: { code: 'VALIDATION_FAILED' } });
      expect(
        await errorFor({ t: 'send', rid: 'r-huge', padding: 'x'.repeat(SOCKET_FRAME_MAX_BYTES) }),
      ).toMatchObject({ rid: null, error: { code: 'PAYLOAD_TOO_LARGE' } });
      socket.ws.send(Buffer.from([1, 2, 3]), { binary: true });
      expect(await socket.next(is('error'))).toMatchObject({
        error: { code: 'MALFORMED_REQUEST' },
      });
      expect(await errorFor({ t: 'auth', token: ada.token })).toMatchObject({
        error: { code: 'VALIDATION_FAILED' },
      });
      const refused = await socket.sendMessage(
        singleConversationId(ada.user.id, eve.user.id),
        'hi',
      );
      expect(refused).toMatchObject({ code: 'NOT_FRIENDS' });

      socket.send({ t: 'ping' });
      await socket.next(is('pong'));
      const message = await socket.sendMessage(adaBob, 'still here');
      expect(message).toMatchObject({ content: { kind: 'text', text: 'still here' } });
      expect(socket.isOpen).toBe(true);

      // A frame far over the limit is dropped by the socket layer; the server carries on.
      const abuser = await connect(ada.token);
      abuser.send('x'.repeat(SOCKET_FRAME_MAX_BYTES * 8));
      expect((await abuser.closed).code).toBe(1009);
      socket.send({ t: 'ping' });
      await socket.next(is('pong'));
    });

    it('pushes the user’s events', async () => {
      const socket = await connect(bob.token);
      const response = await t.call('PATCH', `/api/v1/conversations/${adaBob}`, {
        token: bob.token,
        body: { pinned: true },
      });
      expect(response.statusCode, response.body).toBe(200);
      const event = await socket.next(is('event'));
      expect(event.event.data).toMatchObject({
        type: 'conversation',
        conversation: { pinned: true },
      });
    });
  });
});

describe('socket heartbeats and shutdown', () => {
  let t: TestApp;
  let url: string;
  beforeAll(async () => {
    t = await createTestApp({ socketTimings: { heartbeatIntervalMs: 100 } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = socketUrl(t.app.server.address());
  });
  afterAll(async () => {
    await t.close();
  });

  it('drops silent sockets and keeps pinging ones', async () => {
    const user = await t.register();
    const silent = await TestSocket.connect(url, user.token);
    const pinging = await TestSocket.connect(url, user.token);
    const timer = setInterval(() => pinging.send({ t: 'ping' }), 50);
    try {
      const started = Date.now();
      await silent.closed;
      expect(Date.now() - started).toBeGreaterThanOrEqual(200);
      // Another silent socket, opened now, is dropped in its turn: by then the sweeps have
      // seen the pinging one through a whole silence more, and left it open.
      const later = await TestSocket.connect(url, user.token);
      await later.closed;
      expect(pinging.isOpen).toBe(true);
    } finally {
      clearInterval(timer);
    }
    // Shutting down closes the rest with 1001 (going away).
    const closing = pinging.closed;
    await t.app.close();
    expect((await closing).code).toBe(SOCKET_CLOSE.goingAway);
  });
});
