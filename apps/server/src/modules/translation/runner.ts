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

/**
 * A language model's answer longer than this many times its text, plus OUTPUT_SLACK, is
 * no translation of it (see `farLonger`).
 */
export const OUTPUT_RATIO_MAX = 3;
/** Room for short texts that grow in any script: "谢谢" is "Thank you very much". */
export const OUTPUT_SLACK = 20;

/**
 * Whether a language model's answer runs far longer than its text: what a model does
 * when a text in its prompt told it to copy its neighbours, or to write on. Scripts take
 * different room for one sentence: Chinese takes several times fewer UTF-16 units than
 * its English, English several times fewer UTF-8 bytes than its Tamil or Thai. So an
 * answer is far longer only when it is so in both measures: more than OUTPUT_RATIO_MAX
 * times its text plus OUTPUT_SLACK.
 */
export function farLonger(text: string, translation: string): boolean {
  const within = (input: number, output: number) =>
    output <= input * OUTPUT_RATIO_MAX + OUTPUT_SLACK;
  return (
    !within(text.length, translation.length) &&
    !within(Buffer.byteLength(text), Buffer.byteLength(translation))
  );
}

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
 *
 * A language model may take orders from a text it translates, so for one only texts of
 * the same scope (a conversation) share a call, and an answer far longer than its text
 * is refused: in a batch that text is asked again alone, where it has no neighbour to
 * copy; alone, it fails.
 */
export class ProviderRunner {
  private active = 0;
  private readonly queue: (() => void)[] = [];
  private readonly pending = new Map<string, Pending>();

  constructor(
    readonly provider: TranslationProvider,
    private readonly options: RunnerOptions = DEFAULT_RUNNER_OPTIONS,
  ) {}

  /**
   * `scope`: whose texts may share a language model's call: a conversation's id, or a
   * user's own for their drafts. No text of another scope sits in the same prompt.
   */
  translate(text: string, from: string, to: string, scope: string): Promise<string> {
    if (this.provider.maxBatch <= 1 || text.length > BATCH_TEXT_MAX) {
      return this.alone(text, from, to);
    }
    return new Promise((resolve, reject) => {
      const key = this.provider.llm ? `${from}\n${to}\n${scope}` : `${from}\n${to}`;
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
          } else if (!this.refused(waiting.text, text)) {
            waiting.resolve(text);
          } else if (texts.length > 1) {
            // Asked again with no neighbour in its prompt to copy or be told about.
            this.alone(waiting.text, from, to).then(waiting.resolve, waiting.reject);
          } else waiting.reject(this.tooLong());
        });
      },
      (error: unknown) => {
        for (const waiting of texts) waiting.reject(error);
      },
    );
  }

  /** One text in a call of its own. */
  private async alone(text: string, from: string, to: string): Promise<string> {
    const [translated = ''] = await this.call([text], from, to);
    if (this.refused(text, translated)) throw this.tooLong();
    return translated;
  }

  /** A language model's answer too long to be the translation of `text`. */
  private refused(text: string, translation: string): boolean {
    return this.provider.llm && farLonger(text, translation);
  }

  /**
   * Not retried here: at temperature 0 the model answers alike. The next provider with
   * the pair takes the text; failing that it is stored as failed, never as made, and a
   * reader may ask for it again.
   */
  private tooLong(): ProviderError {
    return new ProviderError(`${this.provider.name} answered far longer than the text`, false);
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
