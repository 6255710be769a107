import {
  singleConversationId,
  type Message,
  type MyGroup,
  type ServerFrame,
  type TranslateResult,
} from '@teltlk/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { socketUrl, TestSocket } from '../../test/test-client.js';
import { createTestApp, dialects, type RegisteredUser, type TestApp } from '../../test/harness.js';
import { apertiumProvider } from './providers/apertium.js';
import type { TranslationProvider } from './providers/provider.js';

/**
 * Chat translated by a real Apertium APY server (Debian's `apertium-apy` with the
 * `apertium-eng-spa` pair), which CI installs and starts; set TEST_APERTIUM_URL to run.
 */
const APERTIUM_URL = process.env.TEST_APERTIUM_URL;

type TranslationFrame = Extract<ServerFrame, { t: 'translation' }>;
const isTranslation = (frame: ServerFrame): frame is TranslationFrame => frame.t === 'translation';

/** The real provider, with every call it makes counted by pair. */
function counted(provider: TranslationProvider) {
  const calls: string[] = [];
  const wrapped: TranslationProvider = {
    name: provider.name,
    maxBatch: provider.maxBatch,
    llm: provider.llm,
    supports: (from, to, signal) => provider.supports(from, to, signal),
    coverage: (signal) => provider.coverage(signal),
    translate: (texts, from, to, signal) => {
      for (const text of texts) calls.push(`${from}>${to}:${text}`);
      return provider.translate(texts, from, to, signal);
    },
  };
  return { calls, provider: wrapped };
}

describe.skipIf(!APERTIUM_URL).each(dialects)(
  'chat translated by Apertium on $dialect',
  ({ dialect }) => {
    const apertium = counted(apertiumProvider({ url: APERTIUM_URL ?? '' }));
    let t: TestApp;
    let url: string;
    let english: RegisteredUser;
    let spanish: RegisteredUser;
    const sockets: TestSocket[] = [];

    const call = (user: RegisteredUser, method: 'GET' | 'POST', path: string, body?: unknown) =>
      t.call(method, `/api/v1${path}`, { token: user.token, body });

    async function befriend(a: RegisteredUser, b: RegisteredUser): Promise<void> {
      const { contacts } = t.ctx.services;
      const request = await contacts.sendRequest(
        { userId: a.user.id, sessionId: 'test' },
        { userId: b.user.id },
      );
      await contacts.acceptRequest({ userId: b.user.id, sessionId: 'test' }, request.id);
    }

    async function send(from: RegisteredUser, conversationId: string, text: string) {
      const response = await call(from, 'POST', '/messages', {
        conversationId,
        clientMsgId: `ap-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`,
        content: { kind: 'text', text },
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<Message>();
    }

    beforeAll(async () => {
      t = await createTestApp({ dialect, translationProviders: [apertium.provider] });
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      url = socketUrl(t.app.server.address());
      english = await t.register({ motherTongue: 'en', nickname: 'Ann' });
      spanish = await t.register({ motherTongue: 'es', nickname: 'Sofía' });
      await befriend(english, spanish);
    });
    afterAll(async () => {
      await Promise.all(sockets.map((socket) => socket.close()));
      await t.ctx.services.translations.drain();
      await t.close();
    });

    it('an English and a Spanish speaker each receive the other in their own language', async () => {
      const ann = await TestSocket.connect(url, english.token);
      const sofia = await TestSocket.connect(url, spanish.token);
      sockets.push(ann, sofia);
      const chat = singleConversationId(english.user.id, spanish.user.id);

      const hello = await send(english, chat, 'Hello, my friend. The house is very big.');
      expect(hello.lang).toBe('en');
      const toSpanish = (await sofia.next(isTranslation, 20_000)).translation;
      expect(toSpanish).toMatchObject({
        messageId: hello.id,
        lang: 'es',
        from: 'en',
        status: 'done',
      });
      expect(toSpanish.text).toMatch(/casa/i);

      const reply = await send(spanish, chat, 'Hola, amigo. La casa es muy grande.');
      expect(reply.lang).toBe('es');
      const toEnglish = (await ann.next(isTranslation, 20_000)).translation;
      expect(toEnglish).toMatchObject({
        messageId: reply.id,
        lang: 'en',
        from: 'es',
        status: 'done',
      });
      expect(toEnglish.text).toMatch(/house/i);
      // Each got only the translation into their own language.
      expect(ann.frames.filter(isTranslation).map((f) => f.translation.lang)).toEqual(['en']);
      expect(sofia.frames.filter(isTranslation).map((f) => f.translation.lang)).toEqual(['es']);
    });

    it('calls the engine once per (message, language) when twenty members read at once', async () => {
      const readers: RegisteredUser[] = [];
      for (let index = 0; index < 20; index += 1) {
        const reader = await t.register({ motherTongue: 'es', nickname: `Lector${index}` });
        await befriend(english, reader);
        readers.push(reader);
      }
      const created = await call(english, 'POST', '/groups', {
        memberIds: readers.map((reader) => reader.user.id),
      });
      expect(created.statusCode, created.body).toBe(200);
      const group = `sg_${created.json<MyGroup>().id}`;
      const text = 'The meeting is tomorrow in the big house.';
      const message = await send(english, group, text);

      const answers = await Promise.all(
        readers.map((reader) =>
          call(reader, 'POST', '/translations', { conversationId: group, seqs: [message.seq] }),
        ),
      );
      for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
      await t.ctx.services.translations.drain();
      expect(apertium.calls.filter((made) => made === `en>es:${text}`)).toHaveLength(1);

      const texts = new Set<string | null>();
      for (const reader of readers) {
        const response = await call(reader, 'POST', '/translations', {
          conversationId: group,
          seqs: [message.seq],
        });
        const [translation] = response.json<TranslateResult>().translations;
        expect(translation).toMatchObject({ status: 'done', lang: 'es' });
        texts.add(translation!.text);
      }
      expect(texts.size).toBe(1);
      expect(apertium.calls.filter((made) => made === `en>es:${text}`)).toHaveLength(1);
    });
  },
);
