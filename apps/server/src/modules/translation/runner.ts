import { ProviderError, type TranslationProvider } from './providers/provider.js';

/** How one provider is driven: calls in flight, time per attempt, attempts, batching. */
export interface RunnerOptions {
  concurrency: number;
  timeoutMs: number;
  /** Attempts per text, the first included; only retryable failures are tried again. */
  attempts: number;
  /** Wait before the second attempt; each later one waits four times longer (with jitter). */
  backoffMs: number;
  /** How long a short text waits for others of the same pair to share its call. */
  batchWindowMs: number;
}

export const DEFAULT_RUNNER_OPTIONS: RunnerOptions = {
  concurrency: 4,
  timeoutMs: 15_000,
  attempts: 3,
  backoffMs: 250,
  batchWindowMs: 10,
};

/** Texts up to this long wait to share a call; longer ones go alone. */
export const BATCH_TEXT_MAX = 500;
/** Characters one batched call carries at most. */
const BATCH_CHARACTERS_MAX = 4000;

interface Waiting {
  text: string;
  resolve: (text: string) => void;
  reject: (error: unknown) => void;
}

interface Pending {
  from: string;
  to: string;
  texts: Waiting[];
  characters: number;
  timer: NodeJS.Timeout;
}

/**
 * Drives one provider: at most `concurrency` calls at once (others queue in order), a
 * timeout on every attempt, retries with exponential backoff for failures that may pass
 * (network, timeout, 429, 5xx), and short texts of the same language pair that arrive
 * within a few milliseconds of each other sent as one call, when the provider takes
 * batches.
 */
export class ProviderRunner {
  private active = 0;
  private readonly queue: (() => void)[] = [];
  private readonly pending = new Map<string, Pending>();

  constructor(
    readonly provider: TranslationProvider,
    private readonly options: RunnerOptions = DEFAULT_RUNNER_OPTIONS,
  ) {}

  translate(text: string, from: string, to: string): Promise<string> {
    if (this.provider.maxBatch <= 1 || text.length > BATCH_TEXT_MAX) {
      return this.call([text], from, to).then(([translated]) => translated ?? '');
    }
    return new Promise((resolve, reject) => {
      const key = `${from}\n${to}`;
      let batch = this.pending.get(key);
      if (batch && batch.characters + text.length > BATCH_CHARACTERS_MAX) {
        this.flush(key);
        batch = undefined;
      }
      if (!batch) {
        batch = {
          from,
          to,
          texts: [],
          characters: 0,
          timer: setTimeout(() => this.flush(key), this.options.batchWindowMs),
        };
        this.pending.set(key, batch);
      }
      batch.texts.push({ text, resolve, reject });
      batch.characters += text.length;
      if (batch.texts.length >= this.provider.maxBatch) this.flush(key);
    });
  }

  private flush(key: string): void {
    const batch = this.pending.get(key);
    if (!batch) return;
    this.pending.delete(key);
    clearTimeout(batch.timer);
    const { texts, from, to } = batch;
    this.call(
      texts.map(({ text }) => text),
      from,
      to,
    ).then(
      (translated) => {
        texts.forEach((waiting, index) => {
          const text = translated[index];
          if (text === undefined) {
            waiting.reject(new ProviderError('the provider answered fewer texts', false));
          } else waiting.resolve(text);
        });
      },
      (error: unknown) => {
        for (const waiting of texts) waiting.reject(error);
      },
    );
  }

  /** One provider call, with its slot, timeouts and retries. */
  private async call(texts: readonly string[], from: string, to: string): Promise<string[]> {
    const { attempts, backoffMs, timeoutMs } = this.options;
    for (let attempt = 1; ; attempt += 1) {
      await this.acquire();
      try {
        return await this.provider.translate(texts, from, to, AbortSignal.timeout(timeoutMs));
      } catch (error) {
        const retryable = !(error instanceof ProviderError) || error.retryable;
        if (!retryable || attempt >= attempts) throw error;
      } finally {
        this.release();
      }
      const wait = backoffMs * 4 ** (attempt - 1);
      await new Promise((resolve) => setTimeout(resolve, wait / 2 + Math.random() * (wait / 2)));
    }
  }

  private acquire(): Promise<void> {
    if (this.active < this.options.concurrency) {
      this.active += 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.queue.push(resolve));
  }

  private release(): void {
    const next = this.queue.shift();
    // The slot passes straight to the next call in line.
    if (next) next();
    else this.active -= 1;
  }
}
