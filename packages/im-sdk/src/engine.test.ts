import { IDBFactory } from 'fake-indexeddb';
import { SOCKET_CLOSE } from '@teltlk/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BACKOFF_CAP_MS } from './connection.js';
import type { ImEngine } from './engine.js';
import { FakeServer } from './fake-server.js';
import { FakeSocket } from './fake-socket.js';
import { CONV, ME, PEER, testEngine } from './test-fixtures.js';
import type { TranslateBody } from '@teltlk/protocol';
import type { ConversationHandle, EngineEvents, LocalMessage } from './types.js';

let server: FakeServer;
let indexedDB: IDBFactory;
const engines: ImEngine[] = [];

beforeEach(() => {
  FakeSocket.reset();
  server = new FakeServer();
  indexedDB = new IDBFactory();
});

afterEach(async () => {
  for (const engine of engines.splice(0)) await engine.stop();
  FakeSocket.reset();
});

function makeEngine(): ImEngine {
  const engine = testEngine(server, indexedDB);
  engines.push(engine);
  return engine;
}

function record<K extends keyof EngineEvents>(engine: ImEngine, type: K): EngineEvents[K][] {
  const seen: EngineEvents[K][] = [];
  engine.on(type, (value) => seen.push(value));
  return seen;
}

async function started(): Promise<ImEngine> {
  const engine = makeEngine();
  const finished = record(engine, 'syncFinish');
  await engine.start();
  await vi.waitFor(() => expect(finished.length).toBeGreaterThan(0));
  return engine;
}

const texts = (handle: ConversationHandle) =>
  handle
    .getSnapshot()
    .messages.map((message) =>
      message.content.kind === 'text' ? message.content.text : message.content.kind,
    );

const seqs = (handle: ConversationHandle) =>
  handle.getSnapshot().messages.map((message) => message.seq);

/** The network goes down: the socket drops and reconnects fail until `server.up`. */
async function goOffline(engine: ImEngine): Promise<void> {
  server.up = false;
  FakeSocket.last.drop();
  await vi.waitFor(() => expect(['offline', 'connecting']).toContain(engine.getSnapshot().status));
}

async function restart(engine: ImEngine): Promise<ImEngine> {
  await engine.stop();
  engines.splice(engines.indexOf(engine), 1);
  FakeSocket.reset();
  server = Object.assign(new FakeServer(), {
    messages: server.messages,
    events: server.events,
    member: server.member,
    burnSeconds: server.burnSeconds,
    translations: server.translations,
    translateMode: server.translateMode,
  });
  return makeEngine();
}

