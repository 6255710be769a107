import { isLanguageCode } from '@teltlk/protocol';
import { isChineseScript, languageOfScript, TRADITIONAL, type ChineseScript } from './chinese.js';
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { availableParallelism } from 'node:os';
import { TextThread, TurnBatch } from './text-thread.js';

/**
 * The source language of a message, detected when it is sent. The detector (ELD: n-gram
 * statistics over 60 languages) is asked about the words alone; links, e-mail addresses
 * and @mentions say nothing of the language. Short or mixed texts it cannot call
 * reliably ("ok", "gracias") are taken to be in the sender's mother tongue, the best
 * guess there is; so is a detected language that is the sender's own written another
 * way (`nb` for `no`). Chinese is named by its script, read from the characters
 * (`chinese.ts`), since the detector does not tell them apart.
 *
 * Detection costs tens of microseconds a text, as much as the rest of a send, so it runs
 * on worker threads of its own, a batch of texts at a time: the thread that accepts and
 * delivers messages never spends time on it (nor holds the detector's tables in its heap).
 */

/** What the detector said of one text: its language and whether it is sure. */
export type Guess = { language: string; reliable: boolean } | null;

/** The start of a long text tells its language as well as the whole. */
const DETECT_CHARACTERS_MAX = 200;

/** Codes the detector answers that the mother-tongue list spells differently. */
const DETECTOR_CODES: Readonly<Record<string, string>> = { tl: 'fil' };

/** Languages the detector cannot tell from the one it names. */
const SAME_WRITING: Readonly<Record<string, readonly string[]>> = {
  no: ['nb', 'nn'],
  sr: ['bs', 'hr'],
  ms: ['id'],
};

const NOISE = /(?:https?:\/\/|www\.)\S+|\S+@\S+\.\S+|@\S+/giu;
const LETTER = /\p{L}/u;

/** The words of a text the detector looks at, or null when it has none. */
function wordsOf(text: string): string | null {
  const words = text.slice(0, DETECT_CHARACTERS_MAX * 2).replace(NOISE, ' ');
  return LETTER.test(words) ? words.slice(0, DETECT_CHARACTERS_MAX) : null;
}

/**
 * The language of a text as a mother-tongue code, from the detector's guess: null when it
 * holds no words to translate (only emoji, numbers, links). `fallback`: the sender's
 * mother tongue. `script`: the text's Chinese script (`ChineseScripts.scriptOf`).
 */
export function languageOf(
  guess: Guess,
  fallback: string | null,
  script: ChineseScript = 'either',
): string | null {
  if (guess === null) return null;
  const detected = DETECTOR_CODES[guess.language] ?? guess.language;
  const sure = !!detected && isLanguageCode(detected) && guess.reliable;
  // Characters of one script only are Chinese however short the text.
  const chinese =
    (detected === 'zh' && (sure || script !== 'either')) ||
    (!sure && (isChineseScript(fallback) || fallback === 'yue'));
  if (chinese) return chineseLanguageOf(script, fallback);
  if (!sure) return fallback;
  if (fallback && SAME_WRITING[detected]?.includes(fallback)) return fallback;
  return detected;
}

/**
 * Chinese named by its script. A Cantonese speaker's Traditional text stays Cantonese; a
 * text readable in either script is in the sender's own variety, if Chinese, else in
 * Simplified (a short one from someone of another tongue, "ok", stays theirs).
 */
function chineseLanguageOf(script: ChineseScript, fallback: string | null): string {
  if (script === 'simplified') return languageOfScript(script);
  if (fallback === 'yue') return fallback;
  if (script === 'traditional') return TRADITIONAL;
  return isChineseScript(fallback) ? fallback : languageOfScript('simplified');
}

/** The detector's code, run on its thread: answers `[language, reliable]` per text. */
const DETECTOR_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
import(workerData.detector).then(({ eld }) => {
  parentPort.on('message', ({ id, questions }) => {
    const answers = questions.map((text) => {
      const result = eld.detect(text);
      return [result.language, result.isReliable()];
    });
    parentPort.postMessage({ id, answers });
  });
});
`;

/**
 * The detector's smallest table set. The package exports it to `import` only, which a
 * worker's eval'd code cannot resolve from here, so it is found the way Node looks for
 * packages: in each node_modules folder up from this file.
 */
function detectorUrl(): string {
  for (const folder of createRequire(import.meta.url).resolve.paths('eld') ?? []) {
    const file = join(folder, 'eld', 'src', 'entries', 'static.extrasmall.js');
    if (existsSync(file)) return pathToFileURL(file).href;
  }
  throw new Error('the language detector (package eld) is not installed');
}

/**
 * Threads a detector runs on: one per core the event loop leaves free (at least one, at
 * most four: a thread detects tens of thousands of short texts a second).
 */
export function detectorThreadCount(): number {
  return Math.max(1, Math.min(4, availableParallelism() - 1));
}

/**
 * Detects languages on a pool of worker threads sized to the machine, each started on
 * first use: a turn's texts go to the thread with the fewest questions waiting.
 */
export class LanguageDetector {
  private readonly threads: TextThread<string, [string, boolean]>[];
  /** Texts of this turn, sent to a thread together at its end. */
  private readonly turn = new TurnBatch<string, Guess>((texts) => this.guess(texts));

  /**
   * `tablesUrl`: the detector module the threads import (tests give a broken one);
   * `threads`: how many threads at most.
   */
  constructor(tablesUrl: string = detectorUrl(), threads: number = detectorThreadCount()) {
    this.threads = Array.from(
      { length: Math.max(1, threads) },
      () => new TextThread(DETECTOR_SOURCE, { detector: tablesUrl }, 'the language detector'),
    );
  }

  /**
   * The guess for one text. Texts asked for in the same turn of the event loop go to the
   * thread as one batch, so a burst of sends costs one message each way.
   */
  guessOne(text: string): Promise<Guess> {
    return this.turn.ask(text);
  }

  /** The guess for each text, in order. */
  async guess(texts: readonly string[]): Promise<Guess[]> {
    const words = texts.map(wordsOf);
    const wanted = words.filter((text): text is string => text !== null);
    if (wanted.length === 0) return words.map(() => null);
    const answers = await this.ask(wanted);
    let next = 0;
    return words.map((text) => {
      if (text === null) return null;
      const [language, reliable] = answers[next++] ?? ['', false];
      return { language, reliable };
    });
  }

  /** The language of one text (see `languageOf`). */
  async detect(
    text: string,
    fallback: string | null,
    script: ChineseScript = 'either',
  ): Promise<string | null> {
    const [guess] = await this.guess([text]);
    return languageOf(guess ?? null, fallback, script);
  }

  /** How many of the pool's threads are running. */
  get threadsRunning(): number {
    return this.threads.filter((thread) => thread.running).length;
  }

  /** Ends the threads; texts still being detected get no guess. */
  async close(): Promise<void> {
    await Promise.all(this.threads.map((thread) => thread.close()));
  }

  private ask(texts: string[]): Promise<[string, boolean][]> {
    let idlest = this.threads[0]!;
    for (const thread of this.threads) if (thread.load < idlest.load) idlest = thread;
    return idlest.ask(texts);
  }
}
