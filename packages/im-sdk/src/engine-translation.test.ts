import type { TranslateBody } from '@teltlk/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ImEngine } from './engine.js';
import { FakeWorld } from './fake-world.js';
import { CONV, ME, record } from './test-fixtures.js';
import type { ConversationHandle } from './types.js';

/** Translations in the engine, with the fake server translating on cue. */

let world: FakeWorld;

beforeEach(() => {
  world = new FakeWorld();
});

afterEach(async () => {
  await world.close();
});

describe('ImEngine translation', () => {
  const bonjour = { kind: 'text', text: 'bonjour' } as const;

  async function translating(): Promise<{ engine: ImEngine; handle: ConversationHandle }> {
    const engine = await world.started();
    engine.setMotherTongue('en');
    const handle = engine.conversation(CONV);
    const firstPage = Math.min(world.server.maxSeq, 50);
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
    const message = world.server.append(bonjour, { lang: 'fr' });
    await vi.waitFor(() =>
      expect(handle.getSnapshot().messages.some((row) => row.seq === message.seq)).toBe(true),
    );
    handle.translate([message.seq]);
    await vi.waitFor(() =>
      expect(world.server.translateBodies.at(-1)?.seqs).toEqual([message.seq]),
    );
    return world.server.translateBodies.slice(0, -1);
  }

  it('shows the translation a frame brings, and keeps the map between other changes', async () => {
    world.server.append(bonjour, { push: false, lang: 'fr' });
    const { engine, handle } = await translating();
    expect(handle.getSnapshot().translationTarget).toBe('en');
    await vi.waitFor(() => expect(engine.getSnapshot().translation?.available).toBe(true));
    handle.translate([1]);
    await vi.waitFor(() => expect(status(handle, 1)).toBe('pending'));
    const arrived = record(engine, 'translation');
    world.server.finishTranslation(1, 'en');
    await vi.waitFor(() =>
      expect(handle.getSnapshot().translations.get(1)).toMatchObject({
        status: 'done',
        text: 'en: bonjour',
        from: 'fr',
      }),
    );
    expect(arrived.map((translation) => translation.seq)).toEqual([1]);

    const translations = handle.getSnapshot().translations;
    world.server.append({ kind: 'text', text: 'ok' });
    await vi.waitFor(() => expect(handle.getSnapshot().messages).toHaveLength(2));
    expect(handle.getSnapshot().translations).toBe(translations);
  });

  it('asks once for all the seqs of a tick, only for what needs it, and never twice', async () => {
    world.server.append(bonjour, { push: false, lang: 'fr' });
    world.server.append({ kind: 'text', text: 'hello' }, { push: false, lang: 'en' });
    world.server.append({ kind: 'text', text: '你好' }, { push: false, lang: 'zh' });
    world.server.append({ kind: 'text', text: 'mine' }, { push: false, lang: 'fr', senderId: ME });
    world.server.append({ kind: 'text', text: '👍' }, { push: false });
    const { handle } = await translating();
    handle.translate([1]);
    handle.translate([2, 3]);
    handle.translate([4, 5, 1]);
    await vi.waitFor(() => expect(status(handle, 3)).toBe('pending'));
    expect(world.server.translateBodies).toEqual([
      { conversationId: CONV, seqs: [1, 3], lang: 'en' },
    ]);

    world.server.finishTranslation(1, 'en', { error: 'TRANSLATION_FAILED' });
    await vi.waitFor(() => expect(status(handle, 1)).toBe('failed'));
    // Done, pending, failed, and answered as needing none: nothing is asked again.
    handle.translate([1, 2, 3, 4, 5]);
    handle.translate([1, 3]);
    expect(await askedBefore(handle)).toHaveLength(1);
  });

  it('splits a long batch into requests of at most 50 seqs', async () => {
    for (let i = 1; i <= 60; i++) world.server.append(bonjour, { push: false, lang: 'fr' });
    const { handle } = await translating();
    await handle.loadOlder();
    expect(handle.getSnapshot().messages).toHaveLength(60);
    handle.translate(Array.from({ length: 60 }, (_, i) => i + 1));
    await vi.waitFor(() => expect(handle.getSnapshot().translations.size).toBe(60));
    expect(world.server.translateBodies.map((body) => body.seqs.length).sort()).toEqual([10, 50]);
  });

  it('asks again for pending translations after a reconnect, since a frame may be lost', async () => {
    world.server.append(bonjour, { push: false, lang: 'fr' });
    const { engine, handle } = await translating();
    handle.translate([1]);
    await vi.waitFor(() => expect(status(handle, 1)).toBe('pending'));

    await world.goOffline(engine);
    world.server.finishTranslation(1, 'en', { push: false });
    world.server.up = true;
    await vi.waitFor(() => expect(status(handle, 1)).toBe('done'), { timeout: 3000 });
    expect(world.server.translateBodies).toHaveLength(2);
    expect(world.server.translateBodies[1]).toEqual({
      conversationId: CONV,
      seqs: [1],
      lang: 'en',
    });
  });

  it('asks again after a reconnect for translations asked for while the network was down', async () => {
    world.server.translateMode = 'done';
    world.server.append(bonjour, { push: false, lang: 'fr' });
    const { engine, handle } = await translating();
    await world.goOffline(engine);
    const tried = world.server.requests.length;
    handle.translate([1]);
    // The request is tried and fails with the network; its failure is handled in the same
    // turn, so by the next look it has been taken for "ask again later", not a failure.
    await vi.waitFor(() =>
      expect(
        world.server.requests.slice(tried).some((request) => request === 'POST /translations'),
      ).toBe(true),
    );
    expect(handle.getSnapshot().translations.get(1)).toBeUndefined();
    world.server.up = true;
    await vi.waitFor(() => expect(status(handle, 1)).toBe('done'), { timeout: 3000 });
    expect(world.server.translateBodies.at(-1)).toEqual({
      conversationId: CONV,
      seqs: [1],
      lang: 'en',
    });
  });

  it('keeps translations across a reload (a new engine on the same database)', async () => {
    world.server.translateMode = 'done';
    world.server.append(bonjour, { push: false, lang: 'fr' });
    let { engine, handle } = await translating();
    handle.translate([1]);
    await vi.waitFor(() => expect(status(handle, 1)).toBe('done'));

    engine = await world.restart(engine);
    world.server.up = false;
    await engine.start();
    engine.setMotherTongue('en');
    handle = engine.conversation(CONV);
    await vi.waitFor(() =>
      expect(handle.getSnapshot().translations.get(1)?.text).toBe('en: bonjour'),
    );
    expect(handle.getSnapshot().messages[0]?.lang).toBe('fr');
  });

  it('makes a failed translation again on request, showing it pending meanwhile', async () => {
    world.server.append(bonjour, { push: false, lang: 'fr' });
    const { handle } = await translating();
    handle.translate([1]);
    await vi.waitFor(() => expect(status(handle, 1)).toBe('pending'));
    world.server.finishTranslation(1, 'en', { error: 'TRANSLATION_QUOTA_EXCEEDED' });
    await vi.waitFor(() =>
      expect(handle.getSnapshot().translations.get(1)).toMatchObject({
        status: 'failed',
        error: 'TRANSLATION_QUOTA_EXCEEDED',
      }),
    );

    const retried = handle.retranslate(1);
    await vi.waitFor(() => expect(status(handle, 1)).toBe('pending'));
    await retried;
    expect(world.server.translateBodies.at(-1)).toEqual({
      conversationId: CONV,
      seqs: [1],
      lang: 'en',
      retry: true,
    });
    world.server.finishTranslation(1, 'en');
    await vi.waitFor(() => expect(status(handle, 1)).toBe('done'));
  });

  it('follows the conversation switch and target, and drops a revoked message’s translation', async () => {
    world.server.translateMode = 'done';
    world.server.append(bonjour, { push: false, lang: 'fr' });
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
    world.server.revoke(1);
    await vi.waitFor(() => expect(handle.getSnapshot().translations.size).toBe(0));
    // The English and the German one: nothing was asked for while translation was off.
    expect(await askedBefore(handle)).toHaveLength(2);
  });

  it('asks a server without a translation provider, which answers unavailable', async () => {
    world.server.translationInfo = { ...world.server.translationInfo, available: false };
    world.server.append(bonjour, { push: false, lang: 'fr' });
    const { engine, handle } = await translating();
    await vi.waitFor(() => expect(engine.getSnapshot().translation?.available).toBe(false));
    handle.translate([1]);
    await vi.waitFor(() => expect(status(handle, 1)).toBe('unavailable'));
    expect(world.server.translateBodies).toHaveLength(1);
    expect(
      world.server.requests.filter((path) => path.startsWith('GET /translations/info')),
    ).toHaveLength(1);
  });
});
