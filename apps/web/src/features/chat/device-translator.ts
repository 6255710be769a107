/**
 * The browser's built-in, on-device Translator API, used when the server has no
 * translation provider. Only feature-detected: browsers without it (most of them) get
 * null, and a language pair the browser cannot do translates to null too.
 */

interface DeviceLanguagePair {
  sourceLanguage: string;
  targetLanguage: string;
}

interface OnDeviceTranslator {
  translate(text: string): Promise<string>;
}

/** The part of `globalThis.Translator` this module uses. */
export interface TranslatorApi {
  availability(pair: DeviceLanguagePair): Promise<string>;
  create(pair: DeviceLanguagePair): Promise<OnDeviceTranslator>;
}

/** Results kept for scrolling back, after which the oldest are forgotten. */
const RESULTS_KEPT = 500;

function isTranslatorApi(value: unknown): value is TranslatorApi {
  if ((typeof value !== 'function' && typeof value !== 'object') || value === null) return false;
  const api = value as Partial<Record<keyof TranslatorApi, unknown>>;
  return typeof api.availability === 'function' && typeof api.create === 'function';
}

/** One translator per language pair, each made once, and the texts it translated. */
export class DeviceTranslator {
  private readonly translators = new Map<string, Promise<OnDeviceTranslator | null>>();
  private readonly pending = new Map<string, Promise<string | null>>();
  private readonly results = new Map<string, string>();

  constructor(private readonly api: TranslatorApi) {}

  /** A text translated before, at once (undefined: not translated yet). */
  peek(text: string, from: string, to: string): string | undefined {
    return this.results.get(resultKey(text, from, to));
  }

  /** The translation, or null when this browser cannot translate the pair (or failed). */
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
    const translator = await this.translatorFor(from, to);
    if (!translator) return null;
    try {
      const result = await translator.translate(text);
      this.remember(key, result);
      return result;
    } catch {
      // Not remembered: the next showing of the message tries again.
      return null;
    }
  }

  private translatorFor(from: string, to: string): Promise<OnDeviceTranslator | null> {
    const pair = `${from}>${to}`;
    let translator = this.translators.get(pair);
    if (!translator) {
      translator = this.createTranslator({ sourceLanguage: from, targetLanguage: to });
      this.translators.set(pair, translator);
    }
    return translator;
  }

  private async createTranslator(pair: DeviceLanguagePair): Promise<OnDeviceTranslator | null> {
    try {
      if ((await this.api.availability(pair)) === 'unavailable') return null;
      // A model still to download may need a user gesture: refused, the pair is unavailable.
      return await this.api.create(pair);
    } catch {
      return null;
    }
  }

  private remember(key: string, text: string): void {
    this.results.set(key, text);
    if (this.results.size <= RESULTS_KEPT) return;
    const oldest = this.results.keys().next();
    if (!oldest.done) this.results.delete(oldest.value);
  }
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