describe('ImEngine', () => {
  it('syncs the list without pulling history, and pulls a conversation when it is opened', async () => {
    for (let i = 1; i <= 60; i++) server.append({ kind: 'text', text: `m${i}` }, { push: false });
    const events = record(makeEngine(), 'syncStart');
    const engine = engines[0]!;
    await engine.start();
    expect(engine.getSnapshot().status).not.toBe('starting');
    await vi.waitFor(() => expect(engine.getSnapshot().conversations).toHaveLength(1));
    expect(events).toHaveLength(1);
    expect(engine.getSnapshot().conversations[0]).toMatchObject({
      id: CONV,
      unread: 60,
      maxSeq: 60,
    });
    expect(engine.getSnapshot().totalUnread).toBe(60);
    expect(server.requests.some((path) => path.includes('/messages'))).toBe(false);

    const handle = engine.conversation(CONV);
    await vi.waitFor(() => expect(handle.getSnapshot().messages).toHaveLength(50));
    expect(seqs(handle).at(0)).toBe(11);
    expect(seqs(handle).at(-1)).toBe(60);
    expect(handle.getSnapshot().hasMore).toBe(true);
    expect(server.requests.filter((path) => path.includes('/messages'))).toEqual([
      `GET /conversations/${CONV}/messages?limit=50`,
    ]);

    await handle.loadOlder();
    expect(seqs(handle)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    expect(handle.getSnapshot()).toMatchObject({ hasMore: false, loadingOlder: false });
  });

  it('applies the next pushed seq, pulls a gap, and ignores a duplicate', async () => {
    server.append({ kind: 'text', text: 'one' }, { push: false });
    const engine = await started();
    const arrived = record(engine, 'message');
    const handle = engine.conversation(CONV);
    await vi.waitFor(() => expect(texts(handle)).toEqual(['one']));

    const two = server.append({ kind: 'text', text: 'two' });
    await vi.waitFor(() => expect(texts(handle)).toEqual(['one', 'two']));
    expect(arrived.map((message) => message.seq)).toEqual([2]);

    server.append({ kind: 'text', text: 'three' }, { push: false });
    server.append({ kind: 'text', text: 'four' });
    await vi.waitFor(() => expect(texts(handle)).toEqual(['one', 'two', 'three', 'four']));
    expect(server.requests.filter((path) => path.includes('/messages?after='))).toEqual([
      `GET /conversations/${CONV}/messages?after=2&limit=200`,
    ]);

    server.push({ t: 'message', message: two });
    // Frames are applied in order: once the next message is in, the duplicate was handled.
    server.append({ kind: 'text', text: 'five' });
    await vi.waitFor(() => expect(texts(handle)).toEqual(['one', 'two', 'three', 'four', 'five']));
    expect(arrived.map((message) => message.seq)).toEqual([2, 4, 5]);
    expect(engine.getSnapshot().conversations[0]).toMatchObject({ maxSeq: 5, unread: 5 });

    handle.markRead();
    await vi.waitFor(() => expect(engine.getSnapshot().totalUnread).toBe(0));
    await vi.waitFor(() =>
      expect(server.frames).toContainEqual({ t: 'read', conversationId: CONV, seq: 5 }),
    );
  });

  it('sends each outbox entry once, keeps it across a lost connection, and marks refusals failed', async () => {
    const engine = await started();
    const handle = engine.conversation(CONV);
    server.answerSends = false;
    const sent = await handle.send({ kind: 'text', text: 'hello' });
    expect(sent).toMatchObject({ status: 'sending', seq: null, senderId: ME });
    expect(sent.clientMsgId).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
    await vi.waitFor(() =>
      expect(server.frames.filter((frame) => frame.t === 'send')).toHaveLength(1),
    );
    expect(texts(handle)).toEqual(['hello']);

    // The connection dies before the answer: the same message goes again, once.
    server.answerSends = true;
    FakeSocket.last.drop();
    await vi.waitFor(() => expect(handle.getSnapshot().messages[0]?.status).toBe('sent'), {
      timeout: 3000,
    });
    const sends = server.frames.filter((frame) => frame.t === 'send');
    expect(sends).toHaveLength(2);
    expect(new Set(sends.map((frame) => frame.t === 'send' && frame.clientMsgId))).toEqual(
      new Set([sent.clientMsgId]),
    );
    expect(server.messages).toHaveLength(1);
    expect(handle.getSnapshot().messages[0]).toMatchObject({
      seq: 1,
      clientMsgId: sent.clientMsgId,
    });

    server.refuseNext.push('MESSAGE_REFUSED');
    const refused = await handle.send({ kind: 'text', text: 'refused' });
    await vi.waitFor(() =>
      expect(handle.getSnapshot().messages[1]).toMatchObject({
        status: 'failed',
        error: 'MESSAGE_REFUSED',
      }),
    );
    handle.retry(refused.clientMsgId);
    await vi.waitFor(() =>
      expect(handle.getSnapshot().messages[1]).toMatchObject({ status: 'sent', seq: 2 }),
    );
    expect(server.messages.map((message) => message.seq)).toEqual([1, 2]);
    await expect(handle.send({ kind: 'text', text: '   ' })).rejects.toMatchObject({
      code: 'BLANK_MESSAGE',
    });
  });

  it('sends what was written offline after the restart, and shows the cache at once', async () => {
    server.append({ kind: 'text', text: 'before' }, { push: false });
    let engine = await started();
    let handle = engine.conversation(CONV);
    await vi.waitFor(() => expect(texts(handle)).toEqual(['before']));
    handle.setDraft('half written');

    await goOffline(engine);
    await handle.send({ kind: 'text', text: 'offline' });
    engine = await restart(engine);
    server.up = false;
    await engine.start();
    // The cache, before any network.
    expect(engine.getSnapshot().status).not.toBe('starting');
    expect(engine.getSnapshot().conversations[0]).toMatchObject({
      id: CONV,
      draft: 'half written',
    });
    handle = engine.conversation(CONV);
    await vi.waitFor(() => expect(texts(handle)).toEqual(['before', 'offline']));
    expect(handle.getSnapshot().messages[1]?.status).toBe('sending');

    server.append({ kind: 'text', text: 'while away' }, { push: false });
    server.up = true;
    FakeSocket.last.drop();
    await vi.waitFor(() => expect(texts(handle)).toEqual(['before', 'while away', 'offline']), {
      timeout: 3000,
    });
    await vi.waitFor(() => expect(handle.getSnapshot().messages[2]?.status).toBe('sent'));
    expect(server.messages.map((message) => message.content)).toEqual([
      { kind: 'text', text: 'before' },
      { kind: 'text', text: 'while away' },
      { kind: 'text', text: 'offline' },
    ]);
  });

  it('applies events once and in order, pulling a gap', async () => {
    const engine = await started();
    const events = record(engine, 'userEvent');
    server.memberChange({ pinned: true });
    await vi.waitFor(() => expect(engine.getSnapshot().conversations[0]?.pinned).toBe(true));
    server.memberChange({ muted: true }, false);
    server.memberChange({ pinned: false });
    await vi.waitFor(() =>
      expect(engine.getSnapshot().conversations[0]).toMatchObject({ pinned: false, muted: true }),
    );
    server.push({ t: 'event', event: server.events[0]! });
    // Events apply in order: once a newer one is in, the replayed first one has been seen.
    server.memberChange({ muted: false });
    await vi.waitFor(() => expect(engine.getSnapshot().conversations[0]?.muted).toBe(false));
    expect(events.map((event) => event.seq)).toEqual([1, 2, 3, 4]);
    expect(engine.getSnapshot().conversations[0]?.pinned).toBe(false);
  });

  it('shows revokes, hides, burns and the peer typing', async () => {
    server.append({ kind: 'text', text: 'a' }, { push: false });
    server.append({ kind: 'text', text: 'b' }, { push: false });
    const engine = await started();
    const revoked = record(engine, 'revoked');
    const handle = engine.conversation(CONV);
    await vi.waitFor(() => expect(texts(handle)).toEqual(['a', 'b']));

    server.revoke(1);
    await vi.waitFor(() => expect(texts(handle)).toEqual(['revoked', 'b']));
    expect(revoked).toEqual([{ conversationId: CONV, seq: 1 }]);

    await handle.hide(2);
    await vi.waitFor(() => expect(texts(handle)).toEqual(['revoked']));

    await engine.setBurn(CONV, 10);
    await vi.waitFor(() => expect(engine.getSnapshot().conversations[0]?.burnSeconds).toBe(10));
    expect(texts(handle)).toEqual(['revoked', 'burn']);
    const burning = server.append({ kind: 'text', text: 'secret' }, { push: false });
    expect(burning.burnAt).not.toBeNull();
    // Sooner than the 10 s the server chose, to keep the test short.
    burning.burnAt = Date.now() + 150;
    server.push({ t: 'message', message: burning });
    await vi.waitFor(() => expect(texts(handle)).toContain('secret'));
    await vi.waitFor(() => expect(texts(handle)).not.toContain('secret'), { timeout: 2000 });

    server.push({ t: 'typing', conversationId: CONV, userId: PEER });
    await vi.waitFor(() => expect(handle.getSnapshot().peerTyping).toBe(true));
  });

  it('shows edits: from the peer as pushed, our own at once, and the list follows', async () => {
    server.append({ kind: 'text', text: 'see you at six' }, { push: false });
    server.append({ kind: 'text', text: 'mine' }, { push: false, senderId: ME });
    const engine = await started();
    const edited = record(engine, 'edited');
    const handle = engine.conversation(CONV);
    await vi.waitFor(() => expect(texts(handle)).toEqual(['see you at six', 'mine']));

    server.edit(1, 'see you at seven');
    await vi.waitFor(() => expect(texts(handle)).toEqual(['see you at seven', 'mine']));
    expect(edited).toEqual([{ conversationId: CONV, seq: 1 }]);
    expect(handle.getSnapshot().messages[0]?.editedAt).toBe(server.messages[0]!.editedAt);

    await handle.edit(2, 'mine, edited');
    await vi.waitFor(() => expect(texts(handle)).toEqual(['see you at seven', 'mine, edited']));
    await vi.waitFor(() =>
      expect(engine.getSnapshot().conversations[0]?.lastMessage?.content).toMatchObject({
        text: 'mine, edited',
      }),
    );
  });

  it('clears history on every device and keeps list changes from REST', async () => {
    server.append({ kind: 'text', text: 'a' }, { push: false });
    const engine = await started();
    const handle = engine.conversation(CONV);
    await vi.waitFor(() => expect(texts(handle)).toEqual(['a']));
    await engine.updateConversation(CONV, { pinned: true });
    expect(engine.getSnapshot().conversations[0]?.pinned).toBe(true);
    await engine.clearHistory(CONV);
    await vi.waitFor(() => expect(texts(handle)).toEqual([]));
    expect(handle.getSnapshot().hasMore).toBe(false);
    await engine.updateConversation(CONV, { hidden: true });
    expect(engine.getSnapshot().conversations).toEqual([]);
    server.append({ kind: 'text', text: 'back' });
    await vi.waitFor(() => expect(engine.getSnapshot().conversations).toHaveLength(1));
  });

  it('stops for good when kicked offline', async () => {
    const engine = await started();
    const kicked = record(engine, 'kickedOffline');
    // The clock jumps past the longest reconnect delay: no new socket is tried.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      FakeSocket.last.drop(SOCKET_CLOSE.kicked);
      expect(kicked).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(BACKOFF_CAP_MS * 2);
    } finally {
      vi.useRealTimers();
    }
    expect(FakeSocket.instances).toHaveLength(1);
    expect(engine.getSnapshot().status).toBe('offline');
  });

  it('reconnects and catches up by sync after being cut off as a slow consumer', async () => {
    server.append({ kind: 'text', text: 'one' });
    const engine = await started();
    const ended = [
      record(engine, 'kickedOffline'),
      record(engine, 'tokenExpired'),
      record(engine, 'tokenInvalid'),
    ];
    const handle = engine.conversation(CONV);
    await vi.waitFor(() => expect(texts(handle)).toEqual(['one']));
    const first = FakeSocket.last;
    first.drop(SOCKET_CLOSE.slowConsumer);
    // What the server dropped from the queue is not pushed again.
    server.append({ kind: 'text', text: 'two' }, { push: false });
    await vi.waitFor(() => expect(texts(handle)).toEqual(['one', 'two']));
    expect(FakeSocket.last).not.toBe(first);
    expect(['syncing', 'ready']).toContain(engine.getSnapshot().status);
    expect(ended.flat()).toEqual([]);
  });

  it('keeps snapshots stable between changes and notifies once per batch', async () => {
    const engine = await started();
    const first = engine.getSnapshot();
    expect(engine.getSnapshot()).toBe(first);
    let calls = 0;
    engine.subscribe(() => calls++);
    engine.conversation(CONV).setDraft('x');
    engine.conversation(CONV).setDraft('xy');
    await Promise.resolve();
    await Promise.resolve();
    expect(calls).toBe(1);
    expect(engine.getSnapshot()).not.toBe(first);
    expect(engine.getSnapshot().conversations[0]?.draft).toBe('xy');
  });

  it('sends a reply by the quoted seq, and shows the quote unavailable once it is revoked or burnt', async () => {
    server.append({ kind: 'text', text: 'lunch?' }, { push: false });
    const engine = await started();
    const handle = engine.conversation(CONV);
    await vi.waitFor(() => expect(texts(handle)).toEqual(['lunch?']));
    const quoteOf = (text: string) => {
      const found = handle
        .getSnapshot()
        .messages.find(
          (message) => message.content.kind === 'text' && message.content.text === text,
        );
      return found?.content.kind === 'text' ? found.content.quote : undefined;
    };

    const sent = await handle.send({ kind: 'text', text: 'yes', quote: { seq: 1 } });
    expect(sent.content).toMatchObject({ quote: { seq: 1, senderId: PEER, text: 'lunch?' } });
    await vi.waitFor(() => expect(server.messages).toHaveLength(2));
    const frame = server.frames.find((f) => f.t === 'send');
    expect(frame?.t === 'send' && frame.content).toEqual({
      kind: 'text',
      text: 'yes',
      quote: { seq: 1 },
    });
    await vi.waitFor(() => expect(handle.getSnapshot().messages[1]?.status).toBe('sent'));

    server.revoke(1);
    await vi.waitFor(() => expect(quoteOf('yes')).toEqual({ seq: 1, unavailable: true }));

    const burning = server.append({ kind: 'text', text: 'secret' }, { push: false });
    burning.burnAt = Date.now() + 150;
    server.push({ t: 'message', message: burning });
    server.append({
      kind: 'text',
      text: 'got it',
      quote: { seq: burning.seq, senderId: PEER, text: 'secret' },
    });
    await vi.waitFor(() =>
      expect(quoteOf('got it')).toEqual({ seq: burning.seq, senderId: PEER, text: 'secret' }),
    );
    await vi.waitFor(
      () => expect(quoteOf('got it')).toEqual({ seq: burning.seq, unavailable: true }),
      { timeout: 2000 },
    );
  });

  it('forwards a text message as a marked copy', async () => {
    server.append({ kind: 'text', text: 'fwd me' }, { push: false });
    const engine = await started();
    const handle = engine.conversation(CONV);
    await vi.waitFor(() => expect(texts(handle)).toEqual(['fwd me']));
    await engine.forward(handle.getSnapshot().messages[0] as LocalMessage, [CONV]);
    await vi.waitFor(() => expect(server.messages).toHaveLength(2));
    expect(server.messages[1]?.content).toEqual({ kind: 'text', text: 'fwd me', forwarded: true });
  });

  it('forwards a contact card as a marked copy', async () => {
    const user = {
      id: 'c',
      teltlkId: 'Cat12345',
      nickname: 'Cat',
      avatarUrl: null,
      country: 'FR',
      motherTongue: 'fr',
      official: false,
    };
    server.append({ kind: 'card', user }, { push: false });
    const engine = await started();
    const handle = engine.conversation(CONV);
    await vi.waitFor(() => expect(handle.getSnapshot().messages).toHaveLength(1));
    await engine.forward(handle.getSnapshot().messages[0] as LocalMessage, [CONV]);
    await vi.waitFor(() => expect(server.messages).toHaveLength(2));
    expect(server.messages[1]?.content).toEqual({ kind: 'card', user, forwarded: true });
  });

  it('sends and forwards a location, and quotes it by its place name', async () => {
    const engine = await started();
    const handle = engine.conversation(CONV);
    const place = {
      kind: 'location',
      latitude: -33.8568,
      longitude: 151.2153,
      name: 'Opera',
    } as const;
    await handle.send(place);
    await vi.waitFor(() => expect(handle.getSnapshot().messages[0]?.status).toBe('sent'));
    expect(server.messages[0]?.content).toEqual(place);
    await engine.forward(handle.getSnapshot().messages[0] as LocalMessage, [CONV]);
    await vi.waitFor(() => expect(server.messages).toHaveLength(2));
    expect(server.messages[1]?.content).toEqual({ ...place, forwarded: true });
    await handle.send({ kind: 'text', text: 'See you there', quote: { seq: 1 } });
    // Shown from the local copy before the server's arrives, then as the server filled it in.
    await vi.waitFor(() => expect(handle.getSnapshot().messages).toHaveLength(3));
    expect(handle.getSnapshot().messages.at(-1)?.content).toMatchObject({
      quote: { seq: 1, senderId: ME, text: 'Opera', kind: 'location' },
    });
    await vi.waitFor(() => expect(server.messages).toHaveLength(3));
    expect(server.messages[2]?.content).toMatchObject({
      quote: { seq: 1, senderId: ME, text: 'Opera', kind: 'location' },
    });
  });
});

