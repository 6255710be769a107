import { LANGUAGES } from '@teltlk/protocol';
import {
  ProviderError,
  type Coverage,
  type TranslationProvider,
} from '../modules/translation/providers/provider.js';

/** What the fake does with the next calls. */
export type FakeMode = 'translate' | 'hang' | 'fail' | 'flaky';

/**
 * An in-process provider for tests and benchmarks: counts its calls and answers
 * `[<to>] <text>`, or hangs until aborted, or fails (for good, or `flaky`: retryable
 * failures until `flakyFailures` are used up).
 */
export class FakeProvider implements TranslationProvider {
  readonly name = 'fake';
  readonly calls: { texts: readonly string[]; from: string; to: string }[] = [];
  mode: FakeMode = 'translate';
  flakyFailures = 0;
  /** Calls started and not yet answered. */
  inFlight = 0;
  private readonly hung: { texts: readonly string[]; end: () => void }[] = [];

  constructor(
    readonly maxBatch = 1,
    private readonly pairs: ((from: string, to: string) => boolean) | null = null,
    /** Whether the service should treat it as a language model. */
    readonly llm = false,
  ) {}

  supports(from: string, to: string): Promise<boolean> {
    return Promise.resolve(this.pairs ? this.pairs(from, to) : from !== to);
  }

  coverage(): Promise<Coverage> {
    const { pairs } = this;
    if (!pairs) return Promise.resolve('any');
    return Promise.resolve(
      LANGUAGES.flatMap(({ code: from }) =>
        LANGUAGES.flatMap(({ code: to }) => (pairs(from, to) ? [[from, to] as const] : [])),
      ),
    );
  }

  /**
   * Ends hanging calls with a retryable failure (their retry then runs in the current
   * mode): those carrying `text`, or every one.
   */
  release(text?: string): void {
    const ending = this.hung.filter((call) => text === undefined || call.texts.includes(text));
    for (const call of ending) {
      this.hung.splice(this.hung.indexOf(call), 1);
      call.end();
    }
  }

  /** Calls into one target language. */
  callsTo(lang: string): number {
    return this.calls.filter((call) => call.to === lang).length;
  }

  async translate(
    texts: readonly string[],
    from: string,
    to: string,
    signal: AbortSignal,
  ): Promise<string[]> {
    this.calls.push({ texts: [...texts], from, to });
    this.inFlight += 1;
    try {
      if (this.mode === 'hang') {
        await new Promise((_resolve, reject) => {
          const end = () => reject(new ProviderError('aborted', true));
          this.hung.push({ texts, end });
          signal.addEventListener('abort', end, { once: true });
        });
      }
      if (this.mode === 'fail') throw new ProviderError('the engine refused', false, 400);
      if (this.mode === 'flaky' && this.flakyFailures > 0) {
        this.flakyFailures -= 1;
        throw new ProviderError('the engine is busy', true, 503);
      }
      await Promise.resolve();
      return texts.map((text) => `[${to}] ${text}`);
    } finally {
      this.inFlight -= 1;
    }
  }
}
