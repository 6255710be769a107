import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openAiProvider, OPENAI_MAX_BATCH } from './openai.js';
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

const PATH = '/v1/chat/completions';
const KEY = 'sk-test-key';

/** What the fake model "knows": English → Spanish. */
const SPANISH: Record<string, string> = {
  Hello: 'Hola',
  'Good night': 'Buenas noches',
  'See you\nsoon 🙂': 'Hasta\npronto 🙂',
};
const spanish = (text: string) => SPANISH[text] ?? `?${text}`;

interface ChatRequest {
  model: string;
  temperature: number;
  messages: { role: string; content: string }[];
}

function chatRequest(index = 0): ChatRequest {
  return JSON.parse(server.requests[index]?.body ?? 'null') as ChatRequest;
}

/** A chat completion as OpenAI-compatible servers send it. */
function completion(content: string | null) {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'test-model',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  };
}

/**
 * A model that follows the prompt: a batch (the system prompt asks for a JSON array) is
 * answered by `batchAnswer`, by default a fenced JSON array as chat models like to write
 * it; a single text by its translation with stray whitespace around it.
 */
function fakeModel(
  batchAnswer = (translations: string[]) => `\`\`\`json\n${JSON.stringify(translations)}\n\`\`\``,
): Handler {
  return route({
    [PATH]: (request, response) => {
      const { messages } = JSON.parse(request.body) as ChatRequest;
      const system = messages[0]?.content ?? '';
      const user = messages[1]?.content ?? '';
      const content = system.includes('JSON array')
        ? batchAnswer((JSON.parse(user) as string[]).map(spanish))
        : `\n  ${spanish(user)}  \n`;
      sendJson(response, 200, completion(content));
    },
  });
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.reset(fakeModel());
});

/** A provider for the fake server; the URL ends with a slash, which must not double. */
const provider = (apiKey: string | null = KEY) =>
  openAiProvider({ url: `${server.url}/v1/`, apiKey, model: 'test-model' });

/** Translates "Hello" from English to Spanish. */
const hello = (signal = openSignal()) => provider().translate(['Hello'], 'en', 'es', signal);

describe('openAiProvider', () => {
  it('supports every pair of two different product languages, without asking the server', async () => {
    const openai = provider();
    expect(openai.name).toBe('openai');
    expect(openai.maxBatch).toBe(OPENAI_MAX_BATCH);
    expect(openai.llm).toBe(true);
    expect(await openai.supports('en', 'es')).toBe(true);
    expect(await openai.supports('zh-Hant', 'yue')).toBe(true);
    expect(await openai.supports('en', 'en')).toBe(false);
    expect(await openai.supports('en', 'xx')).toBe(false);
    expect(server.requests).toHaveLength(0);
  });

  it('translates one text: the request OpenAI documents, the answer trimmed but not flattened', async () => {
    const translations = await provider().translate(['See you\nsoon 🙂'], 'en', 'es', openSignal());
    expect(translations).toEqual(['Hasta\npronto 🙂']);

    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe(PATH);
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers.authorization).toBe(`Bearer ${KEY}`);
    const body = chatRequest();
    expect(body.model).toBe('test-model');
    expect(body.temperature).toBe(0);
    expect(body.messages.map(({ role }) => role)).toEqual(['system', 'user']);
    expect(body.messages[1]?.content).toBe('See you\nsoon 🙂');
    const system = body.messages[0]?.content ?? '';
    expect(system).toContain('English (en)');
    expect(system).toContain('Spanish (es)');
    expect(system).toMatch(/@mentions/);
    expect(system).toMatch(/URLs/);
    expect(system).toMatch(/line breaks/);
  });

  it('sends no authorization header when no key is set', async () => {
    expect(await provider(null).translate(['Hello'], 'en', 'es', openSignal())).toEqual(['Hola']);
    expect(server.requests[0]?.headers).not.toHaveProperty('authorization');
  });

  it('translates a batch in one request as a JSON array, reading a fenced answer', async () => {
    const texts = ['Hello', 'Good night', 'See you\nsoon 🙂'];
    const translations = await provider().translate(texts, 'en', 'es', openSignal());
    expect(translations).toEqual(['Hola', 'Buenas noches', 'Hasta\npronto 🙂']);
    expect(server.requests).toHaveLength(1);
    expect(JSON.parse(chatRequest().messages[1]?.content ?? '')).toEqual(texts);
  });

  it.each([
    ['prose', () => 'Sure! Here are the translations: Hola, Buenas noches'],
    ['too few items', (translations: string[]) => JSON.stringify(translations.slice(1))],
    [
      'items that are not strings',
      (translations: string[]) => JSON.stringify([1, ...translations.slice(1)]),
    ],
    ['an object', (translations: string[]) => JSON.stringify({ translations })],
    [
      'an empty string for a text',
      (translations: string[]) => JSON.stringify(['', ...translations.slice(1)]),
    ],
  ])('falls back to one request per text when the batch answer is %s', async (_, answer) => {
    server.handle(fakeModel(answer));
    const texts = ['Hello', 'Good night'];
    expect(await provider().translate(texts, 'en', 'es', openSignal())).toEqual([
      'Hola',
      'Buenas noches',
    ]);
    expect(server.requests).toHaveLength(1 + texts.length);
    expect(chatRequest(1).messages[1]?.content).toBe('Hello');
    expect(chatRequest(2).messages[1]?.content).toBe('Good night');
  });

  it.each([
    [429, true],
    [500, true],
    [503, true],
    [400, false],
    [401, false],
  ])('turns HTTP %i into a ProviderError (retryable: %s)', async (status, retryable) => {
    server.handle((_request, response) =>
      sendJson(response, status, { error: { message: 'model says no', type: 'test' } }),
    );
    const translating = hello();
    await expect(translating).rejects.toMatchObject({ name: 'ProviderError', retryable, status });
    await expect(translating).rejects.toThrow(/model says no/);
  });

  it.each([
    ['a body that is not JSON', (response: Parameters<Handler>[1]) => response.end('<html>')],
    ['no content', (response: Parameters<Handler>[1]) => sendJson(response, 200, completion(null))],
    ['no choices', (response: Parameters<Handler>[1]) => sendJson(response, 200, { choices: [] })],
    [
      'an empty translation',
      (response: Parameters<Handler>[1]) => sendJson(response, 200, completion(' \n')),
    ],
  ])('rejects, not retryable, when the server answers %s', async (_, answer) => {
    server.handle((_request, response) => answer(response));
    await expect(hello()).rejects.toMatchObject({
      name: 'ProviderError',
      retryable: false,
    });
  });

  it('rejects, retryable, when the server cannot be reached', async () => {
    const openai = openAiProvider({ url: await unreachableUrl(), apiKey: null, model: 'm' });
    await expect(openai.translate(['Hello'], 'en', 'es', openSignal())).rejects.toMatchObject({
      name: 'ProviderError',
      retryable: true,
    });
  });

  it('gives up when its signal aborts, retryable', async () => {
    server.handle(neverAnswer);
    await expect(abortAt(server, PATH, hello)).rejects.toMatchObject({
      name: 'ProviderError',
      retryable: true,
    });
  });

  it('refuses a pair it cannot name, without a request', async () => {
    await expect(provider().translate(['Hello'], 'en', 'xx', openSignal())).rejects.toMatchObject({
      name: 'ProviderError',
      retryable: false,
    });
    expect(server.requests).toHaveLength(0);
  });
});
