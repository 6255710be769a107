import { SOCKET_CLOSE, type AuthResult, type ServerFrame } from '@teltlk/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  dialects,
  PASSWORD,
  type RegisteredUser,
  type TestApp,
} from '../test/harness.js';
import { InProcessBus, InProcessNetwork, type Bus, type BusMessage } from './bus.js';
import { socketUrl, TestSocket } from '../test/test-client.js';

/**
 * Open sockets re-check their sessions: a kick lost on the bus, or a session that runs
 * out while its socket is open, still closes the socket, with the code the client needs
 * to ask for a sign-in.
 */

/** A node's bus that loses every kick sent to it, as a Redis reconnect might. */
class KickLosingBus implements Bus {
  readonly lost: BusMessage[] = [];

  constructor(private readonly inner: Bus) {}

  get nodeId(): string {
    return this.inner.nodeId;
  }

  ready(): Promise<void> {
    return this.inner.ready();
  }

  publish(message: BusMessage): void {
    this.inner.publish(message);
  }

  onMessage(handler: (message: BusMessage) => void): void {
    this.inner.onMessage((message) => {
      if (message.type === 'kick') this.lost.push(message);
      else handler(message);
    });
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

const is =
  <T extends ServerFrame['t']>(t: T) =>
  (frame: ServerFrame): frame is Extract<ServerFrame, { t: T }> =>
    frame.t === t;

describe.each(dialects)('two nodes on $dialect whose bus loses kicks', ({ dialect }) => {
  let north: TestApp;
  let south: TestApp;
  let southBus: KickLosingBus;
  let southUrl: string;
  const sockets: TestSocket[] = [];

  async function connect(token: string): Promise<TestSocket> {
    const socket = await TestSocket.connect(southUrl, token);
    sockets.push(socket);
    return socket;
  }

  async function login(t: TestApp, user: RegisteredUser): Promise<string> {
    const response = await t.call('POST', '/api/v1/auth/login', {
      body: { account: user.destination, password: PASSWORD },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<AuthResult>().token;
  }

  beforeAll(async () => {
    const network = new InProcessNetwork();
    north = await createTestApp({ dialect, bus: new InProcessBus(network) });
    southBus = new KickLosingBus(new InProcessBus(network));
    // The second node works on the first one's database.
    south = await createTestApp({
      env:
        dialect === 'postgres'
          ? { DATABASE_URL: north.ctx.config.databaseUrl ?? '' }
          : { DATA_DIR: north.dataDir },
      bus: southBus,
      socketTimings: { sessionCheckIntervalMs: 100 },
    });
    expect(south.ctx.dialect).toBe(dialect);
    await south.app.listen({ port: 0, host: '127.0.0.1' });
    southUrl = socketUrl(south.app.server.address());
  });
  afterAll(async () => {
    await Promise.all(sockets.map((socket) => socket.close()));
    // The second node first: the first one owns the database.
    await south?.close();
    await north?.close();
  });

  it('closes a session revoked on the other node as kicked offline, though the kick was lost', async () => {
    const user = await north.register();
    const phone = await login(north, user);
    const phoneSocket = await connect(phone);
    const laptopSocket = await connect(user.token);
    const phoneSession = (phoneSocket.frames[0] as Extract<ServerFrame, { t: 'hello' }>).sessionId;

    const revoked = await north.call('DELETE', `/api/v1/sessions/${phoneSession}`, {
      token: user.token,
    });
    expect(revoked.statusCode, revoked.body).toBe(204);
    expect((await phoneSocket.closed).code).toBe(SOCKET_CLOSE.kicked);
    expect(southBus.lost).toContainEqual({
      type: 'kick',
      kick: { userId: user.user.id, sessionId: phoneSession },
    });
    // The user's other session is still live, and its socket stays.
    laptopSocket.send({ t: 'ping' });
    await laptopSocket.next(is('pong'));
    expect(laptopSocket.isOpen).toBe(true);

    // Signing out on the first node ends that one too.
    await north.call('POST', '/api/v1/auth/logout', { token: user.token });
    expect((await laptopSocket.closed).code).toBe(SOCKET_CLOSE.kicked);
  });

  it('closes a socket whose session ended in the database as expired', async () => {
    const user = await north.register();
    const socket = await connect(user.token);
    await north.ctx.db
      .updateTable('sessions')
      .set({ expires_at: south.clock.now() })
      .where('user_id', '=', user.user.id)
      .execute();
    expect((await socket.closed).code).toBe(SOCKET_CLOSE.tokenExpired);
  });
});

describe('a session that expires while its socket is open', () => {
  let t: TestApp;
  let url: string;
  beforeAll(async () => {
    // No session check within the test: only the socket's own expiry timer can close it.
    t = await createTestApp({ socketTimings: { sessionCheckIntervalMs: 600_000 } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = socketUrl(t.app.server.address());
  });
  afterAll(async () => {
    await t.close();
  });

  it('is closed with 4002 when it expires', { timeout: 10_000 }, async () => {
    const user = await t.register();
    const lifetime = 200;
    await t.ctx.db
      .updateTable('sessions')
      .set({ expires_at: t.clock.now() + lifetime })
      .where('user_id', '=', user.user.id)
      .execute();
    const socket = await TestSocket.connect(url, user.token);
    t.clock.advance(lifetime);
    expect((await socket.closed).code).toBe(SOCKET_CLOSE.tokenExpired);
  });
});
