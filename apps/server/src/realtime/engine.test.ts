/// <reference lib="dom" />
// The client engine's types speak the browser's IndexedDB and WebSocket.
import { ApiClient } from '@teltlk/client';
import { ImEngine, type EngineEvents, type LocalMessage } from '@teltlk/im-sdk';
import { singleConversationId, type FriendRequest } from '@teltlk/protocol';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { createTestApp, dialects, type RegisteredUser, type TestApp } from '../test/harness.js';
import { socketUrl } from '../test/test-client.js';

/**
 * The client engine (packages/im-sdk) in Node against the real server on a loopback
 * port: two users, each with their own local database, messages both ways, an engine
 * that was away, and an outbox sent after a lost connection.
 */

/** A device's network the test can cut: while `offline`, new sockets go to a closed port. */
interface Link {
  offline: boolean;
  sockets: WebSocket[];
}

function socketClassFor(link: Link): typeof globalThis.WebSocket {
  class LinkedWebSocket extends WebSocket {
    constructor(url: string) {
      super(link.offline ? 'ws://127.0.0.1:9/ws' : url);
      link.sockets.push(this);
    }
  }
  return LinkedWebSocket as unknown as typeof globalThis.WebSocket;
}

const textOf = (message: Pick<LocalMessage, 'content'> | null | undefined) =>
  message?.content.kind === 'text' ? message.content.text : message?.content.kind;

/**
 * Waits for an expectation, longer than Vitest's default second: the engine writes through
 * an IndexedDB emulation and a real server, which a busy machine can slow past it.
 */
function waitFor<T>(check: () => T, options: { timeout: number } = { timeout: 10_000 }) {
  return vi.waitFor(check, options);
}

function urlOf(input: string | URL | Request): string {
  return typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
}

