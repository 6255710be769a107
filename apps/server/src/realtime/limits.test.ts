import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import {
  SOCKET_CLOSE,
  clientFrameSchema,
  singleConversationId,
  type AuthResult,
  type ErrorBody,
  type Message,
  type ServerFrame,
} from '@teltlk/protocol';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import {
  createTestApp,
  dialects,
  PASSWORD,
  type RegisteredUser,
  type TestApp,
} from '../test/harness.js';
import { socketUrl, TestSocket } from '../test/test-client.js';
import { HOUR } from '../lib/clock.js';
import { LIMITS } from '../modules/limits/rules.js';
import { FRAME_LIMITS } from './limits.js';

/**
 * What one client can hold of a node through sockets: caps per session, user and address
 * (IPv6 by /64), a bounded pool of sockets that have not authenticated, and a send queue
 * that a client which stops reading cannot grow.
 */

const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });

/** The HTTP answer to an upgrade the server refuses. */
function refusal(url: string, address: string): Promise<{ status: number; body: ErrorBody }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, from(address));
    ws.once('open', () => {
      ws.terminate();
      reject(new Error('the socket was accepted'));
    });
    ws.once('unexpected-response', (_request, response: IncomingMessage) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => {
        resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) as ErrorBody });
        ws.terminate();
      });
    });
    ws.on('error', () => undefined);
  });
}

