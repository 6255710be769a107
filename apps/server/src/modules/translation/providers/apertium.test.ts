import { LANGUAGES } from '@teltlk/protocol';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SECOND } from '../../../lib/clock.js';
import { TestClock } from '../../../test/harness.js';
import { apertiumCodes, apertiumProvider } from './apertium.js';
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

type Pair = [source: string, target: string];

/** What APY answers for a list of pairs. */
const listPairs = (pairs: Pair[]) => ({
  responseData: pairs.map(([sourceLanguage, targetLanguage]) => ({
    sourceLanguage,
    targetLanguage,
  })),
  responseDetails: null,
  responseStatus: 200,
});

/** Answers `/translate` as APY does: the text tagged with the pair it was asked for. */
const translateLikeApy: Handler = (request, response) => {
  const form = new URLSearchParams(request.body);
  sendJson(response, 200, {
    responseData: { translatedText: `${form.get('langpair')}:${form.get('q')}` },
    responseDetails: null,
    responseStatus: 200,
  });
};

/** The variant listed before the plain code, so that order alone cannot pick the right one. */
const PAIRS: Pair[] = [
  ['eng', 'spa'],
  ['spa', 'eng_US'],
  ['spa', 'eng'],
  ['cat', 'eng_US'],
  ['cat_valencia', 'spa'],
  ['pes', 'eng'],
];

/** An APY listing `pairs`, whose `/translate` is `translate`. */
function apy(pairs: Pair[] = PAIRS, translate = translateLikeApy): Handler {
  return route({
    '/listPairs': (_request, response) => sendJson(response, 200, listPairs(pairs)),
    '/translate': translate,
  });
}

/** The last `/translate` request's form fields. */
function lastForm(): URLSearchParams {
  const request = server.requests.findLast(({ url }) => url === '/translate');
  return new URLSearchParams(request?.body);
}

let server: TestServer;
let clock: TestClock;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.reset(apy());
  clock = new TestClock();
});

const provider = () => apertiumProvider({ url: server.url, clock });

/** Translates "Hello" from English to Spanish. */
const hello = (signal = openSignal()) => provider().translate(['Hello'], 'en', 'es', signal);

describe('apertiumCodes', () => {
  it('maps every product language with an ISO 639-3 code, and nothing else', () => {
    const unmapped = LANGUAGES.filter(({ code }) => !apertiumCodes(code)).map(({ code }) => code);
    expect(unmapped).toEqual(['zh-Hant']);
    for (const { code } of LANGUAGES) {
      for (const iso of apertiumCodes(code) ?? []) expect(iso).toMatch(/^[a-z]{3}$/);
    }
    const primary = LANGUAGES.map(({ code }) => apertiumCodes(code)?.[0]).filter(Boolean);
    expect(new Set(primary).size).toBe(primary.length);
    expect(apertiumCodes('xx')).toBeUndefined();
  });

  it.each([
    ['en', 'eng'],
    ['es', 'spa'],
    ['fr', 'fra'],
    ['pt', 'por'],
    ['ca', 'cat'],
    ['de', 'deu'],
    ['kw', 'cor'],
    ['fil', 'fil'],
    ['yue', 'yue'],
  ])('maps %s to %s first', (code, iso) => {
    expect(apertiumCodes(code)?.[0]).toBe(iso);
  });
});

