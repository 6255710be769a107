import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { TextThread, TurnBatch } from './text-thread.js';

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

/**
 * OpenCC's tables and what is done with them, run on their thread. Questions:
 * `['script', text]` answers the text's script; `['traditional', text]` converts into
 * Traditional with Taiwan's phrasing; `['tw' | 'hk', text]` into Simplified from that
 * region's phrasing.
 *
 * The tables are built as OpenCC builds them, except `s2twp` (normalise, segment by
 * Simplified phrases, convert each segment to standard Traditional, then to Taiwan's):
 * built here so that the standard Traditional step, which tells Simplified characters,
 * and the whole share the large phrase tables.
 */
const SCRIPTS_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');

// How many characters a conversion changed. Character tables map one character to one;
// where a phrase changed length, every character past the common start counts.
function changedCharacters(before, after) {
  const a = Array.from(before);
  const b = Array.from(after);
  let changed = Math.abs(a.length - b.length);
  const common = Math.min(a.length, b.length);
  for (let index = 0; index < common; index += 1) if (a[index] !== b[index]) changed += 1;
  return changed;
}

function build({ ConverterBuilder, ConverterFactory, Trie }, preset) {
  const converter = ConverterBuilder(preset);
  const config = preset.configs.s2twp;
  const [standard, taiwan] = config.conversionChain;
  if (!standard || !taiwan) throw new Error('OpenCC has no s2twp conversion chain');
  const normalize = config.normalizationChain
    ? ConverterFactory(...config.normalizationChain)
    : (text) => text;
  const trie = (group) => {
    const built = new Trie();
    built.loadDictGroup(group);
    return built;
  };
  const segmentation = trie(config.segmentation);
  const toStandard = trie(standard);
  const toTaiwanPhrasing = trie(taiwan);
  const segmented = (step) => (text) => segmentation.segment(normalize(text)).map(step).join('');
  const toStandardTraditional = segmented((segment) => toStandard.convert(segment));
  const toSimplified = converter({ from: 't', to: 'cn' });
  return {
    script(text) {
      const simplified = changedCharacters(text, toStandardTraditional(text));
      const traditional = changedCharacters(text, toSimplified(text));
      if (simplified > traditional) return 'simplified';
      return traditional > simplified ? 'traditional' : 'either';
    },
    traditional: segmented((segment) => toTaiwanPhrasing.convert(toStandard.convert(segment))),
    tw: converter({ from: 'twp', to: 'cn' }),
    hk: converter({ from: 'hkp', to: 'cn' }),
  };
}

Promise.all([import(workerData.core), import(workerData.preset)]).then(([core, preset]) => {
  const tables = build(core, preset);
  parentPort.on('message', ({ id, questions }) => {
    try {
      parentPort.postMessage({ id, answers: questions.map(([what, text]) => tables[what](text)) });
    } catch (error) {
      parentPort.postMessage({ id, error: String(error) });
    }
  });
});
`;

type ScriptQuestion = ['script' | 'traditional' | TraditionalRegion, string];

/** Where OpenCC's modules are, for the thread's code to import. */
function openccUrls(): { core: string; preset: string } {
  const require = createRequire(import.meta.url);
  return {
    core: pathToFileURL(require.resolve('opencc-js/core')).href,
    preset: pathToFileURL(require.resolve('opencc-js/preset')).href,
  };
}

/**
 * Script detection and conversion. The tables are large (about 50 MB of heap once built,
 * most of it the Simplified phrase dictionary) and take most of a second to build, so
 * they live on a thread of their own: every garbage collection of the event loop's heap
 * would otherwise go through them, and no message waits while they are built. The
 * server starts the thread before it listens (`preload`); elsewhere it starts on the
 * first Chinese text. Texts without Chinese characters never leave the event loop.
 */
export class ChineseScripts {
  private readonly thread: TextThread<ScriptQuestion, string>;
  private readonly turn = new TurnBatch<ScriptQuestion, string>((questions) =>
    this.thread.ask(questions),
  );

  /** `modules`: where OpenCC's modules are (tests give missing ones). */
  constructor(modules: { core: string; preset: string } = openccUrls()) {
    this.thread = new TextThread(SCRIPTS_SOURCE, modules, 'the Chinese script converter');
  }

  /** Builds the tables now rather than on the first Chinese text; fails if they cannot be. */
  async preload(): Promise<void> {
    await this.turn.ask(['script', '中']);
  }

  /**
   * The script of a text; `either` for a text without Chinese characters, and for every
   * text while the thread has failed (it is started again after a while): a send never
   * fails for it, and a Chinese reader reads either script.
   */
  async scriptOf(text: string): Promise<ChineseScript> {
    if (!HAN.test(text)) return 'either';
    const question: ScriptQuestion = ['script', text.slice(0, SCRIPT_CHARACTERS_MAX)];
    return this.turn.ask(question).then(
      (script) => script as ChineseScript,
      () => 'either',
    );
  }

  /**
   * A text in the other script: Traditional with Taiwan's phrasing, or Simplified from
   * the phrasing of the writer's region.
   */
  convert(text: string, to: ChineseLanguage, region: TraditionalRegion = 'tw'): Promise<string> {
    return this.turn.ask([to === TRADITIONAL ? 'traditional' : region, text]);
  }

  /** Ends the thread; texts still being converted get no answer. */
  close(): Promise<void> {
    return this.thread.close();
  }
}
