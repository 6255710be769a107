import type { Clock } from '../../../lib/clock.js';
import {
  getJson,
  isRecord,
  isStringArray,
  joinUrl,
  malformed,
  postJson,
  type HttpEngine,
} from './http.js';
import { enginePairs } from './pair-cache.js';
import type { TranslationProvider } from './provider.js';

export interface LibreTranslateProviderOptions {
  /** Base URL of the server, e.g. `http://127.0.0.1:5000`. */
  url: string;
  /** Sent as `api_key` when set; servers without keys take none. */
  apiKey: string | null;
  fetch?: typeof fetch;
  /** Time source for how long the server's language list is kept. */
  clock?: Clock;
}

/** Texts per request; LibreTranslate translates an array of texts in one call. */
export const LIBRETRANSLATE_MAX_BATCH = 32;

/**
 * LibreTranslate codes a product code may go by, in order of preference; the first one the
 * server lists wins. Chinese changed names across releases (`zh`/`zt`, later
 * `zh-Hans`/`zh-Hant`), Norwegian is listed as Bokmål, Filipino as Tagalog. Every other
 * product code is used as it is.
 */
const ENGINE_CODES: Readonly<Record<string, readonly string[]>> = {
  zh: ['zh', 'zh-Hans'],
  'zh-Hant': ['zt', 'zh-Hant'],
  no: ['no', 'nb'],
  nb: ['nb', 'no'],
  fil: ['fil', 'tl'],
};

/** Each source language the server lists, with its targets (null: the server does not say, so all). */
type LanguageTargets = ReadonlyMap<string, ReadonlySet<string> | null>;

/** A LibreTranslate server (self-hosted or hosted). */
export function libreTranslateProvider(
  options: LibreTranslateProviderOptions,
): TranslationProvider {
  const engine: HttpEngine = { name: 'libretranslate', fetch: options.fetch ?? fetch };
  const pairs = enginePairs({
    name: engine.name,
    load: async (signal) =>
      parseLanguages(await getJson(engine, joinUrl(options.url, 'languages'), signal)),
    find: enginePair,
    guess: preferredPair,
    clock: options.clock,
  });

  return {
    name: 'libretranslate',
    maxBatch: LIBRETRANSLATE_MAX_BATCH,
    llm: false,
    supports: pairs.supports,
    coverage: pairs.coverage,
    async translate(texts, from, to, signal) {
      if (texts.length === 0) return [];
      const pair = await pairs.resolve(from, to, signal);
      const body = {
        q: texts,
        source: pair.source,
        target: pair.target,
        format: 'text',
        ...(options.apiKey ? { api_key: options.apiKey } : {}),
      };
      const answer = await postJson(engine, joinUrl(options.url, 'translate'), body, signal);
      const translated = isRecord(answer) ? answer.translatedText : undefined;
      if (!isStringArray(translated) || translated.length !== texts.length) {
        throw malformed(engine.name, `no translatedText array of ${texts.length}`);
      }
      return translated;
    },
  };
}

function candidates(code: string): readonly string[] {
  return ENGINE_CODES[code] ?? [code];
}

/** The server's codes for a product pair it lists, if it does. */
function enginePair(languages: LanguageTargets, from: string, to: string) {
  for (const source of candidates(from)) {
    const targets = languages.get(source);
    if (targets === undefined) continue;
    for (const target of candidates(to)) {
      if (target !== source && (targets ? targets.has(target) : languages.has(target))) {
        return { source, target };
      }
    }
  }
  return undefined;
}

/** The first-choice codes of a product pair, for when the server's list is unknown. */
function preferredPair(from: string, to: string) {
  const [source] = candidates(from);
  const [target] = candidates(to);
  return source && target ? { source, target } : undefined;
}

/** `GET /languages`: `[{ code, name, targets? }]`. Entries without a code are skipped. */
function parseLanguages(body: unknown): LanguageTargets {
  if (!Array.isArray(body)) {
    throw malformed('libretranslate', 'a language list that is not an array');
  }
  const languages = new Map<string, ReadonlySet<string> | null>();
  for (const entry of body) {
    if (!isRecord(entry) || typeof entry.code !== 'string') continue;
    languages.set(entry.code, isStringArray(entry.targets) ? new Set(entry.targets) : null);
  }
  return languages;
}
