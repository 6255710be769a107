/**
 * The browser's built-in, on-device Translator API, used when the server has no
 * translation provider. Only feature-detected: browsers without it (most of them) get
 * null. Every call to it has a time limit, so nothing waits on it for ever; a language
 * pack still to download is fetched only when the person asks (the browser wants a tap
 * for it), with its progress reported where the browser gives it.
 */

interface DeviceLanguagePair {
  sourceLanguage: string;
  targetLanguage: string;
}

interface CreateMonitor {
  addEventListener(type: 'downloadprogress', listener: (event: ProgressLike) => void): void;
}

/** The `downloadprogress` event: `loaded` of `total` (Chrome gives a fraction of 1). */
interface ProgressLike {
  loaded: number;
  total?: number;
}

interface CreateOptions extends DeviceLanguagePair {
  monitor?: (monitor: CreateMonitor) => void;
  signal?: AbortSignal;
}

interface OnDeviceTranslator {
  translate(text: string, options?: { signal?: AbortSignal }): Promise<string>;
}

/** The part of `globalThis.Translator` this module uses. */
export interface TranslatorApi {
  availability(pair: DeviceLanguagePair): Promise<string>;
  create(options: CreateOptions): Promise<OnDeviceTranslator>;
}

/** Where this device stands on one language pair. */
export type DevicePairState =
  /** Asking the browser, or opening the model (within CALL_TIME_LIMIT_MS). */
  | { kind: 'checking' }
  /** The browser cannot translate the pair. */
  | { kind: 'unavailable' }
  /** It can, once a language pack is downloaded: `download` does, on a tap. */
  | { kind: 'downloadable' }
  /** The pack is downloading; `progress` from 0 to 1 where the browser says. */
  | { kind: 'downloading'; progress: number | null }
  | { kind: 'ready' }
  /** Opening the model or downloading its pack failed or stalled: `retry` tries again. */
  | { kind: 'failed' };

/** How long one call to the browser (availability, opening a model, a translation) may take. */
export const CALL_TIME_LIMIT_MS = 10_000;
/** How long a download may go without progress before it counts as stalled. */
export const DOWNLOAD_STALL_MS = 60_000;
/** Results kept for scrolling back, after which the oldest are forgotten. */
const RESULTS_KEPT = 500;

const CHECKING: DevicePairState = { kind: 'checking' };

class TimeLimitError extends Error {
  constructor() {
    super('the on-device translator did not answer in time');
  }
}

function isTranslatorApi(value: unknown): value is TranslatorApi {
  if ((typeof value !== 'function' && typeof value !== 'object') || value === null) return false;
  const api = value as Partial<Record<keyof TranslatorApi, unknown>>;
  return typeof api.availability === 'function' && typeof api.create === 'function';
}

/**
 * `run` given an abort signal, failing with TimeLimitError (and aborting the signal) if
 * it has not settled within `ms`.
 */
function withinTime<T>(ms: number, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      controller.abort();
      reject(new TimeLimitError());
    }, ms);
    run(controller.signal).then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

interface PairEntry {
  state: DevicePairState;
  translator: OnDeviceTranslator | null;
}

/**
 * One translator per language pair, each made once, and the texts it translated. Pair
 * states can be watched (`subscribe`, `version`) to show a download and its progress.
 */
export class DeviceTranslator {
  private readonly pairs = new Map<string, PairEntry>();
  private readonly pending = new Map<string, Promise<string | null>>();
  private readonly results = new Map<string, string>();
  private readonly listeners = new Set<() => void>();
  private changes = 0;

  constructor(private readonly api: TranslatorApi) {}

  /** Calls `listener` on every change of a pair's state; returns the unsubscribe. */
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** A number that changes with every change of a pair's state. */
  version = (): number => this.changes;

  /** Where the pair stands now (checking until `prepare` has found out). */
  pairState(from: string, to: string): DevicePairState {
    return this.pairs.get(pairKey(from, to))?.state ?? CHECKING;
  }

  /** Finds out (once) whether the pair can be translated, and opens its model if so. */
  prepare(from: string, to: string): void {
    const key = pairKey(from, to);
    if (this.pairs.has(key)) return;
    this.pairs.set(key, { state: CHECKING, translator: null });
    void this.check(key, { sourceLanguage: from, targetLanguage: to });
  }

  /**
   * Downloads the pair's language pack: to be called from a tap (the browser asks for
   * one), on a pair that is downloadable or whose download failed.
   */
  download(from: string, to: string): void {
    const key = pairKey(from, to);
    const kind = this.pairs.get(key)?.state.kind;
    if (kind !== 'downloadable' && kind !== 'failed') return;
    void this.open(key, { sourceLanguage: from, targetLanguage: to }, true);
  }

  /** Tries a failed pair again from the start. */
  retry(from: string, to: string): void {
    const key = pairKey(from, to);
    if (this.pairs.get(key)?.state.kind !== 'failed') return;
    this.pairs.delete(key);
    this.prepare(from, to);
  }

  /** A text translated before, at once (undefined: not translated yet). */
  peek(text: string, from: string, to: string): string | undefined {
    return this.results.get(resultKey(text, from, to));
  }