describe.each(dialects)('socket caps on $dialect', ({ dialect }) => {
  let t: TestApp;
  let url: string;
  const sockets: TestSocket[] = [];

  async function open(address: string): Promise<TestSocket> {
    const socket = await TestSocket.open(url, from(address));
    sockets.push(socket);
    return socket;
  }

  async function connect(token: string, address: string): Promise<TestSocket> {
    const socket = await TestSocket.connect(url, token, from(address));
    sockets.push(socket);
    return socket;
  }

  /** Opens a socket and sends the auth frame; resolves with the hello or the close code. */
  async function attempt(token: string, address: string): Promise<ServerFrame['t'] | number> {
    const socket = await open(address);
    socket.send({ t: 'auth', token });
    return Promise.race([
      socket.next((frame) => frame.t === 'hello').then((frame) => frame.t),
      socket.closed.then((closed) => closed.code),
    ]);
  }

  async function login(user: RegisteredUser): Promise<string> {
    const response = await t.call('POST', '/api/v1/auth/login', {
      body: { account: user.destination, password: PASSWORD },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<AuthResult>().token;
  }

  beforeAll(async () => {
    t = await createTestApp({
      dialect,
      // Each test comes from addresses of its own, so counts of one never reach another.
      env: { TRUST_PROXY: 'loopback' },
      socketLimits: {
        perSession: 2,
        perUser: 3,
        perAddress: 4,
        unauthenticatedPerAddress: 2,
        unauthenticated: 6,
      },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = socketUrl(t.app.server.address());
  });
  afterAll(async () => {
    await Promise.all(sockets.map((socket) => socket.close()));
    await t.close();
  });

  it('closes sockets over the per-session and per-user caps with 4006, and lets them back when one closes', async () => {
    const user = await t.register();
    const address = '198.51.100.1';
    const first = await connect(user.token, address);
    await connect(user.token, '198.51.100.2');
    expect(await attempt(user.token, '198.51.100.3')).toBe(SOCKET_CLOSE.tooManySockets);

    // Another session (another device) of the same user fits until the user's cap.
    const phone = await login(user);
    await connect(phone, '198.51.100.4');
    expect(await attempt(phone, '198.51.100.5')).toBe(SOCKET_CLOSE.tooManySockets);

    // A refused socket took no place: once one closes, one more fits.
    await first.close();
    const sessionId = (first.frames[0] as Extract<ServerFrame, { t: 'hello' }>).sessionId;
    await vi.waitFor(() =>
      expect(t.ctx.hub.countOf(user.user.id, sessionId)).toEqual({ user: 2, session: 1 }),
    );
    expect(await attempt(phone, address)).toBe('hello');
  });

  it('refuses the upgrade with 429 past the per-address cap, counting IPv6 by /64', async () => {
    const users = await Promise.all([t.register(), t.register(), t.register()]);
    const prefix = '2001:db8:7:1';
    // Two users, two sockets each, all from one /64 (and under their own caps).
    for (const [index, suffix] of ['::1', '::2', ':ffff::1', ':1:2:3:4'].entries()) {
      await connect(users[index % 2]!.token, `${prefix}${suffix}`);
    }
    const refused = await refusal(url, `${prefix}::abcd`);
    expect(refused).toEqual({
      status: 429,
      body: {
        error: {
          code: 'TOO_MANY_CONNECTIONS',
          message: 'Too many connections, please try again later',
        },
      },
    });
    // The next /64 is somebody else.
    await connect(users[2].token, '2001:db8:7:2::1');
    // IPv4 addresses are counted one by one.
    const v4 = await Promise.all([1, 2, 3, 4].map((n) => open(`203.0.113.${n}`)));
    expect(v4.every((socket) => socket.isOpen)).toBe(true);
    await Promise.all(v4.map((socket) => socket.close()));
  });

  it('refuses a third unauthenticated socket from one address, and stops counting a socket as such once it authenticates', async () => {
    const user = await t.register();
    const address = '192.0.2.50';
    const waiting = await open(address);
    await open(address);
    expect((await refusal(url, address)).status).toBe(429);
    waiting.send({ t: 'auth', token: user.token });
    await waiting.next((frame) => frame.t === 'hello');
    const third = await open(address);
    expect(third.isOpen).toBe(true);
  });
});

describe('rate limits of socket frames', () => {
  let t: TestApp;
  let url: string;
  const sockets: TestSocket[] = [];
  const three = { limit: 3, windowMs: HOUR };

  beforeAll(async () => {
    t = await createTestApp({
      env: { TRUST_PROXY: 'loopback' },
      rateLimits: { scale: 1, rules: { socketAuthPerAddress: three, pingPerUser: three } },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = socketUrl(t.app.server.address());
  });
  afterAll(async () => {
    await Promise.all(sockets.map((socket) => socket.close()));
    await t.close();
  });

  it('names a class for every frame a client may send', () => {
    const types = clientFrameSchema.options.map((option) => option.shape.t.value).sort();
    expect(Object.keys(FRAME_LIMITS).sort()).toEqual(types);
    for (const name of Object.values(FRAME_LIMITS)) expect(LIMITS).toHaveProperty(name);
  });

  it('closes sockets signing in past the per-address limit with 4006, for a retry later', async () => {
    const user = await t.register();
    const signIn = async (address: string) => {
      const socket = await TestSocket.open(url, from(address));
      sockets.push(socket);
      socket.send({ t: 'auth', token: user.token });
      return Promise.race([
        socket.next((frame) => frame.t === 'hello').then((frame) => frame.t),
        socket.closed.then((closed) => closed.code),
      ]);
    };
    for (let i = 0; i < 3; i += 1) expect(await signIn('198.51.100.70')).toBe('hello');
    expect(await signIn('198.51.100.70')).toBe(SOCKET_CLOSE.tooManySockets);
    expect(await signIn('198.51.100.71')).toBe('hello');
  });

  it('leaves pings past the per-user limit unanswered', async () => {
    const user = await t.register();
    const socket = await TestSocket.connect(url, user.token, from('198.51.100.72'));
    sockets.push(socket);
    for (let i = 0; i < 5; i += 1) socket.send({ t: 'ping' });
    // A frame answered only after a database look-up: by then every ping before it is settled.
    socket.send({ t: 'read', conversationId: 'si_nobody_noone', seq: 1 });
    await socket.next((frame) => frame.t === 'error');
    expect(socket.frames.filter((frame) => frame.t === 'pong')).toHaveLength(3);
    expect(socket.isOpen).toBe(true);
  });
});

describe('the node’s pool of unauthenticated sockets', () => {
  let t: TestApp;
  let url: string;
  beforeAll(async () => {
    t = await createTestApp({
      env: { TRUST_PROXY: 'loopback' },
      socketLimits: { unauthenticated: 3 },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = socketUrl(t.app.server.address());
  });
  afterAll(async () => {
    await t.close();
  });

  it('drops its oldest socket for a new one, so a full pool locks nobody out', async () => {
    const user = await t.register();
    const signedIn = await TestSocket.connect(url, user.token, from('192.0.2.1'));
    // Full, from addresses of their own (no address is over its cap).
    const idle: TestSocket[] = [];
    for (const n of [2, 3, 4]) idle.push(await TestSocket.open(url, from(`192.0.2.${n}`)));
    const newcomer = await TestSocket.open(url, from('192.0.2.5'));
    expect((await idle[0]!.closed).code).toBe(1006);
    expect(idle.slice(1).every((socket) => socket.isOpen)).toBe(true);
    newcomer.send({ t: 'auth', token: user.token });
    await newcomer.next((frame) => frame.t === 'hello');
    // Authenticated sockets are not in the pool.
    expect(signedIn.isOpen).toBe(true);
    await Promise.all([signedIn, newcomer, ...idle].map((socket) => socket.close()));
  });
});

/** The TCP socket under a WebSocket (ws keeps it in `_socket`). */
const tcpOf = (ws: WebSocket) => (ws as unknown as { _socket: Socket })._socket;

/**
 * A client that authenticates and then stops reading (its TCP socket paused), while the
 * server pushes to it: the kernel buffers fill first, then the server's own queue, which
 * must stop at the limit.
 */
describe('a socket that never reads', () => {
  const QUEUE_LIMIT = 64 * 1024;
  const TEXT = 'x'.repeat(16 * 1024);
  /** A pushed frame: the text and the rest of the message around it. */
  const FRAME_BYTES = TEXT.length + 1024;

  async function setup(closeGraceMs: number) {
    const t = await createTestApp({
      socketLimits: { sendQueueBytes: QUEUE_LIMIT },
      socketTimings: { closeGraceMs },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const url = socketUrl(t.app.server.address());
    const [ada, bob] = await Promise.all([t.register(), t.register()]);
    const auth = (user: RegisteredUser) => ({ userId: user.user.id, sessionId: 'test' });
    const request = await t.ctx.services.contacts.sendRequest(auth(bob), { userId: ada.user.id });
    await t.ctx.services.contacts.acceptRequest(auth(ada), request.id);
    const sent = await t.call('POST', '/api/v1/messages', {
      token: bob.token,
      body: {
        conversationId: singleConversationId(ada.user.id, bob.user.id),
        clientMsgId: 'slow-000001',
        content: { kind: 'text', text: 'hello' },
      },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const message = sent.json<Message>();

    const client = await TestSocket.connect(url, ada.token);
    const hello = client.frames[0] as Extract<ServerFrame, { t: 'hello' }>;
    tcpOf(client.ws).pause();
    // The server's end of this client's socket, found by its peer's port.
    const port = tcpOf(client.ws).localPort;
    const server = [...t.app.websocketServer.clients].find((ws) => tcpOf(ws).remotePort === port)!;
    expect(server.readyState).toBe(WebSocket.OPEN);

    let seq = message.seq;
    /** One push of a ~16 KiB message, then a turn for the socket to flush what it can. */
    const push = async () => {
      seq += 1;
      const frame: ServerFrame = {
        t: 'message',
        message: { ...message, seq, content: { kind: 'text', text: TEXT } },
      };
      t.ctx.hub.toUsers([ada.user.id], frame);
      await new Promise((resolve) => setImmediate(resolve));
    };
    /**
     * Pushes until the server closes the socket, or its queue passes the limit by more
     * than a frame (the limit failed), or far more than the kernel's buffers take went out.
     */
    const pushUntilClosed = async () => {
      let pushes = 0;
      let queued = 0;
      while (
        server.readyState === WebSocket.OPEN &&
        queued <= QUEUE_LIMIT + FRAME_BYTES &&
        pushes * FRAME_BYTES < 256 * 1024 * 1024
      ) {
        await push();
        pushes += 1;
        queued = Math.max(queued, server.bufferedAmount);
      }
      return { pushes, queued };
    };
    return { t, ada, client, server, sessionId: hello.sessionId, push, pushUntilClosed };
  }

  it('is closed with 4005 once its queue passes the limit, and the queue stays there', async () => {
    const { t, ada, client, server, sessionId, push, pushUntilClosed } = await setup(60_000);
    try {
      const { pushes, queued } = await pushUntilClosed();
      expect(queued).toBeLessThanOrEqual(QUEUE_LIMIT + FRAME_BYTES);
      expect(server.readyState, `still open after ${pushes} pushes`).toBe(WebSocket.CLOSING);
      // Cut off from every push from now on: nothing more is queued for it.
      expect(t.ctx.hub.countOf(ada.user.id, sessionId).user).toBe(0);
      const after = server.bufferedAmount;
      for (let n = 0; n < 100; n += 1) await push();
      expect(server.bufferedAmount).toBeLessThanOrEqual(after);

      // When the client reads again it gets what was queued, then the reason.
      tcpOf(client.ws).resume();
      expect((await client.closed).code).toBe(SOCKET_CLOSE.slowConsumer);
    } finally {
      tcpOf(client.ws).resume();
      await client.close();
      await t.close();
    }
  });

  // ws alone would wait 30 s for the client's answer to the close, holding the queue.
  it(
    'is dropped, queue and all, if it still does not read once closed',
    { timeout: 15_000 },
    async () => {
      const { t, client, server, pushUntilClosed } = await setup(50);
      try {
        const gone = new Promise((resolve) => server.once('close', resolve));
        const { queued } = await pushUntilClosed();
        expect(queued).toBeLessThanOrEqual(QUEUE_LIMIT + FRAME_BYTES);
        await gone;
        expect(tcpOf(server).destroyed).toBe(true);
      } finally {
        tcpOf(client.ws).resume();
        await client.close();
        await t.close();
      }
    },
  );
});
