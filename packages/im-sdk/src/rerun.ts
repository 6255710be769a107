/**
 * "Run once, and once more if asked meanwhile": work that must not run twice at a time
 * (a sync, a pull) and whose requests while it runs all mean "there may be more". The
 * first request starts a run; requests during it share the run's promise and make it go
 * one more round when the current one ends, however many came. A round that throws ends
 * the run with that error; the next request starts afresh.
 */
export class Rerun {
  private current: Promise<void> | null = null;
  private again = false;

  /**
   * `round`: one pass of the work. `more`: whether asked-for rounds may still go (false
   * once the owner has stopped).
   */
  constructor(
    private readonly round: () => Promise<void>,
    private readonly more: () => boolean = () => true,
  ) {}

  get running(): boolean {
    return this.current !== null;
  }

  run(): Promise<void> {
    if (this.current) {
      this.again = true;
      return this.current;
    }
    const run = (async () => {
      try {
        do {
          this.again = false;
          await this.round();
        } while (this.again && this.more());
      } finally {
        this.current = null;
        this.again = false;
      }
    })();
    this.current = run;
    return run;
  }
}

/** One `Rerun` per key (a conversation's pulls), kept only while it runs. */
export class RerunByKey<K> {
  private readonly runs = new Map<K, Rerun>();

  constructor(private readonly round: (key: K) => Promise<void>) {}

  run(key: K): Promise<void> {
    let rerun = this.runs.get(key);
    if (!rerun) {
      rerun = new Rerun(() => this.round(key));
      this.runs.set(key, rerun);
    }
    const run = rerun.run();
    const started = rerun;
    const forget = () => {
      if (this.runs.get(key) === started && !started.running) this.runs.delete(key);
    };
    run.then(forget, forget);
    return run;
  }
}
