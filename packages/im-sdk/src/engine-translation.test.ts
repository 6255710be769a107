import type { TranslateBody } from '@teltlk/protocol';
import { FakeProvider } from '@teltlk/server/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ImEngine } from './engine.js';
import { record } from './test-fixtures.js';
import { ServerWorld, startServer, until, type LiveServer } from './test-server.js';
import type { ConversationHandle } from './types.js';

/**
 * Translations in the engine against the real server, whose provider is a stand-in: it
 * makes `[<lang>] <text>`, or holds a call (the server shows it pending) until the test
 * lets it go, made or failed. `peer` writes French; `me` reads English.
 *
 * The server translates a new message for its reader before anyone asks. Its provider
 * holds calls unless a test says otherwise, so those translations stay pending and
 * unannounced, and the engine asks for them as it would for any other.
 */

let provider: FakeProvider;
let server: LiveServer;
let world: ServerWorld;

/** A server of its own for each test: what its provider made or holds stays there. */
async function open(providers: FakeProvider[]): Promise<void> {
  server = await startServer({ translationProviders: providers });
  world = await ServerWorld.open(server, { peerTongue: 'fr' });
}

beforeEach(() => {
  provider = new FakeProvider();
  provider.mode = 'hang';
});

afterEach(async () => {
  await world.close();
  // The held calls are let go, so that the server closes with nothing under way.
  provider.mode = 'translate';
  provider.release();
  await server.t.ctx.services.translations.drain();
  await server.t.close();
});

const bonjour = { kind: 'text', text: 'bonjour' } as const;

async function translating(): Promise<{ engine: ImEngine; handle: ConversationHandle }> {
  const engine = await world.started();
  engine.setMotherTongue('en');
  const handle = engine.conversation(world.conversationId);
  const firstPage = Math.min((await world.messages()).length, 50);
  await until(() => expect(handle.getSnapshot().messages).toHaveLength(firstPage));
  return { engine, handle };
}

const status = (handle: ConversationHandle, seq: number) =>
  handle.getSnapshot().translations.get(seq)?.status;

/** What the engine asks for `seqs` into English. */
const asked = (seqs: number[]): TranslateBody => ({
  conversationId: world.conversationId,
  seqs,
  lang: 'en',
});

/**
 * The provider's held call for `text` is tried again and answered as `mode` (made, or
 * failed for good); once `settled` holds, calls are held again.
 */
async function answer(text: string, mode: 'translate' | 'fail', settled: () => void) {
  provider.mode = mode;
  provider.release(text);
  try {
    await until(settled);
  } finally {
    provider.mode = 'hang';
  }
}

/**
 * The translation requests made before a new message's: requests leave in the order
 * they are asked for, so any that earlier asks were going to make have arrived by then.
 */
async function askedBefore(handle: ConversationHandle): Promise<TranslateBody[]> {
  // Held, the server's own translation of it stays unannounced: the engine asks for it.
  provider.mode = 'hang';
  const message = await world.send({ kind: 'text', text: 'à bientôt' });
  await until(() =>
    expect(handle.getSnapshot().messages.some((row) => row.seq === message.seq)).toBe(true),
  );
  handle.translate([message.seq]);
  await until(() => expect(world.network.translateBodies.at(-1)?.seqs).toEqual([message.seq]));
  return world.network.translateBodies.slice(0, -1);
}

