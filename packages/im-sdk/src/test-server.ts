import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import {
  singleConversationId,
  type Message,
  type MessageContent,
  type SendableContent,
} from '@teltlk/protocol';
import { createTestApp, type RegisteredUser, type TestApp } from '@teltlk/server/testing';
import { expect } from 'vitest';
import { WebSocket } from 'ws';
import { ApiClient } from '@teltlk/client';
import { ImEngine } from './engine.js';

/** The real server in-process, listening on a loopback port; one per test file. */
export interface LiveServer {
  t: TestApp;
  port: number;
}

export async function startServer(): Promise<LiveServer> {
  const t = await createTestApp();
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
 * own rules rather than a copy of them.
 */
export class ServerWorld {
  readonly engines: ImEngine[] = [];
  /** REST calls the engines made, as `METHOD /path?query` under /api/v1, in order. */
  readonly requests: string[] = [];
  private counter = 0;

  private constructor(
    private readonly server: LiveServer,
    readonly me: RegisteredUser,
    readonly peer: RegisteredUser,
    readonly conversationId: string,
  ) {}

  static async open(server: LiveServer): Promise<ServerWorld> {
    const { t } = server;
    const me = await t.register({ nickname: 'Ada', motherTongue: 'en' });
    const peer = await t.register({ nickname: 'Bob', motherTongue: 'en' });
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

  /** An engine of `me`, over a real socket and an in-memory IndexedDB (the device's). */
  engine(indexedDB: IDBFactory = new IDBFactory()): ImEngine {
    const token = this.me.token;
    const engine = new ImEngine({
      wsUrl: `ws://127.0.0.1:${this.server.port}/ws`,
      userId: this.me.user.id,
      getToken: () => token,
      api: new ApiClient({
        baseUrl: `http://127.0.0.1:${this.server.port}`,
        getToken: () => token,
        fetch: (input, init) => {
          const url = new URL(input instanceof Request ? input.url : input);
          const path = url.pathname.replace('/api/v1', '');
          this.requests.push(`${init?.method ?? 'GET'} ${path}${url.search}`);
          return fetch(input, init);
        },
      }),
      WebSocket: WebSocket as unknown as typeof globalThis.WebSocket,
      indexedDB,
      IDBKeyRange,
    });
    this.engines.push(engine);
    return engine;
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
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    body?: unknown,
    from: RegisteredUser = this.peer,
  ): Promise<unknown> {
    const response = await this.t.call(method, `/api/v1${url}`, { token: from.token, body });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.body ? response.json<unknown>() : null;
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

  /** Stops the engines (the server goes on for the file's next test). */
  async close(): Promise<void> {
    for (const engine of this.engines.splice(0)) await engine.stop();
  }
}