describe('apertiumProvider', () => {
  it('supports the pairs APY lists, asking for them once', async () => {
    const apertium = provider();
    expect(apertium.name).toBe('apertium');
    expect(apertium.maxBatch).toBe(1);
    expect(apertium.llm).toBe(false);
    expect(await apertium.supports('en', 'es')).toBe(true);
    expect(await apertium.supports('es', 'en')).toBe(true);
    expect(await apertium.supports('en', 'de')).toBe(false);
    expect(await apertium.supports('en', 'en')).toBe(false);
    expect(await apertium.supports('en', 'xx')).toBe(false);
    expect(server.count('/listPairs')).toBe(1);
    expect(server.requests[0]).toMatchObject({ method: 'GET', url: '/listPairs' });
  });

  it('covers, in product codes, the pairs APY lists', async () => {
    const pairs = await provider().coverage();
    expect(pairs).toEqual(
      expect.arrayContaining([
        ['en', 'es'],
        ['es', 'en'],
        ['ca', 'en'],
        ['ca', 'es'],
        ['fa', 'en'],
      ]),
    );
    expect(pairs).toHaveLength(5);
  });

  it('translates with a form POST, unknown words unmarked', async () => {
    const text = 'Hello, how are you? 🙂\nSee https://example.com';
    expect(await provider().translate([text], 'en', 'es', openSignal())).toEqual([
      `eng|spa:${text}`,
    ]);
    const request = server.requests.findLast(({ url }) => url === '/translate');
    expect(request?.method).toBe('POST');
    expect(request?.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    expect(Object.fromEntries(lastForm())).toEqual({
      langpair: 'eng|spa',
      q: text,
      markUnknown: 'no',
    });
  });

  it('prefers the plain target to a variant, and uses a variant when nothing else exists', async () => {
    const apertium = provider();
    await apertium.translate(['Hola'], 'es', 'en', openSignal());
    expect(lastForm().get('langpair')).toBe('spa|eng');
    await apertium.translate(['Bon dia'], 'ca', 'en', openSignal());
    expect(lastForm().get('langpair')).toBe('cat|eng_US');
    await apertium.translate(['Bon dia'], 'ca', 'es', openSignal());
    expect(lastForm().get('langpair')).toBe('cat_valencia|spa');
  });

  it("finds a macrolanguage under the individual language's code", async () => {
    const apertium = provider();
    expect(await apertium.supports('fa', 'en')).toBe(true);
    await apertium.translate(['سلام'], 'fa', 'en', openSignal());
    expect(lastForm().get('langpair')).toBe('pes|eng');
  });

  it('translates texts one request each, in order', async () => {
    const translations = await provider().translate(['one', 'two'], 'en', 'es', openSignal());
    expect(translations).toEqual(['eng|spa:one', 'eng|spa:two']);
    expect(server.count('/translate')).toBe(2);
  });

  it('supports nothing while APY cannot be reached, and never throws', async () => {
    const apertium = apertiumProvider({ url: await unreachableUrl() });
    expect(await apertium.supports('en', 'es')).toBe(false);
  });

  it('supports nothing for 30 seconds after APY reported a failure, then asks again', async () => {
    server.handle(
      route({
        '/listPairs': (_request, response) =>
          sendJson(response, 200, { responseStatus: 503, responseDetails: 'Busy' }),
      }),
    );
    const apertium = provider();
    expect(await apertium.supports('en', 'es')).toBe(false);
    server.handle(apy());
    expect(await apertium.supports('en', 'es')).toBe(false);
    clock.advance(30 * SECOND);
    expect(await apertium.supports('en', 'es')).toBe(true);
    expect(server.count('/listPairs')).toBe(2);
  });

  it.each([
    [400, false],
    [408, true],
    [500, true],
    [503, true],
  ])(
    'treats responseStatus %i in an HTTP 200 as a failure (retryable: %s)',
    async (status, retryable) => {
      server.handle(
        apy(PAIRS, (_request, response) =>
          sendJson(response, 200, { responseStatus: status, responseDetails: 'APY trouble' }),
        ),
      );
      const translating = hello();
      await expect(translating).rejects.toMatchObject({ name: 'ProviderError', retryable, status });
      await expect(translating).rejects.toThrow(/APY trouble/);
    },
  );

  it('turns an HTTP error with its APY explanation into a ProviderError', async () => {
    server.handle(
      apy(PAIRS, (_request, response) =>
        sendJson(response, 400, {
          status: 'error',
          code: 400,
          message: 'Bad Request',
          explanation: 'That pair is not installed',
        }),
      ),
    );
    const translating = hello();
    await expect(translating).rejects.toMatchObject({ retryable: false, status: 400 });
    await expect(translating).rejects.toThrow(/That pair is not installed/);
  });

  it('rejects, not retryable, an answer without translatedText', async () => {
    server.handle(
      apy(PAIRS, (_request, response) => sendJson(response, 200, { responseStatus: 200 })),
    );
    await expect(hello()).rejects.toMatchObject({
      name: 'ProviderError',
      retryable: false,
    });
  });

  it('refuses a pair APY does not list, without a translate request', async () => {
    await expect(provider().translate(['Hello'], 'en', 'de', openSignal())).rejects.toMatchObject({
      name: 'ProviderError',
      retryable: false,
    });
    expect(server.count('/translate')).toBe(0);
  });

  it('gives up when its signal aborts, retryable', async () => {
    server.handle(apy(PAIRS, neverAnswer));
    await expect(abortAt(server, '/translate', hello)).rejects.toMatchObject({
      name: 'ProviderError',
      retryable: true,
    });
  });
});

// An Apertium APY with the eng-spa and spa-eng pairs installed.
const TEST_APERTIUM_URL = process.env.TEST_APERTIUM_URL;

describe.skipIf(!TEST_APERTIUM_URL)('apertiumProvider against a real APY', () => {
  const apertium = apertiumProvider({ url: TEST_APERTIUM_URL ?? '' });

  it('knows its installed pairs', async () => {
    expect(await apertium.coverage()).toEqual(
      expect.arrayContaining([
        ['en', 'es'],
        ['es', 'en'],
      ]),
    );
    expect(await apertium.supports('en', 'es')).toBe(true);
    expect(await apertium.supports('es', 'en')).toBe(true);
    expect(await apertium.supports('en', 'de')).toBe(false);
  });

  it('translates English to Spanish', async () => {
    const [spanish] = await apertium.translate(['Hello, how are you?'], 'en', 'es', openSignal());
    expect(spanish).toContain('Hola');
    expect(spanish).not.toBe('Hello, how are you?');
  });

  it("keeps APY's asterisks on unknown words away from readers", async () => {
    const [spanish] = await apertium.translate(
      ['Hello zorblaxian friend'],
      'en',
      'es',
      openSignal(),
    );
    expect(spanish).toContain('zorblaxian');
    expect(spanish).not.toContain('*');
  });

  it('translates Spanish to English', async () => {
    const [english] = await apertium.translate(['Hola, ¿cómo estás?'], 'es', 'en', openSignal());
    expect(english).toMatch(/hello/i);
    expect(english).not.toBe('Hola, ¿cómo estás?');
  });
});