describe('ImEngine translation', { timeout: 30_000 }, () => {
  beforeEach(() => open([provider]), 60_000);

  it('shows the translation a frame brings, and keeps the map between other changes', async () => {
    await world.send(bonjour);
    const { engine, handle } = await translating();
    expect(handle.getSnapshot().translationTarget).toBe('en');
    await until(() => expect(engine.getSnapshot().translation?.available).toBe(true));
    handle.translate([1]);
    await until(() => expect(status(handle, 1)).toBe('pending'));
    const arrived = record(engine, 'translation');
    await answer('bonjour', 'translate', () =>
      expect(handle.getSnapshot().translations.get(1)).toMatchObject({
        status: 'done',
        text: '[en] bonjour',
        from: 'fr',
      }),
    );
    expect(arrived.map((translation) => translation.seq)).toEqual([1]);

    const translations = handle.getSnapshot().translations;
    await world.send({ kind: 'text', text: 'ok' });
    await until(() => expect(handle.getSnapshot().messages).toHaveLength(2));
    expect(handle.getSnapshot().translations).toBe(translations);
  });

  it('asks once for all the seqs of a tick, only for what needs it, and never twice', async () => {
    const sent = [
      await world.send(bonjour),
      await world.send({ kind: 'text', text: 'Hello there, how was your trip to the mountains?' }),
      await world.send({ kind: 'text', text: '我们明天下午在图书馆见面吧' }),
      await world.send(
        { kind: 'text', text: 'Je suis désolée, je serai en retard ce soir' },
        world.me,
      ),
      await world.send({ kind: 'text', text: '👍' }),
    ];
    // As the server took them: French, English, Chinese, our own, and no words at all.
    expect(sent.map((message) => message.lang)).toEqual(['fr', 'en', 'zh', 'fr', null]);
    const { handle } = await translating();
    handle.translate([1]);
    handle.translate([2, 3]);
    handle.translate([4, 5, 1]);
    await until(() => expect(status(handle, 3)).toBe('pending'));
    expect(world.network.translateBodies).toEqual([asked([1, 3])]);

    await answer('bonjour', 'fail', () => expect(status(handle, 1)).toBe('failed'));
    // Failed, pending, and answered as needing none: nothing is asked again.
    handle.translate([1, 2, 3, 4, 5]);
    handle.translate([1, 3]);
    expect(await askedBefore(handle)).toHaveLength(1);
  });

  it('splits a long batch into requests of at most 50 seqs', async () => {
    for (let i = 1; i <= 60; i++) await world.send(bonjour);
    const { handle } = await translating();
    await handle.loadOlder();
    expect(handle.getSnapshot().messages).toHaveLength(60);
    handle.translate(Array.from({ length: 60 }, (_, i) => i + 1));
    await until(() => expect(handle.getSnapshot().translations.size).toBe(60));
    expect(world.network.translateBodies.map((body) => body.seqs.length).sort()).toEqual([10, 50]);
  });

  it('asks again for pending translations after a reconnect, since a frame may be lost', async () => {
    await world.send(bonjour);
    const { engine, handle } = await translating();
    handle.translate([1]);
    await until(() => expect(status(handle, 1)).toBe('pending'));

    // Made while the device is away: its frame reaches no one.
    await world.goOffline(engine);
    provider.mode = 'translate';
    provider.release('bonjour');
    await server.t.ctx.services.translations.drain();
    world.network.up = true;
    await until(() => expect(status(handle, 1)).toBe('done'));
    expect(world.network.translateBodies).toEqual([asked([1]), asked([1])]);
  });

  it('asks again after a reconnect for translations asked for while the network was down', async () => {
    provider.mode = 'translate';
    await world.send(bonjour);
    // The server's own translation is made before the engine is there to hear of it.
    await server.t.ctx.services.translations.drain();
    const { engine, handle } = await translating();
    await world.goOffline(engine);
    const tried = world.requests.length;
    handle.translate([1]);
    // The request is tried and fails with the network; its failure is handled in the same
    // turn, so by the next look it has been taken for "ask again later", not a failure.
    await until(() =>
      expect(world.requests.slice(tried).some((request) => request === 'POST /translations')).toBe(
        true,
      ),
    );
    expect(handle.getSnapshot().translations.get(1)).toBeUndefined();
    world.network.up = true;
    await until(() => expect(status(handle, 1)).toBe('done'));
    expect(world.network.translateBodies.at(-1)).toEqual(asked([1]));
  });

  it('keeps translations across a reload (a new engine on the same database)', async () => {
    provider.mode = 'translate';
    await world.send(bonjour);
    let { engine, handle } = await translating();
    handle.translate([1]);
    await until(() => expect(status(handle, 1)).toBe('done'));

    engine = await world.restart(engine);
    world.network.down();
    await engine.start();
    engine.setMotherTongue('en');
    handle = engine.conversation(world.conversationId);
    await until(() => expect(handle.getSnapshot().translations.get(1)?.text).toBe('[en] bonjour'));
    expect(handle.getSnapshot().messages[0]?.lang).toBe('fr');
  });

  it('makes a failed translation again on request, showing it pending meanwhile', async () => {
    await world.send(bonjour);
    const { handle } = await translating();
    handle.translate([1]);
    await until(() => expect(status(handle, 1)).toBe('pending'));
    await answer('bonjour', 'fail', () =>
      expect(handle.getSnapshot().translations.get(1)).toMatchObject({
        status: 'failed',
        error: 'TRANSLATION_FAILED',
      }),
    );

    const retried = handle.retranslate(1);
    await until(() => expect(status(handle, 1)).toBe('pending'));
    await retried;
    expect(world.network.translateBodies.at(-1)).toEqual({ ...asked([1]), retry: true });
    await answer('bonjour', 'translate', () => expect(status(handle, 1)).toBe('done'));
  });

  it('asks once a session again for a stored failure: another device’s retry shows here too', async () => {
    await world.send(bonjour);
    const { engine, handle } = await translating();
    handle.translate([1]);
    await until(() => expect(status(handle, 1)).toBe('pending'));
    await answer('bonjour', 'fail', () => expect(status(handle, 1)).toBe('failed'));
    // Shown again in the same session: the failure stands, nothing is asked.
    handle.translate([1]);
    expect(await askedBefore(handle)).toEqual([asked([1])]);

    // While this device is closed, another of the same person retries, and it is made.
    const reloaded = await world.restart(engine);
    provider.mode = 'translate';
    provider.release();
    await world.call(
      'POST',
      '/translations',
      { conversationId: world.conversationId, seqs: [1], lang: 'en', retry: true },
      world.me,
    );
    await server.t.ctx.services.translations.drain();
    provider.mode = 'hang';
    await reloaded.start();
    reloaded.setMotherTongue('en');
    const again = reloaded.conversation(world.conversationId);
    await until(() => expect(status(again, 1)).toBe('failed'));
    again.translate([1]);
    await until(() =>
      expect(again.getSnapshot().translations.get(1)).toMatchObject({
        status: 'done',
        text: '[en] bonjour',
      }),
    );
  });

  it('shows a translation the server refused to make as failed, not pending, until a retry', async () => {
    await world.send(bonjour);
    const { handle } = await translating();
    world.network.translateRefusal = { status: 429, code: 'RATE_LIMITED' };
    handle.translate([1]);
    await until(() =>
      expect(handle.getSnapshot().translations.get(1)).toMatchObject({
        seq: 1,
        lang: 'en',
        from: 'fr',
        status: 'failed',
        text: null,
        error: 'RATE_LIMITED',
      }),
    );
    world.network.translateRefusal = null;
    // Shown again, it is not asked for by itself: only on a retry.
    handle.translate([1]);
    expect(await askedBefore(handle)).toEqual([]);
    const retried = handle.retranslate(1);
    await until(() => expect(status(handle, 1)).not.toBe('failed'));
    await retried;
    expect(world.network.translateBodies.at(-1)).toEqual({ ...asked([1]), retry: true });
    await answer('bonjour', 'translate', () => expect(status(handle, 1)).toBe('done'));
  });

  it('follows the conversation switch and target, and drops a revoked message’s translation', async () => {
    const id = world.conversationId;
    provider.mode = 'translate';
    await world.send(bonjour);
    const { engine, handle } = await translating();
    handle.translate([1]);
    await until(() => expect(status(handle, 1)).toBe('done'));

    await engine.updateConversation(id, { translateTo: 'de' });
    await until(() => expect(handle.getSnapshot().translationTarget).toBe('de'));
    expect(handle.getSnapshot().translations.size).toBe(0);
    handle.translate([1]);
    await until(() =>
      expect(handle.getSnapshot().translations.get(1)).toMatchObject({
        lang: 'de',
        status: 'done',
      }),
    );

    await engine.updateConversation(id, { translate: false });
    await until(() => expect(handle.getSnapshot().translations.size).toBe(0));
    handle.translate([1]);

    await engine.updateConversation(id, { translate: true });
    await until(() => expect(status(handle, 1)).toBe('done'));
    await world.call('POST', `/conversations/${id}/messages/1/revoke`);
    await until(() => expect(handle.getSnapshot().translations.size).toBe(0));
    // The English and the German one: nothing was asked for while translation was off.
    expect(await askedBefore(handle)).toHaveLength(2);
  });
});

describe('ImEngine translation without a provider', { timeout: 30_000 }, () => {
  beforeEach(() => open([]), 60_000);

  it('asks a server without a translation provider, which answers unavailable', async () => {
    await world.send(bonjour);
    const { engine, handle } = await translating();
    await until(() => expect(engine.getSnapshot().translation?.available).toBe(false));
    handle.translate([1]);
    await until(() => expect(status(handle, 1)).toBe('unavailable'));
    expect(world.network.translateBodies).toHaveLength(1);
    expect(world.requests.filter((path) => path.startsWith('GET /translations/info'))).toHaveLength(
      1,
    );
  });
});
