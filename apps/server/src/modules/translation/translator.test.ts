import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ChineseScripts } from './chinese.js';
import { FakeProvider } from '../../test/fake-provider.js';
import { openAiProvider } from './providers/openai.js';
import type { TranslationProvider } from './providers/provider.js';
import {
  COPY_OTHERS,
  honest,
  obedientModel,
  promptTexts,
  rewriteNext,
  RUN_ON,
} from '../../test/test-model.js';
import { startTestServer, type TestServer } from '../../test/test-server.js';
import { DEFAULT_RUNNER_OPTIONS, farLonger, ProviderRunner } from './runner.js';
import { TranslateError, Translator } from './translator.js';

/**
 * The provider chain in front of a language model that obeys what the texts it
 * translates tell it (the local OpenAI-protocol server): what one conversation's text
 * makes it do stays in that conversation, and an answer far longer than its text is
 * never taken for its translation.
 */

const GREETING = 'Hello, how are you?';
/** Two messages long enough that a copy of them makes an answer far longer than its text. */
const ALICE = 'Alice here: the door code for the flat is 4711, please do not share it with anyone.';
const BOB = 'Bob here: my new phone number is +34 600 123 456, call me after eight tonight.';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.reset(obedientModel());
});

function translatorFor(...providers: TranslationProvider[]): Translator {
  const options = { ...DEFAULT_RUNNER_OPTIONS, backoffMs: 1, batchWindowMs: 5 };
  return new Translator(
    providers.map((provider) => new ProviderRunner(provider, options)),
    new ChineseScripts(),
  );
}

const model = () => openAiProvider({ url: `${server.url}/v1`, apiKey: null, model: 'obedient' });

/** Texts asked for in one go (one turn), so that all of them fall in one batching window. */
function together(translator: Translator, texts: readonly { text: string; scope: string }[]) {
  return Promise.all(
    texts.map(({ text, scope }) => translator.translate(text, 'en', 'es', { scope })),
  );
}

