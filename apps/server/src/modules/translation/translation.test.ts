import {
  singleConversationId,
  type Conversation,
  type Message,
  type MyGroup,
  type ServerFrame,
  type TranslateResult,
  type Translation,
} from '@teltlk/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { socketUrl, TestSocket } from '../../test/test-client.js';
import {
  createTestApp,
  dialects,
  expectError,
  type RegisteredUser,
  type TestApp,
  type TestAppOptions,
} from '../../test/harness.js';
import { LanguageDetector } from './detect.js';
import { FakeProvider } from '../../test/fake-provider.js';
import { openAiProvider } from './providers/openai.js';
import { COPY_OTHERS, honest, obedientModel, promptTexts, RUN_ON } from '../../test/test-model.js';
import { startTestServer, type TestServer } from '../../test/test-server.js';

type TranslationFrame = Extract<ServerFrame, { t: 'translation' }>;
const isTranslation = (frame: ServerFrame): frame is TranslationFrame => frame.t === 'translation';
const isMessage = (frame: ServerFrame): frame is Extract<ServerFrame, { t: 'message' }> =>
  frame.t === 'message';

/** A test app with sockets on a loopback port, people, friendships, groups. */
class World {
  url = '';
  private readonly sockets: TestSocket[] = [];
  private counter = 0;

  private constructor(readonly t: TestApp) {}

