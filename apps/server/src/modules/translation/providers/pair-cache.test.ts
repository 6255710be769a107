import { beforeEach, describe, expect, it } from 'vitest';
import { MINUTE, SECOND } from '../../../lib/clock.js';
import { TestClock } from '../../../test/harness.js';
import { languagePairCache } from './pair-cache.js';

/** A load the test settles by hand, remembering the signal of each call. */
class ManualLoad {
  readonly signals: AbortSignal[] = [];
  private settle: ((outcome: string[] | Error) => void) | undefined;

  readonly load = (signal: AbortSignal): Promise<string[]> => {
    this.signals.push(signal);
    // As fetch does: a signal that aborted before the call rejects it at once.
    if (signal.aborted) return Promise.reject(new Error('aborted'));
    return new Promise((resolve, reject) => {
      const settle = (outcome: string[] | Error) =>
        outcome instanceof Error ? reject(outcome) : resolve(outcome);
      this.settle = settle;
      signal.addEventListener('abort', () => {
        if (this.settle === settle) this.settle = undefined;
        reject(new Error('aborted'));
      });
    });
  };

  /** Settles the call in progress; the cache starts it a few microtasks after `get`. */
  async answer(outcome: string[] | Error): Promise<void> {
    for (let turn = 0; turn < 100 && !this.settle; turn += 1) await Promise.resolve();
    if (!this.settle) throw new Error('no load in progress');
    this.settle(outcome);
    this.settle = undefined;
  }
}

let clock: TestClock;
let load: ManualLoad;
beforeEach(() => {
  clock = new TestClock();
  load = new ManualLoad();
});

describe('languagePairCache', () => {
  it('shares one load between callers and keeps its answer for ten minutes', async () => {
    const cache = languagePairCache(load.load, clock);
    const first = cache.get();
    const second = cache.get(new AbortController().signal);
    await load.answer(['en-es']);
    expect(await first).toEqual(['en-es']);
    expect(await second).toEqual(['en-es']);
    clock.advance(10 * MINUTE - 1);
    expect(await cache.get()).toEqual(['en-es']);
    expect(load.signals).toHaveLength(1);

    clock.advance(1);
    const refreshed = cache.get();
    await load.answer(['en-fr']);
    expect(await refreshed).toEqual(['en-fr']);
    expect(load.signals).toHaveLength(2);
  });

  it('answers null for 30 seconds after a failed load', async () => {
    const cache = languagePairCache(load.load, clock);
    const failed = cache.get();
    await load.answer(new Error('unreachable'));
    expect(await failed).toBeNull();
    clock.advance(30 * SECOND - 1);
    expect(await cache.get()).toBeNull();
    expect(load.signals).toHaveLength(1);
    clock.advance(1);
    const retried = cache.get();
    await load.answer(['en-es']);
    expect(await retried).toEqual(['en-es']);
  });

  it('lets a caller stop waiting without cancelling the load for the others', async () => {
    const cache = languagePairCache(load.load, clock);
    const impatient = new AbortController();
    const gaveUp = cache.get(impatient.signal);
    const patient = cache.get(new AbortController().signal);
    impatient.abort();
    expect(await gaveUp).toBeNull();
    expect(load.signals[0]?.aborted).toBe(false);
    await load.answer(['en-es']);
    expect(await patient).toEqual(['en-es']);
  });

  it('cancels the load when every caller gave up, and remembers nothing of it', async () => {
    const cache = languagePairCache(load.load, clock);
    const caller = new AbortController();
    const gaveUp = cache.get(caller.signal);
    caller.abort();
    expect(await gaveUp).toBeNull();
    expect(load.signals[0]?.aborted).toBe(true);

    const next = cache.get();
    await load.answer(['en-es']);
    expect(await next).toEqual(['en-es']);
    expect(load.signals).toHaveLength(2);
  });

  it('answers null at once for a signal that already aborted', async () => {
    const cache = languagePairCache(load.load, clock);
    expect(await cache.get(AbortSignal.abort())).toBeNull();
    expect(load.signals).toHaveLength(0);
  });
});
