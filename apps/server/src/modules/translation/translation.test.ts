import { singleConversationId, type Conversation, type Message } from '@teltlk/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { dialects, expectError, type RegisteredUser } from '../../test/harness.js';
import { FakeProvider } from '../../test/fake-provider.js';
import {
  isMessage,
  isTranslation,
  World,
  type TranslationFrame,
} from '../../test/translation-world.js';

describe.each(dialects)('translation on $dialect', ({ dialect }) => {
  const provider = new FakeProvider();
  let w: World;
  let en: RegisteredUser;
  let es: RegisteredUser;
  let chat: string;

  beforeAll(async () => {
    w = await World.open({ dialect, translationProviders: [provider] });
    en = await w.person('en');
    es = await w.person('es');
    await w.befriend(en, es);
    chat = singleConversationId(en.user.id, es.user.id);
  });
  afterAll(() => w.close());
  afterEach(async () => {
    provider.mode = 'translate';
    provider.release();
    await w.t.ctx.services.translations.drain();
    await w.closeSockets();
  });

  it('stores the detected source language with the message', async () => {
    const english = await w.send(en, chat, 'Good morning, shall we meet at the station today?');
    const spanish = await w.send(es, chat, 'Buenos días, ¿nos vemos hoy en la estación?');
    const emoji = await w.send(es, chat, '👍👍');
    expect([english.lang, spanish.lang, emoji.lang]).toEqual(['en', 'es', null]);
    const page = w.ok<{ messages: Message[] }>(
      await w.call(es, 'GET', `/conversations/${chat}/messages`),
    );
    expect(page.messages.map((message) => message.lang).slice(-3)).toEqual(['en', 'es', null]);
  });

  it('translates a message for its reader once, after delivering it, as its own frame', async () => {
    const reader = await w.connect(es);
    const calls = provider.callsTo('es');
    const sent = await w.send(en, chat, 'The weather is lovely today, my friend.');
    const delivered = await reader.next(isMessage);
    expect(delivered.message.seq).toBe(sent.seq);
    const { translation } = await reader.next(isTranslation);
    expect(translation).toMatchObject({
      messageId: sent.id,
      seq: sent.seq,
      lang: 'es',
      from: 'en',
      status: 'done',
      text: '[es] The weather is lovely today, my friend.',
    });
    // The frame came after the message frame.
    const order = reader.frames.filter(
      (frame) => frame.t === 'message' || frame.t === 'translation',
    );
    expect(order.slice(-2).map((frame) => frame.t)).toEqual(['message', 'translation']);
    // Asking again reads the stored one.
    const [stored] = await w.translate(es, chat, [sent.seq]);
    expect(stored).toMatchObject({ status: 'done', text: translation.text });
    expect(provider.callsTo('es')).toBe(calls + 1);
    // The sender reads their own language: nothing to translate for them.
    expect(await w.translate(en, chat, [sent.seq])).toEqual([]);
  });

  it('sends the translation frame only to readers of its language', async () => {
    const sender = await w.connect(en);
    const reader = await w.connect(es);
    await w.send(en, chat, 'Only the Spanish reader gets this translated.');
    await reader.next(isTranslation);
    await w.t.ctx.services.translations.drain();
    await w.send(en, chat, 'A second one, to be sure the first frame would have come by now.');
    await reader.next(isTranslation);
    expect(sender.frames.some(isTranslation)).toBe(false);
  });

  it('makes one provider call per (message, language) when twenty members read at once', async () => {
    const readers = await Promise.all(
      Array.from({ length: 20 }, (_, index) => w.person(['es', 'fr', 'de'][index % 3]!)),
    );
    const owner = await w.person('en');
    const group = await w.group(owner, readers);
    const before = provider.calls.length;
    const message = await w.send(owner, group, 'Welcome everyone, the meeting starts at noon.');
    // No one is online: nothing is made until someone reads.
    await w.t.ctx.services.translations.drain();
    expect(provider.calls.length).toBe(before);

    const answers = await Promise.all(
      readers.map((reader) => w.translate(reader, group, [message.seq])),
    );
    for (const answer of answers) {
      expect(answer).toHaveLength(1);
      expect(['pending', 'done']).toContain(answer[0]!.status);
    }
    await w.t.ctx.services.translations.drain();
    const made = provider.calls.slice(before);
    expect(made.map((call) => call.to).sort()).toEqual(['de', 'es', 'fr']);
    for (const [index, reader] of readers.entries()) {
      const lang = ['es', 'fr', 'de'][index % 3]!;
      expect(await w.settled(reader, message)).toMatchObject({
        status: 'done',
        lang,
        text: `[${lang}] Welcome everyone, the meeting starts at noon.`,
      });
    }
    expect(provider.calls.length).toBe(before + 3);
  });

  it('translates a group message eagerly into the languages of online members only', async () => {
    const online = await Promise.all(['es', 'es', 'fr'].map((lang) => w.person(lang)));
    const offline = await w.person('de');
    const switchedOff = await w.person('it');
    const owner = await w.person('en');
    const group = await w.group(owner, [...online, offline, switchedOff]);
    w.ok<Conversation>(
      await w.call(switchedOff, 'PATCH', `/conversations/${group}`, { translate: false }),
    );
    const sockets = await Promise.all([...online, switchedOff].map((user) => w.connect(user)));
    const before = provider.calls.length;
    const message = await w.send(owner, group, 'Please read the new notice before Friday.');
    const frames = await Promise.all(
      sockets.slice(0, 3).map((socket) => socket.next(isTranslation)),
    );
    expect(frames.map(({ translation }) => translation.lang)).toEqual(['es', 'es', 'fr']);
    await w.t.ctx.services.translations.drain();
    expect(
      provider.calls
        .slice(before)
        .map((call) => call.to)
        .sort(),
    ).toEqual(['es', 'fr']);
    // The member who switched translation off got the message and no translation.
    expect(
      sockets[3]!.frames.some((frame) => isMessage(frame) && frame.message.id === message.id),
    ).toBe(true);
    expect(sockets[3]!.frames.some(isTranslation)).toBe(false);
    // The offline member gets theirs when they read.
    const [pending] = await w.translate(offline, group, [message.seq]);
    expect(pending!.status).toBe('pending');
    expect(await w.settled(offline, message)).toMatchObject({ status: 'done', lang: 'de' });
  });

  it('keeps per-conversation choices: off, and another target language', async () => {
    const fr = await w.person('fr');
    const conversation = await w.chat(en, fr);
    const changed = w.ok<Conversation>(
      await w.call(fr, 'PATCH', `/conversations/${conversation}`, { translateTo: 'es' }),
    );
    expect(changed).toMatchObject({ translate: true, translateTo: 'es' });
    const message = await w.send(en, conversation, 'Could you send me the photos from the trip?');
    expect(await w.settled(fr, message)).toMatchObject({ lang: 'es', status: 'done' });
    // Asked into a language of the reader's choice.
    const [german] = await w.translate(fr, conversation, [message.seq], { lang: 'de' });
    expect(german).toMatchObject({ lang: 'de' });
    const off = w.ok<Conversation>(
      await w.call(fr, 'PATCH', `/conversations/${conversation}`, {
        translate: false,
        translateTo: null,
      }),
    );
    expect(off).toMatchObject({ translate: false, translateTo: null });
    const before = provider.calls.length;
    await w.send(en, conversation, 'This one is not translated for the reader at all.');
    await w.t.ctx.services.translations.drain();
    expect(provider.calls.length).toBe(before);
  });

  it('never delays delivery when the provider hangs', async () => {
    provider.mode = 'hang';
    const reader = await w.connect(es);
    const sender = await w.connect(en);
    const hanging = provider.inFlight;
    const ack = await sender.sendMessage(chat, 'Are you coming to dinner tonight at eight?');
    expect('seq' in ack).toBe(true);
    const delivered = await reader.next(isMessage);
    expect(delivered.message.content).toMatchObject({
      text: 'Are you coming to dinner tonight at eight?',
    });
    // The provider call is still under way: delivery did not wait for it.
    await vi.waitFor(() => expect(provider.inFlight).toBeGreaterThan(hanging));
    expect(reader.frames.some(isTranslation)).toBe(false);
    const [pending] = await w.translate(es, chat, [delivered.message.seq]);
    expect(pending!.status).toBe('pending');
  });

  it('reports a failed translation after delivery, and makes it again on retry on every device', async () => {
    provider.mode = 'fail';
    const reader = await w.connect(es);
    const otherDevice = await w.connect(es);
    const message = await w.send(en, chat, 'This sentence will fail the first time around.');
    await reader.next(isMessage);
    const { translation } = await reader.next(isTranslation);
    expect(translation).toMatchObject({
      status: 'failed',
      error: 'TRANSLATION_FAILED',
      text: null,
    });
    // Failed stays failed until someone asks again.
    expect((await w.translate(es, chat, [message.seq]))[0]!.status).toBe('failed');
    expect((await otherDevice.next(isTranslation)).translation.status).toBe('failed');
    provider.mode = 'translate';
    const [retried] = await w.translate(es, chat, [message.seq], { retry: true });
    expect(retried!.status).toBe('pending');
    // Each device of the reader hears that it is being made again, then how it went.
    for (const device of [reader, otherDevice]) {
      const frames = [
        (await device.next(isTranslation)).translation,
        (await device.next(isTranslation)).translation,
      ].sort((a, b) => a.at - b.at);
      expect(frames.map(({ status }) => status)).toEqual(['pending', 'done']);
      expect(frames[1]).toMatchObject({
        text: `[es] ${'This sentence will fail the first time around.'}`,
      });
    }
  });

  it('retries a provider that fails for a while, with backoff', async () => {
    provider.mode = 'flaky';
    provider.flakyFailures = 2;
    const before = provider.calls.length;
    const message = await w.send(en, chat, 'The engine is busy for a moment, then answers.');
    expect(await w.settled(es, message)).toMatchObject({ status: 'done' });
    expect(provider.calls.length - before).toBe(3);
  });

  it('retranslates on request, replacing the stored text', async () => {
    const message = await w.send(en, chat, 'Retranslate this sentence for me, please.');
    await w.settled(es, message);
    const before = provider.calls.length;
    await w.translate(es, chat, [message.seq], { retry: true });
    expect(await w.settled(es, message)).toMatchObject({ status: 'done' });
    expect(provider.calls.length).toBe(before + 1);
  });

  it('drops the translations of a revoked message', async () => {
    const message = await w.send(en, chat, 'I did not mean to send this message to you.');
    await w.settled(es, message);
    const revoked = await w.call(
      en,
      'POST',
      `/conversations/${chat}/messages/${message.seq}/revoke`,
    );
    expect(revoked.statusCode, revoked.body).toBe(200);
    await vi.waitFor(async () => {
      const rows = await w.t.ctx.db
        .selectFrom('translations')
        .select('message_id')
        .where('message_id', '=', message.id)
        .execute();
      expect(rows).toEqual([]);
    });
    expect(await w.translate(es, chat, [message.seq])).toEqual([]);
  });

  it('translates an edited text again from its new words, in a single chat and a group', async () => {
    const reader = await w.connect(es);
    const message = await w.send(en, chat, 'See you at the station at seven tonight.');
    expect((await reader.next(isTranslation)).translation.text).toBe(
      '[es] See you at the station at seven tonight.',
    );
    const edited = await w.call(en, 'POST', `/conversations/${chat}/messages/${message.seq}/edit`, {
      text: 'See you at the harbour at eight tonight.',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const again = await reader.next(
      (frame): frame is TranslationFrame =>
        isTranslation(frame) &&
        frame.translation.text !== '[es] See you at the station at seven tonight.',
    );
    expect(again.translation).toMatchObject({
      messageId: message.id,
      seq: message.seq,
      status: 'done',
      text: '[es] See you at the harbour at eight tonight.',
    });
    expect(await w.settled(es, message)).toMatchObject({
      text: '[es] See you at the harbour at eight tonight.',
    });

    const fr = await w.person('fr');
    const offline = await w.person('de');
    const group = await w.group(en, [fr, offline]);
    const member = await w.connect(fr);
    const said = await w.send(en, group, 'The meeting moves to Thursday morning.');
    await member.next(isTranslation);
    await w.t.ctx.services.translations.drain();
    const calls = provider.callsTo('fr');
    w.ok<Message>(
      await w.call(en, 'POST', `/conversations/${group}/messages/${said.seq}/edit`, {
        text: 'The meeting moves to Friday morning.',
      }),
    );
    const redone = await member.next(
      (frame): frame is TranslationFrame =>
        isTranslation(frame) &&
        frame.translation.text === '[fr] The meeting moves to Friday morning.',
    );
    expect(redone.translation.seq).toBe(said.seq);
    await w.t.ctx.services.translations.drain();
    expect(provider.callsTo('fr')).toBe(calls + 1);
    // The offline member asks on reading, and gets the new words.
    await w.translate(offline, group, [said.seq]);
    expect(await w.settled(offline, said)).toMatchObject({
      text: '[de] The meeting moves to Friday morning.',
    });
  });

  it('refuses strangers, bad requests, and answers for the right conversation only', async () => {
    const stranger = await w.person('es');
    expectError(
      await w.call(stranger, 'POST', '/translations', { conversationId: chat, seqs: [1] }),
      'CONVERSATION_NOT_FOUND',
    );
    expectError(
      await w.call(es, 'POST', '/translations', { conversationId: chat, seqs: [] }),
      'VALIDATION_FAILED',
    );
    expectError(
      await w.call(es, 'POST', '/translations', { conversationId: chat, seqs: [1], lang: 'xx' }),
      'VALIDATION_FAILED',
    );
    expectError(
      await w.call(es, 'POST', '/translations/preview', { text: '   ', to: 'en' }),
      'VALIDATION_FAILED',
    );
  });

  it('previews a draft in the other language without storing it', async () => {
    const preview = w.ok<{ from: string; to: string; text: string }>(
      await w.call(en, 'POST', '/translations/preview', {
        text: 'See you tomorrow at the usual place!',
        to: 'es',
      }),
    );
    expect(preview).toEqual({
      from: 'en',
      to: 'es',
      text: '[es] See you tomorrow at the usual place!',
    });
    // Already in that language: the text as it is, with no provider call.
    const before = provider.calls.length;
    const same = w.ok<{ text: string }>(
      await w.call(en, 'POST', '/translations/preview', {
        text: 'This is already in English, my friend.',
        to: 'en',
      }),
    );
    expect(same.text).toBe('This is already in English, my friend.');
    expect(provider.calls.length).toBe(before);
  });
});
