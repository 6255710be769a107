/** The language pairs of an engine: `[from, to]` in product codes, or any pair at all. */
export type Coverage = readonly (readonly [string, string])[] | 'any' | null;

/**
 * One machine-translation engine behind the translation service. Languages are the
 * product's mother-tongue codes (`LANGUAGES` of the protocol: ISO 639-1 and a few longer
 * ones such as `zh-Hant`, `yue`); each adapter maps them to its engine's own codes.
 * Timeouts, concurrency, retries and batching by time are the service's: an adapter makes
 * one attempt per call and honours the signal it is given.
 */
export interface TranslationProvider {
  /** Short stable name, stored with each translation it made (`openai`, `libretranslate`, `apertium`). */
  readonly name: string;
  /** Most texts one call takes; 1 when the engine translates one text per request. */
  readonly maxBatch: number;
  /**
   * Whether the engine is a language model. A model reads the texts it translates as part
   * of its prompt and may follow instructions written in them, so one text can change or
   * copy the others of its call: the service never puts texts of different conversations
   * into one call, keeps its translations per conversation, and refuses answers far
   * longer than their text. Rule-based and neural MT engines translate each text on its
   * own and alike everywhere.
   */
  readonly llm: boolean;
  /**
   * Whether it translates `from` → `to`. Adapters that learn their pairs from the engine
   * ask it once and keep the answer for a while; an engine that cannot be reached
   * supports nothing until it answers again.
   */
  supports(from: string, to: string, signal?: AbortSignal): Promise<boolean>;
  /**
   * Every pair it translates, in product codes, for the start-up report: `any` for an
   * engine that takes any two languages, null when the engine cannot be reached.
   */
  coverage(signal?: AbortSignal): Promise<Coverage>;
  /**
   * Translates `texts` (at most `maxBatch`) from `from` to `to`, answering one text per
   * input, in order. Rejects with a ProviderError.
   */
  translate(
    texts: readonly string[],
    from: string,
    to: string,
    signal: AbortSignal,
  ): Promise<string[]>;
}

/** A failed provider call. `retryable`: the same call may succeed later (network, timeout, 429, 5xx). */
export class ProviderError extends Error {
  override name = 'ProviderError';
  constructor(
    message: string,
    readonly retryable: boolean,
    /** The HTTP status, when the engine answered. */
    readonly status?: number,
  ) {
    super(message);
  }
}
