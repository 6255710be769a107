import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import {
  singleConversationId,
  type Message,
  type MessageContent,
  type SendableContent,
} from '@teltlk/protocol';
import {
  createTestApp,
  TestSocket,
  type RegisteredUser,
  type TestApp,
  type TestAppOptions,
} from '@teltlk/server/testing';
import { expect, vi } from 'vitest';
import { ApiClient } from '@teltlk/client';
import { ImEngine } from './engine.js';
import { record } from './test-fixtures.js';
import { DeviceNetwork } from './test-network.js';

/** The server and the engine share two cores with other test files: waits are generous. */
export const until = <T>(check: () => T | Promise<T>): Promise<T> =>
  vi.waitFor(check, { timeout: 10_000 });

/** The real server in-process, listening on a loopback port. */
export interface LiveServer {
  t: TestApp;
  port: number;
}

/** Starts the server; `options` as the server's own tests give them (providers, say). */
export async function startServer(options: TestAppOptions = {}): Promise<LiveServer> {
  const t = await createTestApp({
    ...options,
    // Retries and batches of translations in milliseconds, not the production's quarter second.
    translationRunner: { backoffMs: 5, batchWindowMs: 5, ...options.translationRunner },
  });
  // The engine's burn clocks and sync marks compare the server's times with this
  // device's: the server keeps real time rather than the harness's frozen clock.
  t.clock.now = () => Date.now();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (address === null || typeof address === 'string') throw new Error('not on a port');
  return { t, port: address.port };
}

/**
 * Two new friends on the real server (`me`, whose engine is tested, and `peer`, who
 * writes over REST) and their conversation: the engine's tests run against the server's
 * own rules rather than a copy of them. `me` reads English; `peer` writes in
 * `peerTongue`, which the server takes short texts to be in.
 */
export class ServerWorld {
  readonly engines: ImEngine[] = [];
  /** This device's network, which every engine of `me` goes through. */
  readonly network = new DeviceNetwork();
  /** This device's database. */
  private readonly indexedDB = new IDBFactory();
  private readonly sockets: TestSocket[] = [];
  private counter = 0;

  private constructor(
    private readonly server: LiveServer,
    readonly me: RegisteredUser,
    readonly peer: RegisteredUser,
    readonly conversationId: string,
  ) {}

  static async open(
    server: LiveServer,
    { peerTongue = 'en' }: { peerTongue?: string } = {},
  ): Promise<ServerWorld> {
    const { t } = server;
    const me = await t.register({ nickname: 'Ada', motherTongue: 'en' });
    const peer = await t.register({ nickname: 'Bob', motherTongue: peerTongue });
    const { contacts } = t.ctx.services;
    const request = await contacts.sendRequest(
      { userId: me.user.id, sessionId: 'test' },
      { userId: peer.user.id },
    );
    await contacts.acceptRequest({ userId: peer.user.id, sessionId: 'test' }, request.id);
    const conversationId = singleConversationId(me.user.id, peer.user.id);
    return new ServerWorld(server, me, peer, conversationId);
  }

  private get t(): TestApp {
    return this.server.t;
  }

  /** REST calls the engines made, as `METHOD /path?query` under /api/v1, in order. */
  get requests(): string[] {
    return this.network.requests;
  }

  /** An engine of `me` on this device, over a real socket and an in-memory IndexedDB. */
  engine(): ImEngine {
    const token = this.me.token;
    const engine = new ImEngine({
      wsUrl: `ws://127.0.0.1:${this.server.port}/ws`,
      userId: this.me.user.id,
      getToken: () => token,
      api: new ApiClient({
        baseUrl: `http://127.0.0.1:${this.server.port}`,
        getToken: () => token,
        fetch: this.network.fetch,
      }),
      WebSocket: this.network.WebSocket,
      indexedDB: this.indexedDB,
      IDBKeyRange,
    });
    this.engines.push(engine);
    return engine;
  }

  /** A started engine, once its first sync finished. */
  async started(): Promise<ImEngine> {
    const engine = this.engine();
    const finished = record(engine, 'syncFinish');
    await engine.start();
    await until(() => expect(finished.length).toBeGreaterThan(0));
    return engine;
  }

  /** The app reloads: the engine stops, and a new one opens the same database. */
  async restart(engine: ImEngine): Promise<ImEngine> {
    await engine.stop();
    this.engines.splice(this.engines.indexOf(engine), 1);
    return this.engine();
  }

  /** The device loses the network: the socket drops and nothing gets through until `network.up`. */
  async goOffline(engine: ImEngine): Promise<void> {
    this.network.down();
    await until(() => expect(['offline', 'connecting']).toContain(engine.getSnapshot().status));
  }

  /** `peer` (or `me`, from another device) sends a message over REST. */
  async send(content: SendableContent, from: RegisteredUser = this.peer): Promise<Message> {
    this.counter += 1;
    const response = await this.t.call('POST', '/api/v1/messages', {
      token: from.token,
      body: {
        conversationId: this.conversationId,
        clientMsgId: `world-${Date.now().toString(36)}-${this.counter}`,
        content,
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Message>();
  }

  /** A REST call as `peer` (or `me` from another device) that answers 2xx. */
  async call(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    body?: unknown,
    from: RegisteredUser = this.peer,
  ): Promise<unknown> {
    const response = await this.t.call(method, `/api/v1${url}`, { token: from.token, body });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.body ? response.json<unknown>() : null;
  }

  /** `peer` is typing, from a socket of theirs. */
  async peerTypes(): Promise<void> {
    const socket = await TestSocket.connect(
      `ws://127.0.0.1:${this.server.port}/ws`,
      this.peer.token,
    );
    this.sockets.push(socket);
    socket.send({ t: 'typing', conversationId: this.conversationId });
  }

  /**
   * Runs `act` with the server's clock `ms` behind this device's: a burn clock the server
   * starts meanwhile runs out that much sooner here.
   */
  async serverBehind<T>(ms: number, act: () => Promise<T>): Promise<T> {
    this.t.clock.now = () => Date.now() - ms;
    try {
      return await act();
    } finally {
      this.t.clock.now = () => Date.now();
    }
  }

  /** What the server holds of the conversation, oldest first, as `me` sees it. */
  async messages(): Promise<Message[]> {
    const page = (await this.call(
      'GET',
      `/conversations/${this.conversationId}/messages?limit=200`,
      undefined,
      this.me,
    )) as { messages: Message[] };
    return page.messages;
  }

  async contents(): Promise<MessageContent[]> {
    return (await this.messages()).map((message) => message.content);
  }

  /** Stops the engines and `peer`'s sockets (the server goes on for the file's next test). */
  async close(): Promise<void> {
    for (const engine of this.engines.splice(0)) await engine.stop();
    await Promise.all(this.sockets.splice(0).map((socket) => socket.close()));
  }
}
