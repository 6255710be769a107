/** A place taken in a semaphore: wait for `ready`, then run, then `release`. */
export interface SemaphorePlace {
  /** Resolves once the holder may run. */
  ready: Promise<void>;
  /** Gives the place back, after running or instead of it (a waiting place leaves the queue). */
  release(): void;
}

interface Waiter {
  grant: () => void;
  state: 'waiting' | 'running' | 'released';
}

/**
 * At most `limit` holders run at once and at most `queue` wait for a turn; past that a
 * place is refused at once, so a flood is turned away instead of piling up in memory.
 */
export class Semaphore {
  private running = 0;
  private readonly waiting: Waiter[] = [];

  constructor(
    readonly limit: number,
    readonly queue: number,
  ) {
    if (!(limit >= 1)) throw new RangeError('a semaphore needs at least one place');
  }

  /** A place now (running or queued), or null when every place and the queue are taken. */
  take(): SemaphorePlace | null {
    if (this.running < this.limit) {
      this.running += 1;
      return this.place({ grant: () => undefined, state: 'running' }, Promise.resolve());
    }
    if (this.waiting.length >= this.queue) return null;
    let grant = (): void => undefined;
    const ready = new Promise<void>((resolve) => (grant = resolve));
    const waiter: Waiter = { grant, state: 'waiting' };
    this.waiting.push(waiter);
    return this.place(waiter, ready);
  }

  /** Holders running now, and waiting. */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  private place(waiter: Waiter, ready: Promise<void>): SemaphorePlace {
    return {
      ready,
      release: () => {
        if (waiter.state === 'released') return;
        if (waiter.state === 'waiting') {
          this.waiting.splice(this.waiting.indexOf(waiter), 1);
        } else {
          this.running -= 1;
          this.next();
        }
        waiter.state = 'released';
      },
    };
  }

  private next(): void {
    while (this.running < this.limit && this.waiting.length > 0) {
      const waiter = this.waiting.shift() as Waiter;
      waiter.state = 'running';
      this.running += 1;
      waiter.grant();
    }
  }
}