  /**
   * The translation, or null when the pair cannot be translated here (or not yet: its
   * pack is not downloaded), or the translator failed or did not answer in time.
   */
  translate(text: string, from: string, to: string): Promise<string | null> {
    const key = resultKey(text, from, to);
    const done = this.results.get(key);
    if (done !== undefined) return Promise.resolve(done);
    let running = this.pending.get(key);
    if (!running) {
      running = this.run(text, from, to, key).finally(() => this.pending.delete(key));
      this.pending.set(key, running);
    }
    return running;
  }

  private async run(text: string, from: string, to: string, key: string): Promise<string | null> {
    this.prepare(from, to);
    const translator = await this.whenSettled(pairKey(from, to));
    if (!translator) return null;
    try {
      const result = await withinTime(CALL_TIME_LIMIT_MS, (signal) =>
        translator.translate(text, { signal }),
      );
      this.remember(key, result);
      return result;
    } catch {
      // Not remembered: the next showing of the message, or a retry, tries again.
      return null;
    }
  }

  /** The pair's translator once it is ready, or null once it settles otherwise. */
  private whenSettled(key: string): Promise<OnDeviceTranslator | null> {
    return new Promise((resolve) => {
      const look = (): boolean => {
        const entry = this.pairs.get(key);
        const kind = entry?.state.kind ?? 'checking';
        if (kind === 'checking' || kind === 'downloading') return false;
        resolve(kind === 'ready' ? (entry?.translator ?? null) : null);
        return true;
      };
      if (look()) return;
      const stop = this.subscribe(() => {
        if (look()) stop();
      });
    });
  }

  private async check(key: string, pair: DeviceLanguagePair): Promise<void> {
    let availability: string;
    try {
      availability = await withinTime(CALL_TIME_LIMIT_MS, () => this.api.availability(pair));
    } catch {
      this.set(key, { kind: 'failed' });
      return;
    }
    if (availability === 'available') return this.open(key, pair, false);
    if (availability === 'downloadable') return this.set(key, { kind: 'downloadable' });
    // Downloading for another page already: followed here, if the browser lets us.
    if (availability === 'downloading') return this.open(key, pair, true);
    this.set(key, { kind: 'unavailable' });
  }

  /**
   * Opens the pair's model within the time limit; a download (`downloading`, or one the
   * browser starts anyway) is followed for as long as it progresses.
   */
  private async open(key: string, pair: DeviceLanguagePair, downloading: boolean): Promise<void> {
    const controller = new AbortController();
    let limit = downloading ? DOWNLOAD_STALL_MS : CALL_TIME_LIMIT_MS;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let settled = false;
    let stall: (error: Error) => void = () => undefined;
    const stalled = new Promise<never>((_, reject) => {
      stall = reject;
    });
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        controller.abort();
        stall(new TimeLimitError());
      }, limit);
    };
    arm();
    if (downloading) this.set(key, { kind: 'downloading', progress: null });
    const monitor = (created: CreateMonitor) =>
      created.addEventListener('downloadprogress', (event) => {
        if (settled) return;
        limit = DOWNLOAD_STALL_MS;
        arm();
        this.set(key, { kind: 'downloading', progress: fractionOf(event) });
      });
    try {
      const translator = await Promise.race([
        this.api.create({ ...pair, monitor, signal: controller.signal }),
        stalled,
      ]);
      const entry = this.pairs.get(key);
      if (entry) entry.translator = translator;
      this.set(key, { kind: 'ready' });
    } catch (error) {
      // Refused without a tap: the pack waits for one.
      const refused = error instanceof DOMException && error.name === 'NotAllowedError';
      this.set(key, { kind: refused ? 'downloadable' : 'failed' });
    } finally {
      settled = true;
      clearTimeout(timer);
    }
  }

  private set(key: string, state: DevicePairState): void {
    const entry = this.pairs.get(key);
    if (!entry) return;
    entry.state = state;
    this.changes += 1;
    for (const listener of [...this.listeners]) listener();
  }

  private remember(key: string, text: string): void {
    this.results.set(key, text);
    if (this.results.size <= RESULTS_KEPT) return;
    const oldest = this.results.keys().next();
    if (!oldest.done) this.results.delete(oldest.value);
  }
}

/** A progress event's share done, from 0 to 1, or null where the browser gives no total. */
function fractionOf(event: ProgressLike): number | null {
  const total = event.total ?? 1;
  if (!(total > 0) || !Number.isFinite(event.loaded)) return null;
  return Math.min(1, Math.max(0, event.loaded / total));
}

function pairKey(from: string, to: string): string {
  return `${from}>${to}`;
}

function resultKey(text: string, from: string, to: string): string {
  return `${from}>${to}\u0000${text}`;
}

/** A device translator over a scope's Translator API, or null where it has none. */
export function createDeviceTranslator(scope: object): DeviceTranslator | null {
  const api = (scope as { Translator?: unknown }).Translator;
  return isTranslatorApi(api) ? new DeviceTranslator(api) : null;
}

let shared: DeviceTranslator | null | undefined;

/** The page's device translator (made on first use), or null without the API. */
export function deviceTranslator(): DeviceTranslator | null {
  if (shared === undefined) shared = createDeviceTranslator(globalThis);
  return shared;
}
