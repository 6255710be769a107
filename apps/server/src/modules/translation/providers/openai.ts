import { findLanguage } from '@teltlk/protocol';
import { isRecord, isStringArray, joinUrl, malformed, postJson, type HttpEngine } from './http.js';
import { ProviderError, type TranslationProvider } from './provider.js';

export interface OpenAiProviderOptions {
  /** Base URL including the version path, e.g. `http://127.0.0.1:11434/v1`. */
  url: string;
  /** Sent as a bearer token; null for local servers that take none. */
  apiKey: string | null;
  model: string;
  fetch?: typeof fetch;
}

/**
 * Texts per request: enough to amortise the prompt, few enough that a small local model
 * still answers an array of the right length.
 */
export const OPENAI_MAX_BATCH = 16;

const RULES = [
  'Keep emoji, @mentions, URLs, e-mail addresses, numbers and line breaks exactly as they are.',
  'Do not add notes, quotes or explanations.',
];

/** A ```json … ``` (or bare ```) fence around the whole answer, which chat models like to add. */
const FENCE = /^```(?:json)?\s*([\s\S]*?)\s*```$/i;

/**
 * A chat-completions engine (OpenAI, or any server speaking its API: Ollama, vLLM,
 * llama.cpp). A language model translates between any two languages it is told the names
 * of, so every pair of product languages is supported.
 */
export function openAiProvider(options: OpenAiProviderOptions): TranslationProvider {
  const engine: HttpEngine = { name: 'openai', fetch: options.fetch ?? fetch };
  const url = joinUrl(options.url, 'chat/completions');
  const headers: Record<string, string> = options.apiKey
    ? { authorization: `Bearer ${options.apiKey}` }
    : {};

  /** One chat completion: the system prompt and one user message in, the answer text out. */
  async function complete(system: string, user: string, signal: AbortSignal): Promise<string> {
    const body = {
      model: options.model,
      temperature: 0,
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: user },
      ],
    };
    return answerContent(await postJson(engine, url, body, signal, headers));
  }

  async function translateOne(text: string, from: string, to: string, signal: AbortSignal) {
    const system = [
      `Translate the user's chat message from ${from} to ${to}.`,
      ...RULES,
      'Answer with the translation only.',
    ].join('\n');
    const translation = (await complete(system, text, signal)).trim();
    // Nothing back for a real message is a failure: an empty translation would hide it.
    if (!translation && text.trim()) throw malformed('openai', 'an empty translation');
    return translation;
  }

  /**
   * All texts in one request as a JSON array. A model that answers anything but an array
   * of as many (non-empty) strings gets each text on its own instead: slower, but every
   * text still gets its own translation, in order.
   */
  async function translateBatch(
    texts: readonly string[],
    from: string,
    to: string,
    signal: AbortSignal,
  ): Promise<string[]> {
    const system = [
      `Translate each chat message of the JSON array the user sends from ${from} to ${to}.`,
      ...RULES,
      `Answer with a JSON array of exactly ${texts.length} strings only: the translations, in the same order.`,
    ].join('\n');
    const batch = parseBatch(await complete(system, JSON.stringify(texts), signal), texts);
    if (batch) return batch;
    const translations: string[] = [];
    for (const text of texts) translations.push(await translateOne(text, from, to, signal));
    return translations;
  }

  return {
    name: 'openai',
    maxBatch: OPENAI_MAX_BATCH,
    llm: true,
    supports(from, to) {
      return Promise.resolve(from !== to && !!findLanguage(from) && !!findLanguage(to));
    },
    coverage: () => Promise.resolve('any'),
    async translate(texts, from, to, signal) {
      const source = promptName(from);
      const target = promptName(to);
      if (!source || !target || from === to) {
        throw new ProviderError(`openai does not translate ${from} to ${to}`, false);
      }
      if (texts.length === 0) return [];
      const [only] = texts;
      if (texts.length === 1 && only !== undefined) {
        return [await translateOne(only, source, target, signal)];
      }
      return translateBatch(texts, source, target, signal);
    },
  };
}

/** How a language is named to the model: its English name, with the code to settle ambiguity. */
function promptName(code: string): string | undefined {
  const language = findLanguage(code);
  return language && `${language.english} (${language.code})`;
}

/** `choices[0].message.content` of a chat completion. */
function answerContent(body: unknown): string {
  const choices = isRecord(body) ? body.choices : undefined;
  const choice: unknown = Array.isArray(choices) ? choices[0] : undefined;
  const message = isRecord(choice) ? choice.message : undefined;
  const content = isRecord(message) ? message.content : undefined;
  if (typeof content !== 'string') throw malformed('openai', 'no message content');
  return content;
}

/**
 * The translations of a batch answer, trimmed: an array of one string per text, none
 * empty unless its text is blank. Undefined when the answer is anything else.
 */
function parseBatch(content: string, texts: readonly string[]): string[] | undefined {
  const trimmed = content.trim();
  const json = FENCE.exec(trimmed)?.[1] ?? trimmed;
  let parsed: unknown;
  try {
    parsed = JSON.parse(json) as unknown;
  } catch {
    return undefined;
  }
  if (!isStringArray(parsed) || parsed.length !== texts.length) return undefined;
  const translations = parsed.map((translation) => translation.trim());
  const answered = translations.every((translation, index) => translation || !texts[index]?.trim());
  return answered ? translations : undefined;
}
