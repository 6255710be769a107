import { describe, expect, it } from 'vitest';
import { detectLanguage } from './detect.js';

describe('detectLanguage', () => {
  it('names the language of ordinary sentences', () => {
    expect(detectLanguage('Hello my friend, how are you today?', 'es')).toBe('en');
    expect(detectLanguage('Hola amigo, ¿cómo estás?', 'en')).toBe('es');
    expect(detectLanguage('Привет, как дела?', 'en')).toBe('ru');
    expect(detectLanguage('Bonjour tout le monde', 'en')).toBe('fr');
  });

  it("takes the sender's mother tongue for words too short to call", () => {
    expect(detectLanguage('ok', 'de')).toBe('de');
    expect(detectLanguage('gracias', 'es')).toBe('es');
  });

  it('ignores links, addresses and mentions', () => {
    expect(detectLanguage('https://example.com/a-very-long-english-path lol', 'pt')).toBe('pt');
    expect(detectLanguage('@Maria ¿vienes mañana a la reunión de la tarde?', 'en')).toBe('es');
  });

  it('answers null when there are no words to translate', () => {
    expect(detectLanguage('👍👍 123', 'en')).toBeNull();
    expect(detectLanguage('https://example.com', 'en')).toBeNull();
  });

  it("keeps the sender's own variety of a language the detector cannot tell apart", () => {
    expect(detectLanguage('今天天氣很好，我們去公園散步吧', 'zh-Hant')).toBe('zh-Hant');
    expect(detectLanguage('今天天气很好，我们去公园散步吧', 'en')).toBe('zh');
  });
});
