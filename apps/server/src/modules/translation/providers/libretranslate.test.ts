import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MINUTE, SECOND } from '../../../lib/clock.js';
import { TestClock } from '../../../test/harness.js';
import { LIBRETRANSLATE_MAX_BATCH, libreTranslateProvider } from './libretranslate.js';
import {
  abortAt,
  neverAnswer,
  openSignal,
  route,
  sendJson,
  startTestServer,
  unreachableUrl,
  type Handler,
  type TestServer,
} from '../../../test/test-server.js';

interface Language {
  code: string;
  name: string;
  targets?: string[];
}

/** `/languages` of a recent LibreTranslate: Chinese as zh-Hans / zh-Hant, German only into English. */
const LANGUAGES: Language[] = [
  { code: 'en', name: 'English', targets: ['de', 'es', 'zh-Hans', 'zh-Hant'] },
  { code: 'es', name: 'Spanish', targets: ['en', 'zh-Hans'] },
  { code: 'de', name: 'German', targets: ['en'] },
  { code: 'zh-Hans', name: 'Chinese', targets: ['en', 'es'] },
  { code: 'zh-Hant', name: 'Chinese (traditional)', targets: ['en'] },
];

interface TranslateRequest {
  q: string[];
  source: string;
  target: string;
  format: string;
  api_key?: string;
}

const translateBody = (index: number) =>
  JSON.parse(server.requests[index]?.body ?? 'null') as TranslateRequest;

/** Answers `/translate` as LibreTranslate does for an array `q`: the texts tagged with the target. */
const translateLikeLibre: Handler = (request, response) => {
  const { q, target } = JSON.parse(request.body) as TranslateRequest;
  sendJson(response, 200, { translatedText: q.map((text) => `${target}:${text}`) });
};

/** A LibreTranslate server listing `languages`, whose `/translate` is `translate`. */
function libre(languages: unknown = LANGUAGES, translate = translateLikeLibre): Handler {
  return route({
    '/languages': (_request, response) => sendJson(response, 200, languages),
    '/translate': translate,
  });
}

let server: TestServer;
let clock: TestClock;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.reset(libre());
  clock = new TestClock();
});

const provider = (apiKey: string | null = null) =>
  libreTranslateProvider({ url: `${server.url}/`, apiKey, clock });

/** Translates "Hello" from English to Spanish. */
const hello = (signal = openSignal()) => provider().translate(['Hello'], 'en', 'es', signal);

