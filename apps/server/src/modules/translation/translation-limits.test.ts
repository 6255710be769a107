import { singleConversationId } from '@teltlk/protocol';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { expectError } from '../../test/harness.js';
import { LanguageDetector } from './detect.js';
import { FakeProvider } from '../../test/fake-provider.js';
import { World } from '../../test/translation-world.js';

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
