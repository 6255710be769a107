import { isLanguageCode, LANGUAGES } from '@teltlk/protocol';
import { MINUTE, SECOND, systemClock, type Clock } from '../../../lib/clock.js';
import { ProviderError, type Coverage } from './provider.js';

/** How long an engine's list of language pairs is trusted: engines gain pairs only on redeploy. */
export const PAIRS_TTL_MS = 10 * MINUTE;
/** How long an engine that could not be asked supports nothing before it is asked again. */
export const PAIRS_RETRY_MS = 30 * SECOND;

/**
 * The language pairs an engine lists, asked once and shared by every caller until they
 * expire, so `supports` costs no request on the hot path.
 */
export interface LanguagePairCache<T> {
  /**
   * The engine's pairs; null while it cannot be reached, or when `signal` aborts first.
   * Never rejects: an engine that cannot answer simply supports nothing for a while.
   */
  get(signal?: AbortSignal): Promise<T | null>;
}

interface Lookup<T> {
  readonly controller: AbortController;
  readonly promise: Promise<T | null>;
  /** Callers still waiting; the request is abandoned only once all of them have given up. */
  waiters: number;
}

/**
 * Caches what `load` answers for PAIRS_TTL_MS, and a failure (any rejection) for
 * PAIRS_RETRY_MS. Concurrent callers share one request. A caller whose signal aborts stops
 * waiting at once; the request itself is aborted (and nothing cached) only when every
 * caller waiting for it has aborted, so one impatient caller cannot mark the engine down.
 */
export function languagePairCache<T>(
  load: (signal: AbortSignal) => Promise<T>,
  clock: Clock = systemClock,
): LanguagePairCache<T> {
  let known: { value: T | null; until: number } | undefined;
  let lookup: Lookup<T> | undefined;

  function remember(controller: AbortController, value: T | null, ttl: number): T | null {
    // A lookup abandoned by all its callers was already forgotten; its outcome says nothing.
    if (lookup?.controller === controller) {
      lookup = undefined;
      known = { value, until: clock.now() + ttl };
    }
    return value;
  }

  function start(): Lookup<T> {
    const controller = new AbortController();
    const promise = Promise.resolve()
      .then(() => load(controller.signal))
      .then(
        (value) => remember(controller, value, PAIRS_TTL_MS),
        () => remember(controller, null, PAIRS_RETRY_MS),
      );
    return { controller, promise, waiters: 0 };
  }

  function wait(current: Lookup<T>, signal: AbortSignal | undefined): Promise<T | null> {
    current.waiters += 1;
    // Without a signal the caller waits for the answer, and so keeps the request alive.
    if (!signal) return current.promise;
    return new Promise((resolve) => {
      const giveUp = () => {
        current.waiters -= 1;
        if (current.waiters === 0) {
          if (lookup === current) lookup = undefined;
          current.controller.abort(signal.reason);
        }
        resolve(null);
      };
      signal.addEventListener('abort', giveUp, { once: true });
      void current.promise.then((value) => {
        signal.removeEventListener('abort', giveUp);
        resolve(value);
      });
    });
  }

  return {
    get(signal) {
      if (known && clock.now() < known.until) return Promise.resolve(known.value);
      if (signal?.aborted) return Promise.resolve(null);
      lookup ??= start();
      return wait(lookup, signal);
    },
  };
}

export interface EnginePairsOptions<T, P extends object> {
  /** The provider's name, for error messages. */
  name: string;
  /** Asks the engine which pairs it has. */
  load: (signal: AbortSignal) => Promise<T>;
  /** The engine's codes for two different product languages, if the engine lists that pair. */
  find: (listed: T, from: string, to: string) => P | undefined;
  /** The engine's likeliest codes for a pair, for when its list cannot be had. */
  guess: (from: string, to: string) => P | undefined;
  clock?: Clock;
}

/** The pairs of an engine that lists them, in product codes. */
export interface EnginePairs<P extends object> {
  /** See TranslationProvider.supports: false for unknown codes, a language to itself, or an engine that cannot be reached. */
  readonly supports: (from: string, to: string, signal?: AbortSignal) => Promise<boolean>;
  /**
   * The engine's codes for `from` → `to`. Without the list the guess is used: the translate
   * request is worth one attempt and the engine has the last word. Rejects with a
   * ProviderError (not retryable) for a pair the engine does not have.
   */
  readonly resolve: (from: string, to: string, signal: AbortSignal) => Promise<P>;
  /** Every product pair the engine lists (see TranslationProvider.coverage). */
  readonly coverage: (signal?: AbortSignal) => Promise<Coverage>;
}

export function enginePairs<T, P extends object>(
  options: EnginePairsOptions<T, P>,
): EnginePairs<P> {
  const cache = languagePairCache(options.load, options.clock);

  async function lookUp(from: string, to: string, signal?: AbortSignal) {
    if (from === to || !isLanguageCode(from) || !isLanguageCode(to)) return undefined;
    const listed = await cache.get(signal);
    return listed === null ? null : options.find(listed, from, to);
  }

  return {
    supports: async (from, to, signal) => !!(await lookUp(from, to, signal)),
    coverage: async (signal) => {
      const listed = await cache.get(signal);
      if (listed === null) return null;
      return LANGUAGES.flatMap(({ code: from }) =>
        LANGUAGES.flatMap(({ code: to }) =>
          from !== to && options.find(listed, from, to) ? [[from, to] as const] : [],
        ),
      );
    },
    resolve: async (from, to, signal) => {
      const found = await lookUp(from, to, signal);
      const pair = found === null ? options.guess(from, to) : found;
      if (pair === undefined) {
        throw new ProviderError(`${options.name} does not translate ${from} to ${to}`, false);
      }
      return pair;
    },
  };
}