describe('libreTranslateProvider', () => {
  it('supports the pairs the server lists, asking for them once', async () => {
    const libreTranslate = provider();
    expect(libreTranslate.name).toBe('libretranslate');
    expect(libreTranslate.maxBatch).toBe(LIBRETRANSLATE_MAX_BATCH);
    expect(libreTranslate.llm).toBe(false);
    expect(await libreTranslate.supports('en', 'de')).toBe(true);
    expect(await libreTranslate.supports('de', 'en')).toBe(true);
    expect(await libreTranslate.supports('de', 'es')).toBe(false);
    expect(await libreTranslate.supports('en', 'fr')).toBe(false);
    expect(await libreTranslate.supports('en', 'en')).toBe(false);
    expect(await libreTranslate.supports('en', 'xx')).toBe(false);
    expect(server.count('/languages')).toBe(1);
    expect(server.requests[0]).toMatchObject({ method: 'GET', url: '/languages' });
  });

  it('shares one language request between concurrent callers', async () => {
    const libreTranslate = provider();
    const answers = await Promise.all([
      libreTranslate.supports('en', 'es'),
      libreTranslate.supports('es', 'en'),
    ]);
    expect(answers).toEqual([true, true]);
    expect(server.count('/languages')).toBe(1);
  });

  it('asks for the languages again after ten minutes', async () => {
    const libreTranslate = provider();
    expect(await libreTranslate.supports('en', 'fr')).toBe(false);
    server.handle(libre([...LANGUAGES, { code: 'fr', name: 'French', targets: ['en'] }]));
    clock.advance(10 * MINUTE - 1);
    expect(await libreTranslate.supports('fr', 'en')).toBe(false);
    clock.advance(1);
    expect(await libreTranslate.supports('fr', 'en')).toBe(true);
    expect(server.count('/languages')).toBe(2);
  });

  it('supports nothing while the server cannot be reached, and never throws', async () => {
    const libreTranslate = libreTranslateProvider({ url: await unreachableUrl(), apiKey: null });
    expect(await libreTranslate.supports('en', 'es')).toBe(false);
  });

  it('supports nothing for 30 seconds after a failed language request, then asks again', async () => {
    server.handle(route({ '/languages': (_request, response) => sendJson(response, 503, {}) }));
    const libreTranslate = provider();
    expect(await libreTranslate.supports('en', 'es')).toBe(false);
    server.handle(libre());
    clock.advance(30 * SECOND - 1);
    expect(await libreTranslate.supports('en', 'es')).toBe(false);
    expect(server.count('/languages')).toBe(1);
    clock.advance(1);
    expect(await libreTranslate.supports('en', 'es')).toBe(true);
    expect(server.count('/languages')).toBe(2);
  });

  it('treats a language list that is not a list as a failed request', async () => {
    server.handle(libre({ error: 'oops' }));
    expect(await provider().supports('en', 'es')).toBe(false);
  });

  it('takes targets as all listed languages when the server does not list them', async () => {
    server.handle(libre(LANGUAGES.map(({ code, name }) => ({ code, name }))));
    expect(await provider().supports('de', 'es')).toBe(true);
  });

  it('translates a batch in one request, as the API documents it', async () => {
    const texts = ['Hello', 'Good night\nall 🙂'];
    const translations = await provider().translate(texts, 'en', 'es', openSignal());
    expect(translations).toEqual(['es:Hello', 'es:Good night\nall 🙂']);

    const request = server.requests.find(({ url }) => url === '/translate');
    expect(request?.method).toBe('POST');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(translateBody(server.requests.length - 1)).toEqual({
      q: texts,
      source: 'en',
      target: 'es',
      format: 'text',
    });
  });

  it('sends the API key when one is set', async () => {
    await provider('libre-key').translate(['Hello'], 'en', 'es', openSignal());
    expect(translateBody(1).api_key).toBe('libre-key');
  });

  it.each([
    ['zh-Hans / zh-Hant', LANGUAGES, 'zh-Hans', 'zh-Hant'],
    [
      'zh / zt',
      [
        { code: 'en', name: 'English', targets: ['zh', 'zt'] },
        { code: 'zh', name: 'Chinese', targets: ['en'] },
        { code: 'zt', name: 'Chinese (traditional)', targets: ['en'] },
      ],
      'zh',
      'zt',
    ],
  ])(
    'maps Chinese to the codes the server lists (%s)',
    async (_, languages, simplified, traditional) => {
      server.handle(libre(languages));
      const libreTranslate = provider();
      expect(await libreTranslate.translate(['Hi'], 'en', 'zh', openSignal())).toEqual([
        `${simplified}:Hi`,
      ]);
      expect(await libreTranslate.translate(['Hi'], 'en', 'zh-Hant', openSignal())).toEqual([
        `${traditional}:Hi`,
      ]);
      expect(await libreTranslate.translate(['你好'], 'zh', 'en', openSignal())).toEqual([
        'en:你好',
      ]);
      expect(translateBody(server.requests.length - 1).source).toBe(simplified);
    },
  );

  it('refuses a pair the server does not list, without a translate request', async () => {
    await expect(provider().translate(['Hallo'], 'de', 'es', openSignal())).rejects.toMatchObject({
      name: 'ProviderError',
      retryable: false,
    });
    expect(server.count('/translate')).toBe(0);
  });

  it('rejects, not retryable, an answer without one translation per text', async () => {
    server.handle(
      libre(LANGUAGES, (_request, response) =>
        sendJson(response, 200, { translatedText: ['one'] }),
      ),
    );
    await expect(provider().translate(['a', 'b'], 'en', 'es', openSignal())).rejects.toMatchObject({
      name: 'ProviderError',
      retryable: false,
    });
  });

  it.each([
    [429, true],
    [500, true],
    [400, false],
    [403, false],
  ])('turns HTTP %i into a ProviderError (retryable: %s)', async (status, retryable) => {
    server.handle(
      libre(LANGUAGES, (_request, response) => sendJson(response, status, { error: 'No luck' })),
    );
    const translating = hello();
    await expect(translating).rejects.toMatchObject({ name: 'ProviderError', retryable, status });
    await expect(translating).rejects.toThrow(/No luck/);
  });

  it('gives up when its signal aborts, retryable', async () => {
    server.handle(libre(LANGUAGES, neverAnswer));
    await expect(abortAt(server, '/translate', hello)).rejects.toMatchObject({
      name: 'ProviderError',
      retryable: true,
    });
  });
});
