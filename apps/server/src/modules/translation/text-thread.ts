import { Worker } from 'node:worker_threads';

/**
 * Work on texts that would cost the event loop its time or its heap (language detection,
 * Chinese script tables) runs on worker threads of its own. A thread's code is a script
 * (`eval`) that answers `{ id, questions }` with `{ id, answers }`, one answer a question
 * in order, or `{ id, error }`; what it needs from outside comes as `workerData`.
 */

interface Asked<A> {
  resolve: (answers: A[]) => void;
  reject: (error: unknown) => void;
}

interface Answer<A> {
  id: number;
  answers?: A[];
  error?: string;
}

/** After a thread fails, its questions go unanswered this long before it is restarted. */
const RESTART_AFTER_MS = 10_000;

/** One worker thread, started on first use and restarted after it fails. */
export class TextThread<Q, A> {
  private worker: Worker | null = null;
  /** When the last thread failed (0: never). */
  private failedAt = 0;
  private readonly asked = new Map<number, Asked<A>>();
  private nextId = 0;

  /** `name`: what the thread does, for its errors ("the language detector"). */
  constructor(
    private readonly source: string,
    private readonly workerData: unknown,
    private readonly name: string,
  ) {}

  /** Questions waiting for their answers. */
  get load(): number {
    return this.asked.size;
  }

  get running(): boolean {
    return this.worker !== null;
  }

  ask(questions: Q[]): Promise<A[]> {
    const id = (this.nextId += 1);
    return new Promise((resolve, reject) => {
      // A thread that cannot start refuses the question (start throws).
      const worker = this.start();
      // A question waiting for its answer keeps the process alive; an idle thread does not.
      if (this.asked.size === 0) worker.ref();
      this.asked.set(id, { resolve, reject });
      worker.postMessage({ id, questions });
    });
  }

  /** Ends the thread; questions still open get no answer. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.failAll(new Error(`${this.name} was closed`));
    if (worker) await worker.terminate();
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    // A thread that cannot start (its tables missing, say) is not restarted for every text.
    if (Date.now() - this.failedAt < RESTART_AFTER_MS) {
      throw new Error(`${this.name} failed a moment ago`);
    }
    const worker = new Worker(this.source, { eval: true, workerData: this.workerData });
    worker.on('message', ({ id, answers, error }: Answer<A>) => {
      const asked = this.asked.get(id);
      this.asked.delete(id);
      if (this.asked.size === 0) worker.unref();
      if (!asked) return;
      if (answers) asked.resolve(answers);
      else asked.reject(new Error(`${this.name} failed: ${error ?? 'no answer'}`));
    });
    // A thread that fails is replaced on the next question; the waiting ones fail.
    const lost = (error: unknown) => {
      if (this.worker !== worker) return;
      this.worker = null;
      this.failedAt = Date.now();
      this.failAll(error);
    };
    worker.on('error', lost);
    worker.on('exit', () => lost(new Error(`${this.name} stopped`)));
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private failAll(error: unknown): void {
    for (const asked of this.asked.values()) asked.reject(error);
    this.asked.clear();
  }
}

/**
 * Questions asked in the same turn of the event loop, sent on together at its end: a
 * burst of sends costs one message each way, not one per text.
 */
export class TurnBatch<Q, A> {
  private turn: { question: Q; resolve: (answer: A) => void; reject: (e: unknown) => void }[] = [];

  /** `answer`: the answers to a turn's questions, in order. */
  constructor(private readonly answer: (questions: Q[]) => Promise<A[]>) {}

  ask(question: Q): Promise<A> {
    return new Promise((resolve, reject) => {
      if (this.turn.length === 0) setImmediate(() => this.flush());
      this.turn.push({ question, resolve, reject });
    });
  }

  private flush(): void {
    const turn = this.turn;
    this.turn = [];
    this.answer(turn.map(({ question }) => question)).then(
      (answers) =>
        turn.forEach(({ resolve, reject }, index) => {
          if (index < answers.length) resolve(answers[index]!);
          else reject(new Error('a question went unanswered'));
        }),
      (error: unknown) => turn.forEach(({ reject }) => reject(error)),
    );
  }
}