describe.each(dialects)('the client engine against the server on $dialect', ({ dialect }) => {
  let t: TestApp;
  let baseUrl: string;
  let wsUrl: string;
  let ada: RegisteredUser;
  let bob: RegisteredUser;
  let conversationId: string;
  const engines: ImEngine[] = [];

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    wsUrl = socketUrl(address);
    baseUrl = wsUrl.replace('ws://', 'http://').replace(/\/ws$/, '');
    ada = await t.register();
    bob = await t.register();
    const sent = await t.call('POST', '/api/v1/friend-requests', {
      token: ada.token,
      body: { userId: bob.user.id },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const accepted = await t.call(
      'POST',
      `/api/v1/friend-requests/${sent.json<FriendRequest>().id}/accept`,
      { token: bob.token },
    );
    expect(accepted.statusCode, accepted.body).toBe(200);
    conversationId = singleConversationId(ada.user.id, bob.user.id);
  });

  afterEach(async () => {
    for (const engine of engines.splice(0)) await engine.stop();
  });

  afterAll(async () => {
    await t.close();
  });

  /** An engine for `user` over `indexedDB` (its device), recording its REST paths. */
  function engineFor(
    user: RegisteredUser,
    indexedDB: IDBFactory,
    requests: string[] = [],
    link: Link = { offline: false, sockets: [] },
  ) {
    const fetchAndRecord: typeof fetch = (input, init) => {
      requests.push(`${init?.method ?? 'GET'} ${urlOf(input).replace(baseUrl, '')}`);
      return fetch(input, init);
    };
    const api = new ApiClient({ baseUrl, getToken: () => user.token, fetch: fetchAndRecord });
    const engine = new ImEngine({
      baseUrl,
      wsUrl,
      userId: user.user.id,
      getToken: () => user.token,
      api,
      WebSocket: socketClassFor(link),
      indexedDB,
      IDBKeyRange,
    });
    engines.push(engine);
    return engine;
  }

  function record<K extends keyof EngineEvents>(engine: ImEngine, type: K): EngineEvents[K][] {
    const seen: EngineEvents[K][] = [];
    engine.on(type, (value) => seen.push(value));
    return seen;
  }

  async function synced(engine: ImEngine): Promise<void> {
    const finished = record(engine, 'syncFinish');
    await engine.start();
    await waitFor(() => expect(finished.length).toBeGreaterThan(0), { timeout: 10_000 });
  }

  async function stop(engine: ImEngine): Promise<void> {
    await engine.stop();
    engines.splice(engines.indexOf(engine), 1);
  }

  it('delivers both ways, and an engine that was away gets exactly what it lacked', async () => {
    const adaDevice = new IDBFactory();
    const bobDevice = new IDBFactory();
    const adaEngine = engineFor(ada, adaDevice);
    let bobEngine = engineFor(bob, bobDevice);
    await Promise.all([synced(adaEngine), synced(bobEngine)]);
    const bobHeard = record(bobEngine, 'message');

    // The first message creates the conversation; both lists learn of it.
    const adaChat = adaEngine.conversation(conversationId);
    const hello = await adaChat.send({ kind: 'text', text: 'hello bob' });
    expect(hello.status).toBe('sending');
    await waitFor(() => expect(adaChat.getSnapshot().messages[0]?.status).toBe('sent'));
    await waitFor(() =>
      expect(bobEngine.getSnapshot().conversations[0]).toMatchObject({
        id: conversationId,
        unread: 1,
        lastMessage: { seq: 1 },
      }),
    );
    expect(bobHeard.map(textOf)).toEqual(['hello bob']);
    await waitFor(() =>
      expect(adaEngine.getSnapshot().conversations[0]).toMatchObject({
        id: conversationId,
        unread: 0,
      }),
    );

    let bobChat = bobEngine.conversation(conversationId);
    await waitFor(() => expect(bobChat.getSnapshot().messages.map(textOf)).toEqual(['hello bob']));
    await bobChat.send({ kind: 'text', text: 'hi ada' });
    bobChat.markRead();
    await waitFor(() =>
      expect(adaChat.getSnapshot().messages.map(textOf)).toEqual(['hello bob', 'hi ada']),
    );
    // Bob's reply marks what came before it read, up to his own message.
    await waitFor(() => expect(adaEngine.getSnapshot().conversations[0]?.peerReadSeq).toBe(2));

    // Bob's app is closed while Ada writes three more.
    await stop(bobEngine);
    for (const text of ['one', 'two', 'three']) await adaChat.send({ kind: 'text', text });
    await waitFor(() =>
      expect(adaChat.getSnapshot().messages.filter((m) => m.status === 'sent')).toHaveLength(5),
    );

    // Bob opens the app with no network yet: the list and the chat come from the cache.
    const requests: string[] = [];
    const bobLink: Link = { offline: true, sockets: [] };
    bobEngine = engineFor(bob, bobDevice, requests, bobLink);
    const finished = record(bobEngine, 'syncFinish');
    await bobEngine.start();
    // The list comes from the cache: the engine is past starting, though still offline.
    expect(bobEngine.getSnapshot().status).not.toBe('starting');
    expect(bobEngine.getSnapshot().conversations[0]).toMatchObject({
      id: conversationId,
      maxSeq: 2,
      unread: 0,
    });
    expect(textOf(bobEngine.getSnapshot().conversations[0]?.lastMessage)).toBe('hi ada');
    bobChat = bobEngine.conversation(conversationId);
    await waitFor(() =>
      expect(bobChat.getSnapshot().messages.map(textOf)).toEqual(['hello bob', 'hi ada']),
    );
    expect(requests).toEqual([]);

    bobLink.offline = false;
    await waitFor(() => expect(finished.length).toBeGreaterThan(0), { timeout: 20_000 });
    await waitFor(() =>
      expect(bobChat.getSnapshot().messages.map(textOf)).toEqual([
        'hello bob',
        'hi ada',
        'one',
        'two',
        'three',
      ]),
    );
    expect(bobEngine.getSnapshot().conversations[0]).toMatchObject({ maxSeq: 5, unread: 3 });
    // Only the missing range was pulled, and nothing of it twice.
    const pulls = requests.filter((path) => path.includes('/messages'));
    expect(pulls).toEqual([
      `GET /api/v1/conversations/${conversationId}/messages?after=2&limit=200`,
    ]);
    expect(bobChat.getSnapshot().messages.map((m) => m.seq)).toEqual([1, 2, 3, 4, 5]);
  });

  it('sends what was written during a lost connection once, after reconnecting', async () => {
    const adaLink: Link = { offline: false, sockets: [] };
    const adaEngine = engineFor(ada, new IDBFactory(), [], adaLink);
    const bobEngine = engineFor(bob, new IDBFactory());
    await Promise.all([synced(adaEngine), synced(bobEngine)]);
    const bobChat = bobEngine.conversation(conversationId);
    const adaChat = adaEngine.conversation(conversationId);
    await waitFor(() => expect(adaChat.getSnapshot().messages.length).toBeGreaterThan(0));
    const before = adaChat.getSnapshot().messages.length;

    // Ada's network goes away: her socket dies and new ones cannot reach the server.
    adaLink.offline = true;
    for (const socket of adaLink.sockets) socket.terminate();
    await waitFor(() => expect(adaEngine.getSnapshot().status).toMatch(/^(offline|connecting)$/));
    const queued = await adaChat.send({ kind: 'text', text: 'written offline' });
    // A reconnect is tried and fails after the send: the message waits, not failed or lost.
    const tries = adaLink.sockets.length;
    await waitFor(() => expect(adaLink.sockets.length).toBeGreaterThan(tries));
    const attempt = adaLink.sockets.at(-1)!;
    await waitFor(() => expect(attempt.readyState).toBe(WebSocket.CLOSED));
    expect(adaChat.getSnapshot().messages.at(-1)).toMatchObject({
      clientMsgId: queued.clientMsgId,
      status: 'sending',
      seq: null,
    });

    adaLink.offline = false;
    await waitFor(() => expect(adaChat.getSnapshot().messages.at(-1)?.status).toBe('sent'), {
      timeout: 20_000,
    });
    await waitFor(() =>
      expect(textOf(bobChat.getSnapshot().messages.at(-1))).toBe('written offline'),
    );
    const stored = await t.ctx.db
      .selectFrom('messages')
      .select('seq')
      .where('client_msg_id', '=', queued.clientMsgId)
      .execute();
    expect(stored).toHaveLength(1);
    expect(adaChat.getSnapshot().messages).toHaveLength(before + 1);
  });
});
