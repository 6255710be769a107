import type { ErrorCode } from '@teltlk/protocol';
import {
  isChineseScript,
  type ChineseLanguage,
  type ChineseScripts,
  type TraditionalRegion,
} from './chinese.js';
import { BATCH_TEXT_MAX, type ProviderRunner } from './runner.js';

/** The name stored with a translation that is a conversion between Chinese scripts. */
export const CONVERSION_PROVIDER = 'opencc';

/** Whether a pair is Chinese from one script into the other: converted, never translated. */
export function isConversion(from: string, to: string): to is ChineseLanguage {
  return from !== to && isChineseScript(from) && isChineseScript(to);
}

/** Why no provider translated a text: none has the pair, or every one that has it failed. */
export class TranslateError extends Error {
  override name = 'TranslateError';
  constructor(
    readonly code: Extract<ErrorCode, 'TRANSLATION_UNAVAILABLE' | 'TRANSLATION_FAILED'>,
    options?: { cause?: unknown },
  ) {
    super(code, options);
  }
}

/**
 * Recently made short translations kept in memory: the same "hello" is one call. Those
 * of a language model are kept per scope (conversation): a text in its prompt may have
 * told it to rewrite a neighbour's translation, which must not reach another
 * conversation where that neighbour's text is written again. Other engines translate
 * each text alike wherever it comes from, so theirs are shared.
 */
const RECENT_MAX = 5000;

/** How one text is asked for. */
export interface TranslateOptions {
  /**
   * Whose texts may share a language model's call and its remembered translations: the
   * conversation's id, or the user's own for their drafts. Never empty.
   */
  scope: string;
  /** Skip what is remembered (retranslate). */
  fresh?: boolean;
  /** Where the writer of a Traditional text lives, for its conversion into Simplified. */
  region?: TraditionalRegion;
}

/**
 * The provider chain: the first provider, in configured order, that has the language
 * pair translates; when it fails for good, the next one that has the pair is tried.
 * Chinese into its other script comes before any provider, and needs none: it is
 * converted here, and not remembered, since converting again costs less than a look-up.
 */
export class Translator {
  private readonly recent = new Map<string, { text: string; provider: string }>();

  constructor(
    private readonly runners: readonly ProviderRunner[],
    private readonly scripts: ChineseScripts,
  ) {}

  /** Whether any provider is configured: without one only Chinese scripts are converted. */
  get available(): boolean {
    return this.runners.length > 0;
  }

  /** The configured providers, in the order they are tried. */
  get providers(): readonly ProviderRunner['provider'][] {
    return this.runners.map((runner) => runner.provider);
  }

  /**
   * Whether a pair may be translated at all: false only when no provider is configured
   * and the pair is no conversion (whether a provider has the pair is theirs to say).
   */
  mayTranslate(from: string, to: string): boolean {
    return this.available || isConversion(from, to);
  }

  /** Whether a text in `from` may be translated into anything (see `mayTranslate`). */
  mayTranslateFrom(from: string): boolean {
    return this.available || isChineseScript(from);
  }

  async translate(
    text: string,
    from: string,
    to: string,
    { scope, fresh = false, region }: TranslateOptions,
  ): Promise<{ text: string; provider: string }> {
    // An empty scope is where the entries every scope shares are kept.
    if (!scope) throw new Error('a translation needs a scope');
    if (isConversion(from, to)) {
      return {
        text: await this.scripts.convert(text, to, region),
        provider: CONVERSION_PROVIDER,
      };
    }
    const short = text.length <= BATCH_TEXT_MAX;
    const keyIn = (within: string) => `${within}\n${from}\n${to}\n${text}`;
    if (short && !fresh) {
      for (const key of [keyIn(scope), keyIn('')]) {
        const known = this.recent.get(key);
        if (!known) continue;
        // Most recently used last: the oldest entry is the first to go.
        this.recent.delete(key);
        this.recent.set(key, known);
        return known;
      }
    }
    let failure: unknown = null;
    for (const runner of this.runners) {
      const supported = await runner.provider.supports(from, to).catch(() => false);
      if (!supported) continue;
      try {
        const made = {
          text: await runner.translate(text, from, to, scope),
          provider: runner.provider.name,
        };
        if (short) this.remember(keyIn(runner.provider.llm ? scope : ''), made);
        return made;
      } catch (error) {
        failure = error;
      }
    }
    if (failure === null) throw new TranslateError('TRANSLATION_UNAVAILABLE');
    throw new TranslateError('TRANSLATION_FAILED', { cause: failure });
  }

  private remember(key: string, made: { text: string; provider: string }): void {
    this.recent.set(key, made);
    if (this.recent.size > RECENT_MAX) {
      const oldest = this.recent.keys().next();
      if (!oldest.done) this.recent.delete(oldest.value);
    }
  }
}