  static async open(options: TestAppOptions): Promise<World> {
    const t = await createTestApp({
      ...options,
      translationRunner: { backoffMs: 5, batchWindowMs: 5, ...options.translationRunner },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const world = new World(t);
    world.url = socketUrl(t.app.server.address());
    return world;
  }

  person(motherTongue: string): Promise<RegisteredUser> {
    return this.t.register({ motherTongue, nickname: `P${motherTongue}` });
  }

  async befriend(a: RegisteredUser, b: RegisteredUser): Promise<void> {
    const { contacts } = this.t.ctx.services;
    const request = await contacts.sendRequest(
      { userId: a.user.id, sessionId: 'test' },
      { userId: b.user.id },
    );
    await contacts.acceptRequest({ userId: b.user.id, sessionId: 'test' }, request.id);
  }

  /** Friends with a conversation begun (a wave, which has nothing to translate). */
  async chat(a: RegisteredUser, b: RegisteredUser): Promise<string> {
    await this.befriend(a, b);
    const conversation = singleConversationId(a.user.id, b.user.id);
    await this.send(a, conversation, '👋');
    return conversation;
  }

  async group(owner: RegisteredUser, members: readonly RegisteredUser[]): Promise<string> {
    for (const member of members) await this.befriend(owner, member);
    const group = this.ok<MyGroup>(
      await this.call(owner, 'POST', '/groups', { memberIds: members.map((m) => m.user.id) }),
    );
    return `sg_${group.id}`;
  }

  async connect(user: RegisteredUser): Promise<TestSocket> {
    const socket = await TestSocket.connect(this.url, user.token);
    this.sockets.push(socket);
    return socket;
  }

  call(user: RegisteredUser, method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) {
    return this.t.call(method, `/api/v1${url}`, { token: user.token, body });
  }

  ok<T>(response: Awaited<ReturnType<World['call']>>): T {
    expect(response.statusCode, response.body).toBe(200);
    return response.json<T>();
  }

  async send(from: RegisteredUser, conversationId: string, text: string): Promise<Message> {
    this.counter += 1;
    return this.ok<Message>(
      await this.call(from, 'POST', '/messages', {
        conversationId,
        clientMsgId: `tr-${Date.now().toString(36)}-${this.counter}`,
        content: { kind: 'text', text },
      }),
    );
  }

  async translate(
    user: RegisteredUser,
    conversationId: string,
    seqs: number[],
    extra: object = {},
  ): Promise<Translation[]> {
    return this.ok<TranslateResult>(
      await this.call(user, 'POST', '/translations', { conversationId, seqs, ...extra }),
    ).translations;
  }

  /** Waits for the provider work under way, then reads the stored translation. */
  async settled(user: RegisteredUser, message: Message): Promise<Translation | undefined> {
    await this.t.ctx.services.translations.drain();
    const [translation] = await this.translate(user, message.conversationId, [message.seq]);
    return translation;
  }

  async closeSockets(): Promise<void> {
    await Promise.all(this.sockets.splice(0).map((socket) => socket.close()));
  }

  async close(): Promise<void> {
    await this.closeSockets();
    await this.t.close();
  }
}

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

  it('reports a failed translation after delivery, and makes it again on retry', async () => {
    provider.mode = 'fail';
    const reader = await w.connect(es);
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
    provider.mode = 'translate';
    const [retried] = await w.translate(es, chat, [message.seq], { retry: true });
    expect(retried!.status).toBe('pending');
    const { translation: done } = await reader.next(isTranslation);
    expect(done).toMatchObject({
      status: 'done',
      text: `[es] ${'This sentence will fail the first time around.'}`,
    });
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

describe('translation batching', () => {
  it('batches short texts of the same language pair into one call', async () => {
    const batching = new FakeProvider(8);
    const b = await World.open({ translationProviders: [batching] });
    try {
      const [x, y] = [await b.person('en'), await b.person('es')];
      const conversation = await b.chat(x, y);
      // Y turns translation off first, so nothing is made eagerly.
      await b.call(y, 'PATCH', `/conversations/${conversation}`, { translate: false });
      const sent: Message[] = [];
      for (const text of [
        'See you soon',
        'Thank you very much',
        'Where are you now?',
        'Good night',
      ]) {
        sent.push(await b.send(x, conversation, text));
      }
      await b.t.ctx.services.translations.drain();
      expect(batching.calls).toHaveLength(0);
      await b.translate(
        y,
        conversation,
        sent.map((message) => message.seq),
        { lang: 'es' },
      );
      await b.t.ctx.services.translations.drain();
      expect(batching.calls).toHaveLength(1);
      expect(batching.calls[0]!.texts).toHaveLength(4);
    } finally {
      await b.close();
    }
  });
});

describe('translation by a language model', () => {
  let server: TestServer;
  let w: World;
  beforeAll(async () => {
    server = await startTestServer();
    server.handle(obedientModel());
    const model = openAiProvider({ url: `${server.url}/v1`, apiKey: null, model: 'obedient' });
    // A wide window: texts asked for by two requests at once surely fall in one.
    w = await World.open({
      translationProviders: [model],
      translationRunner: { batchWindowMs: 500 },
    });
  });
  afterAll(async () => {
    await w.close();
    await server.close();
  });

  it('never mixes conversations or drafts in one prompt, and stores no answer far longer than its text', async () => {
    const reader = await w.person('es');
    const [alice, bob] = [await w.person('en'), await w.person('en')];
    const north = await w.chat(alice, reader);
    const south = await w.chat(bob, reader);
    const texts = {
      north: [
        // Long enough that a copy of it makes the copier's answer far longer than its text.
        'Alice here: the door code is 4711 and the alarm code is 9034, please do not share them with anyone at all.',
        COPY_OTHERS,
        RUN_ON,
      ],
      south: ['Bob here: my new phone number is +34 600 123 456, call me tonight.', 'Good night.'],
    };
    const sent: Record<'north' | 'south', Message[]> = { north: [], south: [] };
    for (const [side, conversation, sender] of [
      ['north', north, alice],
      ['south', south, bob],
    ] as const) {
      // Nothing eager: the reader asks for both conversations at once below.
      await w.call(reader, 'PATCH', `/conversations/${conversation}`, { translate: false });
      for (const text of texts[side]) sent[side].push(await w.send(sender, conversation, text));
    }
    const seqs = (side: 'north' | 'south') => sent[side].map((message) => message.seq);
    // Bob's draft, previewed meanwhile, is his alone too.
    const draft = 'Draft: my card PIN is 2468, do not send this one yet.';
    const [, , preview] = await Promise.all([
      w.translate(reader, north, seqs('north'), { lang: 'es' }),
      w.translate(reader, south, seqs('south'), { lang: 'es' }),
      w.call(bob, 'POST', '/translations/preview', { text: draft, to: 'es' }),
    ]);
    expect(w.ok<{ text: string }>(preview).text).toBe(honest(draft, 'es'));
    await w.t.ctx.services.translations.drain();

    const origin = (text: string) =>
      texts.north.includes(text) ? 'north' : texts.south.includes(text) ? 'south' : text;
    const prompts = server.requests.map(promptTexts);
    for (const prompt of prompts) expect(new Set(prompt.map(origin)).size).toBe(1);
    // Each conversation's texts did share a call.
    expect(prompts).toContainEqual(texts.north);
    expect(prompts).toContainEqual(texts.south);
    expect(prompts).toContainEqual([draft]);

    const stored = async (side: 'north' | 'south', conversation: string) =>
      w.translate(reader, conversation, seqs(side), { lang: 'es' });
    const [alicesText, copier, runOn] = await stored('north', north);
    expect(alicesText).toMatchObject({ status: 'done', text: honest(texts.north[0]!, 'es') });
    // The copying text's answer in the batch ran long; asked alone, it had nothing to copy.
    expect(copier).toMatchObject({ status: 'done', text: honest(COPY_OTHERS, 'es') });
    // The run-on text ran long alone too: failed, a reader may ask again, nothing stored.
    expect(runOn).toMatchObject({ status: 'failed', error: 'TRANSLATION_FAILED', text: null });
    expect(
      (await stored('south', south)).map((translation) => [translation.status, translation.text]),
    ).toEqual(texts.south.map((text) => ['done', honest(text, 'es')]));
  });

  it("never puts two senders' texts in one prompt, so a crafted text has only its sender's to copy", async () => {
    const [alice, bea] = [await w.person('en'), await w.person('es')];
    const chat = await w.chat(alice, bea);
    for (const person of [alice, bea])
      await w.call(person, 'PATCH', `/conversations/${chat}`, { translate: false });
    const texts = [
      'Alice here: the vault code is 1234, please keep it to yourself.',
      'Bea aquí: mañana llego a las nueve a la estación.',
      COPY_OTHERS,
    ];
    const senders = [alice, bea, bea];
    const sent: Message[] = [];
    for (const [index, text] of texts.entries())
      sent.push(await w.send(senders[index]!, chat, text));
    const before = server.requests.length;
    // Each reads the other's texts: both asked for in the same moment.
    await Promise.all([
      w.translate(alice, chat, [sent[1]!.seq, sent[2]!.seq], { lang: 'de' }),
      w.translate(bea, chat, [sent[0]!.seq], { lang: 'de' }),
    ]);
    await w.t.ctx.services.translations.drain();
    const prompts = server.requests.slice(before).map(promptTexts);
    expect(prompts.length).toBeGreaterThan(0);
    for (const prompt of prompts)
      expect(prompt.includes(texts[0]!) && prompt.length > 1).toBe(false);
    // Alice's text went alone; Bea's copying text, in the same language, could not reach it.
    expect(prompts).toContainEqual([texts[0]]);
  });
});

describe('translation limits', () => {
  const provider = new FakeProvider();
  let w: World;
  beforeAll(async () => {
    w = await World.open({
      translationProviders: [provider],
      env: { TRANSLATE_DAILY_CHARACTERS: '60' },
    });
  });
  afterAll(() => w.close());

  it("stops at the user's daily quota, and starts again the next day", async () => {
    const [en, es] = [await w.person('en'), await w.person('es')];
    const chat = await w.chat(en, es);
    await w.call(es, 'PATCH', `/conversations/${chat}`, { translate: false });
    const first = await w.send(en, chat, 'A sentence of about forty characters.');
    const second = await w.send(en, chat, 'Another one, also about forty long.');
    await w.translate(es, chat, [first.seq], { lang: 'es' });
    const [refused] = await w.translate(es, chat, [second.seq], { lang: 'es' });
    expect(refused).toMatchObject({ status: 'failed', error: 'TRANSLATION_QUOTA_EXCEEDED' });
    expectError(
      await w.call(es, 'POST', '/translations/preview', {
        text: 'Hola, ¿qué tal? ¿Nos vemos mañana?',
        to: 'en',
      }),
      'TRANSLATION_QUOTA_EXCEEDED',
    );
    w.t.clock.advance(24 * 60 * 60 * 1000);
    const [accepted] = await w.translate(es, chat, [second.seq], { lang: 'es' });
    expect(accepted!.status).toBe('pending');
  });

  it("sends without a guess when the detector fails: the text is taken to be in the sender's tongue", async () => {
    const broken = await World.open({
      translationProviders: [provider],
      detector: new LanguageDetector('file:///nonexistent/detector.js'),
    });
    try {
      const [a, b] = [await broken.person('de'), await broken.person('es')];
      const chat = await broken.chat(a, b);
      const message = await broken.send(a, chat, 'Guten Morgen, wie geht es dir heute?');
      expect(message.lang).toBe('de');
    } finally {
      await broken.close();
    }
  });

  it('without a provider, converts Chinese scripts and answers other pairs unavailable', async () => {
    const none = await World.open({ translationProviders: [] });
    try {
      const [a, b] = [await none.person('en'), await none.person('es')];
      await none.befriend(a, b);
      const chat = singleConversationId(a.user.id, b.user.id);
      const { messages } = none.t.ctx.services;
      const readersAmong = vi.spyOn(messages, 'readersAmong');
      const message = await none.send(a, chat, 'Nobody translates this one.');
      await none.t.ctx.services.translations.drain();
      // Nobody's language is read for a text no one can translate.
      expect(readersAmong).not.toHaveBeenCalled();
      readersAmong.mockRestore();
      expect(
        none.ok<{ available: boolean }>(await none.call(b, 'GET', '/translations/info')).available,
      ).toBe(false);
      const [unavailable] = await none.translate(b, chat, [message.seq]);
      expect(unavailable).toMatchObject({
        messageId: message.id,
        lang: 'es',
        from: 'en',
        status: 'unavailable',
        error: 'TRANSLATION_UNAVAILABLE',
      });
      await none.t.ctx.services.translations.drain();
      // Nothing was claimed or stored for a pair nobody can make.
      const rows = await none.t.ctx.db.selectFrom('translations').selectAll().execute();
      expect(rows).toEqual([]);
      expectError(
        await none.call(a, 'POST', '/translations/preview', { text: 'Hello there', to: 'es' }),
        'TRANSLATION_UNAVAILABLE',
      );

      const [simplified, traditional] = [await none.person('zh'), await none.person('zh-Hant')];
      const chinese = await none.chat(simplified, traditional);
      const sent = await none.send(simplified, chinese, '我的鼠标和软件都坏了');
      expect(await none.settled(traditional, sent)).toMatchObject({
        status: 'done',
        text: '我的滑鼠和軟體都壞了',
      });
      const preview = none.ok<{ text: string }>(
        await none.call(traditional, 'POST', '/translations/preview', {
          text: '我的滑鼠和軟體都壞了',
          to: 'zh',
        }),
      );
      expect(preview.text).toBe('我的鼠标和软件都坏了');
    } finally {
      await none.close();
    }
  });
});

describe.each(dialects)('Chinese readers and senders on $dialect', ({ dialect }) => {
  // Every pair but into Japanese, which no engine here has.
  const provider = new FakeProvider(1, (from, to) => from !== to && to !== 'ja');
  let w: World;
  let simplified: RegisteredUser;
  let traditional: RegisteredUser;
  let chat: string;

  beforeAll(async () => {
    w = await World.open({ dialect, translationProviders: [provider] });
    simplified = await w.person('zh');
    traditional = await w.person('zh-Hant');
    chat = await w.chat(simplified, traditional);
  });
  afterAll(() => w.close());
  afterEach(async () => {
    await w.t.ctx.services.translations.drain();
    await w.closeSockets();
  });

  /** Provider characters the user caused today. */
  const usage = (user: RegisteredUser) =>
    w.t.ctx.services.translations['deps'].repo.usage(
      user.user.id,
      new Date(w.t.clock.now()).toISOString().slice(0, 10),
    );

  it('names a message by the script its characters are in', async () => {
    const written = await w.send(simplified, chat, '今天天氣很好，我們去公園散步吧');
    expect(written.lang).toBe('zh-Hant');
    const either = await w.send(traditional, chat, '你好');
    expect(either.lang).toBe('zh-Hant');
    expect((await w.send(traditional, chat, '今天天气很好，我们去公园散步吧')).lang).toBe('zh');
  });

  it('does not translate a Traditional text for a Traditional reader', async () => {
    const reader = await w.connect(traditional);
    const before = provider.calls.length;
    const message = await w.send(simplified, chat, '今天天氣很好，我們去公園散步吧');
    await reader.next(isMessage);
    await w.t.ctx.services.translations.drain();
    expect(await w.translate(traditional, chat, [message.seq])).toEqual([]);
    expect(reader.frames.some(isTranslation)).toBe(false);
    expect(provider.calls.length).toBe(before);
  });

  it('does not translate a text common to both scripts for any Chinese reader', async () => {
    const before = provider.calls.length;
    const message = await w.send(simplified, chat, '你好，我在公司');
    expect(message.lang).toBe('zh');
    expect(await w.translate(traditional, chat, [message.seq])).toEqual([]);
    const [english] = await w.translate(traditional, chat, [message.seq], { lang: 'en' });
    expect(english).toMatchObject({ status: 'pending', lang: 'en' });
    await w.t.ctx.services.translations.drain();
    expect(provider.calls.length).toBe(before + 1);
  });

  it("converts Simplified for a Traditional reader locally, in Taiwan's phrasing, for free", async () => {
    const reader = await w.connect(traditional);
    const before = provider.calls.length;
    const used = await usage(simplified);
    const message = await w.send(simplified, chat, '我的鼠标和软件都坏了');
    const { translation } = await reader.next(isTranslation);
    expect(translation).toMatchObject({
      messageId: message.id,
      from: 'zh',
      lang: 'zh-Hant',
      status: 'done',
      text: '我的滑鼠和軟體都壞了',
    });
    expect(provider.calls.length).toBe(before);
    expect(await usage(simplified)).toBe(used);
    const row = await w.t.ctx.db
      .selectFrom('translations')
      .select('provider')
      .where('message_id', '=', message.id)
      .executeTakeFirstOrThrow();
    expect(row.provider).toBe('opencc');
  });

  it('converts Traditional for a Simplified reader from the phrasing of Taiwan', async () => {
    const used = [await usage(simplified), await usage(traditional)];
    const message = await w.send(traditional, chat, '我的滑鼠和軟體都壞了');
    expect(message.lang).toBe('zh-Hant');
    expect(await w.settled(simplified, message)).toMatchObject({
      status: 'done',
      text: '我的鼠标和软件都坏了',
    });
    expect([await usage(simplified), await usage(traditional)]).toEqual(used);
  });

  it('never gives a sender a translation of their own message, in a group either', async () => {
    const [writer, reader] = [await w.person('es'), await w.person('es')];
    const owner = await w.person('en');
    const group = await w.group(owner, [writer, reader]);
    const [writerSocket, readerSocket] = [await w.connect(writer), await w.connect(reader)];
    const before = provider.calls.length;
    const message = await w.send(writer, group, 'I write this one in English, my friends.');
    expect(message.lang).toBe('en');
    await readerSocket.next(isTranslation);
    await w.t.ctx.services.translations.drain();
    // Made once, for the Spanish reader and the English owner not at all (offline).
    expect(provider.calls.slice(before).map((call) => call.to)).toEqual(['es']);
    expect(await w.translate(writer, group, [message.seq])).toEqual([]);
    await w.send(owner, group, 'A second one, so the first frame would have come by now.');
    await readerSocket.next(isTranslation);
    const ownTranslation = (frame: ServerFrame) =>
      isTranslation(frame) && frame.translation.messageId === message.id;
    expect(writerSocket.frames.some(ownTranslation)).toBe(false);
    // Nor in a single chat, asked into a language of the sender's choice.
    const single = singleConversationId(writer.user.id, owner.user.id);
    const own = await w.send(writer, single, 'Another English sentence from a Spanish speaker.');
    expect(await w.translate(writer, single, [own.seq])).toEqual([]);
    expect(await w.translate(writer, single, [own.seq], { lang: 'de' })).toEqual([]);
  });

  it('stores a pair no provider has as unavailable, not failed', async () => {
    const reader = await w.person('ja');
    const conversation = await w.chat(simplified, reader);
    const socket = await w.connect(reader);
    const message = await w.send(simplified, conversation, '我们明天去公园散步吧');
    const { translation } = await socket.next(isTranslation);
    expect(translation).toMatchObject({
      messageId: message.id,
      status: 'unavailable',
      error: 'TRANSLATION_UNAVAILABLE',
      text: null,
    });
    expect((await w.translate(reader, conversation, [message.seq]))[0]).toMatchObject({
      status: 'unavailable',
    });
    expect(await usage(reader)).toBe(0);
  });
});