describe('ImEngine translation', () => {
  const bonjour = { kind: 'text', text: 'bonjour' } as const;

  async function translating(): Promise<{ engine: ImEngine; handle: ConversationHandle }> {
    const engine = await started();
    engine.setMotherTongue('en');
    const handle = engine.conversation(CONV);
    const firstPage = Math.min(server.maxSeq, 50);
    await vi.waitFor(() => expect(handle.getSnapshot().messages).toHaveLength(firstPage));
    return { engine, handle };
  }

  const status = (handle: ConversationHandle, seq: number) =>
    handle.getSnapshot().translations.get(seq)?.status;

  /**
   * The translation requests made before a new message's: requests leave in the order
   * they are asked for, so any that earlier asks were going to make have arrived by then.
   */
  async function askedBefore(handle: ConversationHandle): Promise<TranslateBody[]> {
    const message = server.append(bonjour, { lang: 'fr' });
    await vi.waitFor(() =>
      expect(handle.getSnapshot().messages.some((row) => row.seq === message.seq)).toBe(true),
    );
    handle.translate([message.seq]);
    await vi.waitFor(() => expect(server.translateBodies.at(-1)?.seqs).toEqual([message.seq]));
    return server.translateBodies.slice(0, -1);
  }

  it('shows the translation a frame brings, and keeps the map between other changes', async () => {
    server.append(bonjour, { push: false, lang: 'fr' });
    const { engine, handle } = await translating();
    expect(handle.getSnapshot().translationTarget).toBe('en');
    await vi.waitFor(() => expect(engine.getSnapshot().translation?.available).toBe(true));
    handle.translate([1]);
    await vi.waitFor(() => expect(status(handle, 1)).toBe('pending'));
    const arrived = record(engine, 'translation');
    server.finishTranslation(1, 'en');
    await vi.waitFor(() =>
      expect(handle.getSnapshot().translations.get(1)).toMatchObject({
        status: 'done',
        text: 'en: bonjour',
        from: 'fr',
      }),
    );
    expect(arrived.map((translation) => translation.seq)).toEqual([1]);

    const translations = handle.getSnapshot().translations;
    server.append({ kind: 'text', text: 'ok' });
    await vi.waitFor(() => expect(handle.getSnapshot().messages).toHaveLength(2));
    expect(handle.getSnapshot().translations).toBe(translations);
  });

  it('asks once for all the seqs of a tick, only for what needs it, and never twice', async () => {
    server.append(bonjour, { push: false, lang: 'fr' });
    server.append({ kind: 'text', text: 'hello' }, { push: false, lang: 'en' });
    server.append({ kind: 'text', text: '你好' }, { push: false, lang: 'zh' });
    server.append({ kind: 'text', text: 'mine' }, { push: false, lang: 'fr', senderId: ME });
    server.append({ kind: 'text', text: '👍' }, { push: false });
    const { handle } = await translating();
    handle.translate([1]);
    handle.translate([2, 3]);
    handle.translate([4, 5, 1]);
    await vi.waitFor(() => expect(status(handle, 3)).toBe('pending'));
    expect(server.translateBodies).toEqual([{ conversationId: CONV, seqs: [1, 3], lang: 'en' }]);

    server.finishTranslation(1, 'en', { error: 'TRANSLATION_FAILED' });
    await vi.waitFor(() => expect(status(handle, 1)).toBe('failed'));
    // Done, pending, failed, and answered as needing none: nothing is asked again.
    handle.translate([1, 2, 3, 4, 5]);
    handle.translate([1, 3]);
    expect(await askedBefore(handle)).toHaveLength(1);
  });

  it('splits a long batch into requests of at most 50 seqs', async () => {
    for (let i = 1; i <= 60; i++) server.append(bonjour, { push: false, lang: 'fr' });
    const { handle } = await translating();
    await handle.loadOlder();
    expect(handle.getSnapshot().messages).toHaveLength(60);
    handle.translate(Array.from({ length: 60 }, (_, i) => i + 1));
    await vi.waitFor(() => expect(handle.getSnapshot().translations.size).toBe(60));
    expect(server.translateBodies.map((body) => body.seqs.length).sort()).toEqual([10, 50]);
  });

  it('asks again for pending translations after a reconnect, since a frame may be lost', async () => {
    server.append(bonjour, { push: false, lang: 'fr' });
    const { engine, handle } = await translating();
    handle.translate([1]);
    await vi.waitFor(() => expect(status(handle, 1)).toBe('pending'));

    await goOffline(engine);
    server.finishTranslation(1, 'en', { push: false });
    server.up = true;
    await vi.waitFor(() => expect(status(handle, 1)).toBe('done'), { timeout: 3000 });
    expect(server.translateBodies).toHaveLength(2);
    expect(server.translateBodies[1]).toEqual({ conversationId: CONV, seqs: [1], lang: 'en' });
  });

  it('asks again after a reconnect for translations asked for while the network was down', async () => {
    server.translateMode = 'done';
    server.append(bonjour, { push: false, lang: 'fr' });
    const { engine, handle } = await translating();
    await goOffline(engine);
    const tried = server.requests.length;
    handle.translate([1]);
    // The request is tried and fails with the network; its failure is handled in the same
    // turn, so by the next look it has been taken for "ask again later", not a failure.
    await vi.waitFor(() =>
      expect(server.requests.slice(tried).some((request) => request === 'POST /translations')).toBe(
        true,
      ),
    );
    expect(handle.getSnapshot().translations.get(1)).toBeUndefined();
    server.up = true;
    await vi.waitFor(() => expect(status(handle, 1)).toBe('done'), { timeout: 3000 });
    expect(server.translateBodies.at(-1)).toEqual({ conversationId: CONV, seqs: [1], lang: 'en' });
  });

  it('keeps translations across a reload (a new engine on the same database)', async () => {
    server.translateMode = 'done';
    server.append(bonjour, { push: false, lang: 'fr' });
    let { engine, handle } = await translating();
    handle.translate([1]);
    await vi.waitFor(() => expect(status(handle, 1)).toBe('done'));

    engine = await restart(engine);
    server.up = false;
    await engine.start();
    engine.setMotherTongue('en');
    handle = engine.conversation(CONV);
    await vi.waitFor(() =>
      expect(handle.getSnapshot().translations.get(1)?.text).toBe('en: bonjour'),
    );
    expect(handle.getSnapshot().messages[0]?.lang).toBe('fr');
  });

  it('makes a failed translation again on request, showing it pending meanwhile', async () => {
    server.append(bonjour, { push: false, lang: 'fr' });
    const { handle } = await translating();
    handle.translate([1]);
    await vi.waitFor(() => expect(status(handle, 1)).toBe('pending'));
    server.finishTranslation(1, 'en', { error: 'TRANSLATION_QUOTA_EXCEEDED' });
    await vi.waitFor(() =>
      expect(handle.getSnapshot().translations.get(1)).toMatchObject({
        status: 'failed',
        error: 'TRANSLATION_QUOTA_EXCEEDED',
      }),
    );

    const retried = handle.retranslate(1);
    await vi.waitFor(() => expect(status(handle, 1)).toBe('pending'));
    await retried;
    expect(server.translateBodies.at(-1)).toEqual({
      conversationId: CONV,
      seqs: [1],
      lang: 'en',
      retry: true,
    });
    server.finishTranslation(1, 'en');
    await vi.waitFor(() => expect(status(handle, 1)).toBe('done'));
  });

  it('follows the conversation switch and target, and drops a revoked message’s translation', async () => {
    server.translateMode = 'done';
    server.append(bonjour, { push: false, lang: 'fr' });
    const { engine, handle } = await translating();
    handle.translate([1]);
    await vi.waitFor(() => expect(status(handle, 1)).toBe('done'));

    await engine.updateConversation(CONV, { translateTo: 'de' });
    await vi.waitFor(() => expect(handle.getSnapshot().translationTarget).toBe('de'));
    expect(handle.getSnapshot().translations.size).toBe(0);
    handle.translate([1]);
    await vi.waitFor(() => expect(handle.getSnapshot().translations.get(1)?.lang).toBe('de'));

    await engine.updateConversation(CONV, { translate: false });
    await vi.waitFor(() => expect(handle.getSnapshot().translations.size).toBe(0));
    handle.translate([1]);

    await engine.updateConversation(CONV, { translate: true });
    await vi.waitFor(() => expect(status(handle, 1)).toBe('done'));
    server.revoke(1);
    await vi.waitFor(() => expect(handle.getSnapshot().translations.size).toBe(0));
    // The English and the German one: nothing was asked for while translation was off.
    expect(await askedBefore(handle)).toHaveLength(2);
  });

  it('asks a server without a translation provider, which answers unavailable', async () => {
    server.translationInfo = { ...server.translationInfo, available: false };
    server.append(bonjour, { push: false, lang: 'fr' });
    const { engine, handle } = await translating();
    await vi.waitFor(() => expect(engine.getSnapshot().translation?.available).toBe(false));
    handle.translate([1]);
    await vi.waitFor(() => expect(status(handle, 1)).toBe('unavailable'));
    expect(server.translateBodies).toHaveLength(1);
    expect(
      server.requests.filter((path) => path.startsWith('GET /translations/info')),
    ).toHaveLength(1);
  });
});

describe('engine status and background failures', () => {
  it('says where it stands: starting, then up to date once synced', async () => {
    const engine = makeEngine();
    expect(engine.getSnapshot().status).toBe('starting');
    const finished = record(engine, 'syncFinish');
    await engine.start();
    await vi.waitFor(() => expect(finished.length).toBeGreaterThan(0));
    await vi.waitFor(() => expect(engine.getSnapshot().status).toBe('ready'));
    expect(engine.getSnapshot().errors).toEqual([]);
  });

  it('shows a failed sync with its code, and clears it when a retry gets through', async () => {
    server.failSync = true;
    const engine = makeEngine();
    const failed = record(engine, 'syncFailed');
    await engine.start();
    await vi.waitFor(() => expect(engine.getSnapshot().errors).toHaveLength(1));
    expect(failed.length).toBeGreaterThan(0);
    const [error] = engine.getSnapshot().errors;
    expect(error).toMatchObject({ kind: 'sync', code: 'INTERNAL' });
    server.failSync = false;
    error!.retry();
    await vi.waitFor(() => expect(engine.getSnapshot().errors).toEqual([]));
    expect(engine.getSnapshot().conversations.map(({ id }) => id)).toEqual([CONV]);
  });
});
