import { describe, expect, it } from 'vitest';
import { createDeviceTranslator, type TranslatorApi } from './device-translator';

/** A stand-in for the browser's Translator: upper-cases, and knows only some pairs. */
class FakeTranslator implements TranslatorApi {
  created: string[] = [];
  translated: string[] = [];
  constructor(
    private readonly pairs: Record<string, string>,
    private readonly failing = new Set<string>(),
  ) {}

  availability(pair: { sourceLanguage: string; targetLanguage: string }): Promise<string> {
    return Promise.resolve(
      this.pairs[`${pair.sourceLanguage}>${pair.targetLanguage}`] ?? 'unavailable',
    );
  }

  create(pair: { sourceLanguage: string; targetLanguage: string }) {
    const name = `${pair.sourceLanguage}>${pair.targetLanguage}`;
    if (this.pairs[name] === 'downloadable') {
      return Promise.reject(new DOMException('needs a user gesture', 'NotAllowedError'));
    }
    this.created.push(name);
    return Promise.resolve({
      translate: (text: string) => {
        this.translated.push(text);
        return this.failing.has(text)
          ? Promise.reject(new Error('model crashed'))
          : Promise.resolve(`${pair.targetLanguage}:${text.toUpperCase()}`);
      },
    });
  }
}

describe('device translator', () => {
  it('is null where the browser has no usable Translator API', () => {
    expect(createDeviceTranslator({})).toBeNull();
    expect(createDeviceTranslator({ Translator: { create: () => null } })).toBeNull();
    expect(createDeviceTranslator({ Translator: new FakeTranslator({}) })).not.toBeNull();
  });

  it('keeps one translator per pair and remembers what it translated', async () => {
    const api = new FakeTranslator({ 'fr>en': 'available', 'de>en': 'available' });
    const device = createDeviceTranslator({ Translator: api });
    if (!device) throw new Error('expected a device translator');
    expect(device.peek('bonjour', 'fr', 'en')).toBeUndefined();
    const [a, b] = await Promise.all([
      device.translate('bonjour', 'fr', 'en'),
      device.translate('bonjour', 'fr', 'en'),
    ]);
    expect([a, b]).toEqual(['en:BONJOUR', 'en:BONJOUR']);
    expect(await device.translate('salut', 'fr', 'en')).toBe('en:SALUT');
    expect(await device.translate('hallo', 'de', 'en')).toBe('en:HALLO');
    expect(await device.translate('bonjour', 'fr', 'en')).toBe('en:BONJOUR');
    expect(device.peek('bonjour', 'fr', 'en')).toBe('en:BONJOUR');
    expect(api.created).toEqual(['fr>en', 'de>en']);
    expect(api.translated).toEqual(['bonjour', 'salut', 'hallo']);
  });

  it('gives null for a pair it cannot do, one it may not download, and a failure', async () => {
    const api = new FakeTranslator(
      { 'fr>en': 'available', 'ja>en': 'downloadable' },
      new Set(['boom']),
    );
    const device = createDeviceTranslator({ Translator: api });
    if (!device) throw new Error('expected a device translator');
    expect(await device.translate('hola', 'es', 'en')).toBeNull();
    expect(await device.translate('こんにちは', 'ja', 'en')).toBeNull();
    expect(await device.translate('boom', 'fr', 'en')).toBeNull();
    expect(device.peek('boom', 'fr', 'en')).toBeUndefined();
    // A failure is not remembered: the next showing tries again.
    await device.translate('boom', 'fr', 'en');
    expect(api.translated).toEqual(['boom', 'boom']);
  });
});
