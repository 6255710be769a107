/** What became of one item of a batch. */
export type Outcome<R> = { ok: true; value: R } | { ok: false; error: unknown };

export interface GroupCommitOptions<T, R> {
  /**
   * Writes the items in one transaction and answers an outcome per item, in order, once
   * it has committed. An item that breaks a rule gets its error as its outcome; throwing
   * means the transaction failed as a whole.
   */
  writeBatch(items: readonly T[]): Promise<Outcome<R>[]>;
  /** Writes one item in a transaction of its own: the way back when a batch failed. */
  writeAlone(item: T): Promise<R>;
  /** Most items in one transaction. */
  maxBatch: number;
}

interface Waiting<T, R> {
  item: T;
  resolve(value: R): void;
  reject(error: unknown): void;
}

/**
 * Group commit: items submitted while a transaction runs wait, and go together in the
 * next one, so many writes share one BEGIN/COMMIT (and on a server database, the round
 * trips). One batch runs at a time, in submission order, so what was submitted first is
 * written first. Each submitter learns its outcome only after the commit that holds its
 * item. If a batch fails as a whole (a race lost on a unique key, a deadlock), its items
 * are written again one by one, so only the item at fault fails.
 */
export class GroupCommit<T, R> {
  private waiting: Waiting<T, R>[] = [];
  private scheduled = false;
  private running: Promise<void> | null = null;

  constructor(private readonly options: GroupCommitOptions<T, R>) {}

  /** Queues an item; resolves with its value once committed, or rejects with its error. */
  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      this.schedule();
    });
  }

  /** Resolves once everything submitted so far has been written or refused. */
  async drain(): Promise<void> {
    while (this.running || this.scheduled || this.waiting.length > 0) {
      await (this.running ?? new Promise((resolve) => setImmediate(resolve)));
    }
  }

  private schedule(): void {
    if (this.running || this.scheduled || this.waiting.length === 0) return;
    this.scheduled = true;
    // After the I/O callbacks of this turn of the event loop: frames that arrived together
    // on many sockets go in one batch, while a lone send waits for nothing.
    setImmediate(() => {
      this.scheduled = false;
      this.running = this.flush().finally(() => {
        this.running = null;
        this.schedule();
      });
    });
  }

  private async flush(): Promise<void> {
    const batch = this.waiting.splice(0, this.options.maxBatch);
    let outcomes: Outcome<R>[];
    try {
      outcomes = await this.options.writeBatch(batch.map((waiting) => waiting.item));
    } catch {
      outcomes = [];
      for (const { item } of batch) {
        try {
          outcomes.push({ ok: true, value: await this.options.writeAlone(item) });
        } catch (error) {
          outcomes.push({ ok: false, error });
        }
      }
    }
    batch.forEach((waiting, index) => {
      const outcome = outcomes[index];
      if (!outcome) waiting.reject(new Error('group commit: no outcome for an item'));
      else if (outcome.ok) waiting.resolve(outcome.value);
      else waiting.reject(outcome.error);
    });
  }
}