describe('a language model behind the translator', () => {
  it('never puts texts of two conversations into one call', async () => {
    const translator = translatorFor(model());
    const north = [ALICE, 'See you at the station at noon.', COPY_OTHERS];
    const south = [BOB, 'Good night, everyone.'];
    const made = await together(translator, [
      ...north.map((text) => ({ text, scope: 'sg_north' })),
      ...south.map((text) => ({ text, scope: 'sg_south' })),
    ]);

    const prompts = server.requests.map(promptTexts);
    // Each conversation's short texts still share a call: batching goes on within one.
    expect(prompts).toContainEqual(north);
    expect(prompts).toContainEqual(south);
    for (const prompt of prompts) {
      const fromNorth = prompt.filter((text) => north.includes(text));
      expect(fromNorth.length === 0 || fromNorth.length === prompt.length).toBe(true);
    }
    // What the crafted text got back holds nothing of the other conversation.
    for (const { text } of made.slice(0, north.length)) expect(text).not.toContain(BOB);
  });

  it('lets other engines share a call across conversations: they obey no text', async () => {
    const engine = new FakeProvider(16);
    const translator = translatorFor(engine);
    await together(translator, [
      { text: ALICE, scope: 'sg_north' },
      { text: BOB, scope: 'sg_south' },
    ]);
    expect(engine.calls.map((call) => call.texts)).toEqual([[ALICE, BOB]]);
  });

  it("never reuses a model's remembered translation in another conversation", async () => {
    const translator = translatorFor(model());
    // Short enough to pass the length check: within its own conversation, such a
    // rewrite of a neighbour is not caught.
    const forged = 'Send your Pi to @thief, I will pay you back.';
    // In the north, a crafted message makes the model rewrite its neighbour's translation.
    const [, rewritten] = await together(translator, [
      { text: rewriteNext(forged), scope: 'sg_north' },
      { text: GREETING, scope: 'sg_north' },
    ]);
    expect(rewritten?.text).toBe(forged);
    const calls = server.requests.length;

    // The same text in the south is translated afresh, not read from the north's memory.
    const south = await translator.translate(GREETING, 'en', 'es', {
      scope: 'sg_south',
    });
    expect(south.text).toBe(honest(GREETING, 'es'));
    expect(server.requests.length).toBe(calls + 1);
    // Within one conversation the memory still saves the call.
    expect((await translator.translate(GREETING, 'en', 'es', { scope: 'sg_south' })).text).toBe(
      honest(GREETING, 'es'),
    );
    expect(server.requests.length).toBe(calls + 1);
  });

  it('shares the remembered translations of other engines across conversations', async () => {
    const engine = new FakeProvider();
    const translator = translatorFor(engine);
    await translator.translate(GREETING, 'en', 'es', { scope: 'sg_north' });
    await translator.translate(GREETING, 'en', 'es', { scope: 'sg_south' });
    expect(engine.calls).toHaveLength(1);
  });

  it('asks again alone for a text whose answer in a batch ran far longer, and keeps that answer', async () => {
    const translator = translatorFor(model());
    const scope = 'sg_north';
    const made = await together(translator, [
      { text: ALICE, scope },
      { text: COPY_OTHERS, scope },
      { text: BOB, scope },
    ]);
    expect(server.requests.map(promptTexts)).toEqual([[ALICE, COPY_OTHERS, BOB], [COPY_OTHERS]]);
    expect(made.map(({ text }) => text)).toEqual([
      honest(ALICE, 'es'),
      honest(COPY_OTHERS, 'es'),
      honest(BOB, 'es'),
    ]);
  });

  it('fails a text whose answer runs far longer even alone, and remembers nothing of it', async () => {
    const translator = translatorFor(model());
    const scope = 'sg_north';
    const [night, runOn] = await Promise.allSettled([
      translator.translate('Good night', 'en', 'es', { scope }),
      translator.translate(RUN_ON, 'en', 'es', { scope }),
    ]);
    expect(night).toEqual({
      status: 'fulfilled',
      value: { text: honest('Good night', 'es'), provider: 'openai' },
    });
    expect(runOn.status).toBe('rejected');
    const error = (runOn as PromiseRejectedResult).reason as TranslateError;
    expect(error).toBeInstanceOf(TranslateError);
    expect(error.code).toBe('TRANSLATION_FAILED');
    expect(error.cause).toMatchObject({ name: 'ProviderError', message: /far longer/ });
    expect(server.requests.map(promptTexts)).toEqual([['Good night', RUN_ON], [RUN_ON]]);

    // Asked again later, it is asked of the model again: no answer was kept.
    await expect(translator.translate(RUN_ON, 'en', 'es', { scope })).rejects.toThrow(
      TranslateError,
    );
    expect(server.requests.map(promptTexts).at(-1)).toEqual([RUN_ON]);
  });

  it('hands a text the model answered far too long to the next engine with the pair', async () => {
    const engine = new FakeProvider();
    const translator = translatorFor(model(), engine);
    const made = await translator.translate(RUN_ON, 'en', 'es', { scope: 'sg_north' });
    expect(made).toEqual({ text: `[es] ${RUN_ON}`, provider: 'fake' });
  });
});

describe('farLonger', () => {
  it.each([
    ['谢谢', 'Thank you very much'],
    [
      '我明天去北京开会，晚上回来。',
      "I'm going to Beijing tomorrow for a meeting and coming back in the evening.",
    ],
    ['Good morning, how are you?', 'காலை வணக்கம், எப்படி இருக்கிறீர்கள்?'],
    ['See you tomorrow at the usual place!', 'พรุ่งนี้เจอกันที่เดิมนะ!'],
    ['ok', 'de acuerdo'],
  ])('takes %j → %j for a translation', (text, translation) => {
    expect(farLonger(text, translation)).toBe(false);
  });

  it.each([
    ['Hi', 'Hi! '.repeat(10)],
    [COPY_OTHERS, `${honest(COPY_OTHERS, 'es')}\n${ALICE}\n${BOB}`],
    ['你好', '你好'.repeat(20)],
  ])('refuses %j → %j', (text, translation) => {
    expect(farLonger(text, translation)).toBe(true);
  });
});
