import type { ConverterFunction, DictGroup } from 'opencc-js/core';

/**
 * Chinese in its two scripts. The mother tongues name them `zh` (Simplified, as written
 * in mainland China and Singapore) and `zh-Hant` (Traditional, as in Taiwan, Hong Kong
 * and Macau). Between them a text is converted, not translated: OpenCC's tables do it
 * locally, exactly and at no cost, with regional phrasing where it differs ("鼠标" is
 * "滑鼠" in Taiwan).
 */
export const SIMPLIFIED = 'zh';
export const TRADITIONAL = 'zh-Hant';
export type ChineseLanguage = typeof SIMPLIFIED | typeof TRADITIONAL;

/** Whether a language is Chinese in one of its two scripts, which convert into each other. */
export function isChineseScript(lang: string | null): lang is ChineseLanguage {
  return lang === SIMPLIFIED || lang === TRADITIONAL;
}

/**
 * The script a Chinese text is written in: `either` when it has no character that differs
 * between the two (or as many of each), so any Chinese reader reads it as it is.
 */
export type ChineseScript = 'simplified' | 'traditional' | 'either';

/** The language a text in this script reads as. */
export function languageOfScript(script: Exclude<ChineseScript, 'either'>): ChineseLanguage {
  return script === 'simplified' ? SIMPLIFIED : TRADITIONAL;
}

/**
 * Where the writer of a Traditional text lives, which decides its phrasing: Hong Kong
 * ("軟件", "的士") or Taiwan ("軟體", "計程車").
 */
export type TraditionalRegion = 'tw' | 'hk';

/** The region of a Traditional text, by its writer's country (ISO 3166 code). */
export function regionOf(country: string | null | undefined): TraditionalRegion {
  return country === 'HK' || country === 'MO' ? 'hk' : 'tw';
}

/** The script of a long text is told by its start, which also bounds the work. */
const SCRIPT_CHARACTERS_MAX = 1000;

const HAN = /\p{Script=Han}/u;

/** OpenCC's converter configurations, with the normalisation step its type leaves out. */
interface ConverterConfig {
  normalizationChain?: readonly DictGroup[];
  segmentation: DictGroup;
  conversionChain: readonly DictGroup[];
}

/** The converters, built from OpenCC's tables once they are first needed. */
interface Tables {
  /**
   * Simplified → OpenCC's standard Traditional, phrase by phrase; its changes are the
   * characters that are Simplified only.
   */
  toStandardTraditional: ConverterFunction;
  /** Simplified → Traditional as written in Taiwan, with Taiwan's phrasing (`s2twp`). */
  toTaiwan: ConverterFunction;
  /** Traditional → Simplified; its changes are the characters that are Traditional only. */
  toSimplified: ConverterFunction;
  /** Traditional of each region, with its phrasing, → Simplified as written in mainland China. */
  fromRegion: Record<TraditionalRegion, ConverterFunction>;
}

/**
 * Script detection and conversion. The tables are large (about 50 MB of heap once built,
 * most of it the Simplified phrase dictionary) and take most of a second to build, on the
 * event loop: the server builds them before it listens (`preload`), so no message waits
 * for them; elsewhere they are built on the first Chinese text.
 */
export class ChineseScripts {
  private tables: Promise<Tables> | null = null;

  /** Builds the tables now rather than on the first Chinese text. */
  async preload(): Promise<void> {
    await this.load();
  }

  /** The script of a text; `either` for a text without Chinese characters. */
  async scriptOf(text: string): Promise<ChineseScript> {
    if (!HAN.test(text)) return 'either';
    const start = text.slice(0, SCRIPT_CHARACTERS_MAX);
    const tables = await this.load();
    const simplified = changedCharacters(start, tables.toStandardTraditional(start));
    const traditional = changedCharacters(start, tables.toSimplified(start));
    if (simplified > traditional) return 'simplified';
    return traditional > simplified ? 'traditional' : 'either';
  }

  /**
   * A text in the other script: Traditional with Taiwan's phrasing, or Simplified from
   * the phrasing of the writer's region.
   */
  async convert(
    text: string,
    to: ChineseLanguage,
    region: TraditionalRegion = 'tw',
  ): Promise<string> {
    const tables = await this.load();
    return to === TRADITIONAL ? tables.toTaiwan(text) : tables.fromRegion[region](text);
  }

  private load(): Promise<Tables> {
    this.tables ??= buildTables();
    return this.tables;
  }
}

async function buildTables(): Promise<Tables> {
  const [{ ConverterBuilder, ConverterFactory, Trie }, preset] = await Promise.all([
    import('opencc-js/core'),
    import('opencc-js/preset'),
  ]);
  const converter = ConverterBuilder(preset);
  // `s2twp` as OpenCC runs it (normalise, segment by Simplified phrases, convert each
  // segment to standard Traditional, then to Taiwan's), built here so that the standard
  // Traditional step and the whole share the large phrase tables.
  const config = preset.configs.s2twp as unknown as ConverterConfig;
  const [standard, taiwan] = config.conversionChain;
  if (!standard || !taiwan) throw new Error('OpenCC has no s2twp conversion chain');
  const normalize = config.normalizationChain
    ? ConverterFactory(...config.normalizationChain)
    : (text: string) => text;
  const segmentation = new Trie();
  segmentation.loadDictGroup(config.segmentation);
  const toStandard = new Trie();
  toStandard.loadDictGroup(standard);
  const toTaiwanPhrasing = new Trie();
  toTaiwanPhrasing.loadDictGroup(taiwan);
  const segmented =
    (step: (segment: string) => string): ConverterFunction =>
    (text) =>
      segmentation.segment(normalize(text)).map(step).join('');
  return {
    toStandardTraditional: segmented((segment) => toStandard.convert(segment)),
    toTaiwan: segmented((segment) => toTaiwanPhrasing.convert(toStandard.convert(segment))),
    toSimplified: converter({ from: 't', to: 'cn' }),
    fromRegion: {
      tw: converter({ from: 'twp', to: 'cn' }),
      hk: converter({ from: 'hkp', to: 'cn' }),
    },
  };
}

/**
 * How many characters a conversion changed. Character tables map one character to one;
 * where a phrase changed length, every character past the common start counts.
 */
function changedCharacters(before: string, after: string): number {
  const a = Array.from(before);
  const b = Array.from(after);
  let changed = Math.abs(a.length - b.length);
  const common = Math.min(a.length, b.length);
  for (let index = 0; index < common; index += 1) if (a[index] !== b[index]) changed += 1;
  return changed;
}
