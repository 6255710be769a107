import { afterAll, describe, expect, it } from 'vitest';
import { ChineseScripts } from './chinese.js';
import { detectorThreadCount, LanguageDetector, languageOf } from './detect.js';

describe('language detection', () => {
  const detector = new LanguageDetector();
  afterAll(() => detector.close());
  const detect = (text: string, fallback: string | null) => detector.detect(text, fallback);

  it('names the language of ordinary sentences', async () => {
    expect(await detect('Hello my friend, how are you today?', 'es')).toBe('en');
    expect(await detect('Hola amigo, ¿cómo estás?', 'en')).toBe('es');
    expect(await detect('Привет, как дела?', 'en')).toBe('ru');
    expect(await detect('Bonjour tout le monde', 'en')).toBe('fr');
  });

  it("takes the sender's mother tongue for words too short to call", async () => {
    expect(await detect('ok', 'de')).toBe('de');
    expect(await detect('gracias', 'es')).toBe('es');
  });

  it('ignores links, addresses and mentions', async () => {
    expect(await detect('https://example.com/a-very-long-english-path lol', 'pt')).toBe('pt');
    expect(await detect('@Maria ¿vienes mañana a la reunión de la tarde?', 'en')).toBe('es');
  });

  it('answers null when there are no words to translate', async () => {
    expect(await detect('👍👍 123', 'en')).toBeNull();
    expect(await detect('https://example.com', 'en')).toBeNull();
  });

  it('names Chinese by the script its characters are written in', async () => {
    const scripts = new ChineseScripts();
    const chinese = async (text: string, fallback: string | null) =>
      detector.detect(text, fallback, await scripts.scriptOf(text));
    expect(await chinese('今天天氣很好，我們去公園散步吧', 'en')).toBe('zh-Hant');
    expect(await chinese('今天天氣很好，我們去公園散步吧', 'zh')).toBe('zh-Hant');
    expect(await chinese('今天天气很好，我们去公园散步吧', 'zh-Hant')).toBe('zh');
    expect(await chinese('今天天气很好，我们去公园散步吧', 'en')).toBe('zh');
    // Short ones, which the detector cannot call.
    expect(await chinese('謝謝', 'zh')).toBe('zh-Hant');
    expect(await chinese('谢谢', 'zh-Hant')).toBe('zh');
    expect(await chinese('ok', 'zh-Hant')).toBe('zh-Hant');
  });

  it("takes a Chinese text readable in either script to be in the sender's variety", () => {
    const sure = { language: 'zh', reliable: true };
    expect(languageOf(sure, 'zh-Hant', 'either')).toBe('zh-Hant');
    expect(languageOf(sure, 'zh', 'either')).toBe('zh');
    expect(languageOf(sure, 'en', 'either')).toBe('zh');
    expect(languageOf(sure, 'yue', 'traditional')).toBe('yue');
    expect(languageOf(sure, 'yue', 'simplified')).toBe('zh');
    expect(languageOf({ language: 'zh', reliable: false }, 'en', 'traditional')).toBe('zh-Hant');
    expect(languageOf({ language: 'zh', reliable: false }, 'en', 'either')).toBe('en');
  });

  it('guesses a batch in order, texts without words included', async () => {
    const guesses = await detector.guess([
      'Guten Morgen, wie geht es dir heute?',
      '🙂',
      'Buongiorno a tutti, come state oggi?',
    ]);
    expect(guesses.map((guess) => guess?.language ?? null)).toEqual(['de', null, 'it']);
  });

  it('detects a long text by its beginning', async () => {
    const long = 'Esta es una frase en español sobre el tiempo de hoy. '.repeat(200);
    expect(await detect(long, 'en')).toBe('es');
  });

  it('starts a new thread after the last one was closed', async () => {
    const other = new LanguageDetector();
    expect(await other.detect('The weather is lovely today, my friend.', null)).toBe('en');
    await other.close();
    expect(await other.detect('Il fait très beau aujourd’hui, mon ami.', null)).toBe('fr');
    await other.close();
  });

  it('spreads turns over a pool of threads, each answering its own texts', async () => {
    const pool = new LanguageDetector(undefined, 3);
    const texts = [
      'The weather is lovely today, my friend.',
      'Il fait très beau aujourd’hui, mon ami.',
      'Das Wetter ist heute wunderbar, mein Freund.',
      'Hoy hace un tiempo estupendo, amigo mío.',
    ];
    // Separate calls of one turn go in one question; `guess` asks at once, so these four
    // questions are in flight together and go to different threads.
    const answers = await Promise.all(texts.map((text) => pool.guess([text])));
    expect(answers.map(([guess]) => guess?.language)).toEqual(['en', 'fr', 'de', 'es']);
    expect(pool.threadsRunning).toBe(3);
    await pool.close();
    expect(pool.threadsRunning).toBe(0);
  });

  it('sizes its pool to the machine: one thread per free core, between one and four', () => {
    expect(detectorThreadCount()).toBeGreaterThanOrEqual(1);
    expect(detectorThreadCount()).toBeLessThanOrEqual(4);
  });

  it('maps detector codes and unsure guesses', () => {
    expect(languageOf({ language: 'tl', reliable: true }, 'en')).toBe('fil');
    expect(languageOf({ language: 'es', reliable: false }, 'en')).toBe('en');
    expect(languageOf({ language: '', reliable: false }, null)).toBeNull();
    expect(languageOf(null, 'en')).toBeNull();
  });
});

describe('a language detector whose thread cannot start', () => {
  it('fails the texts asked, then waits before trying a new thread', async () => {
    const broken = new LanguageDetector('file:///nonexistent/detector.js');
    await expect(broken.detect('Hello there, my good friend.', 'en')).rejects.toThrow();
    await expect(broken.detect('Hello again, my good friend.', 'en')).rejects.toThrow(
      /failed a moment ago/,
    );
    await broken.close();
  });
});
