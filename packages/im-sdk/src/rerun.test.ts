import { describe, expect, it, vi } from 'vitest';
import { Rerun, RerunByKey } from './rerun.js';

/** A round that waits until released, counting how often it ran. */
function gated() {
  let release: () => void = () => undefined;
  const state = { rounds: 0 };
  const round = () => {
    state.rounds += 1;
    return new Promise<void>((resolve) => {
      release = resolve;
    });
  };
  return { state, round, release: () => release() };
}

describe('Rerun', () => {
  it('runs once when asked once', async () => {
    let rounds = 0;
    const rerun = new Rerun(() => {
      rounds += 1;
      return Promise.resolve();
    });
    await rerun.run();
    expect(rounds).toBe(1);
    expect(rerun.running).toBe(false);
  });

  it('folds every request made while running into exactly one more round', async () => {
    const { state, round, release } = gated();
    const rerun = new Rerun(round);
    const first = rerun.run();
    const second = rerun.run();
    const third = rerun.run();
    expect(second).toBe(first);
    expect(third).toBe(first);
    release();
    await vi.waitFor(() => expect(state.rounds).toBe(2));
    release();
    await first;
    expect(state.rounds).toBe(2);
  });

  it('ends the run with a round’s error, and starts afresh on the next request', async () => {
    let fail = true;
    let rounds = 0;
    const rerun = new Rerun(() => {
      rounds += 1;
      return fail ? Promise.reject(new Error('network down')) : Promise.resolve();
    });
    await expect(rerun.run()).rejects.toThrow('network down');
    expect(rerun.running).toBe(false);
    fail = false;
    await rerun.run();
    expect(rounds).toBe(2);
  });

  it('goes no further round once its owner says stop', async () => {
    const { state, round, release } = gated();
    let going = true;
    const rerun = new Rerun(round, () => going);
    const run = rerun.run();
    void rerun.run();
    going = false;
    release();
    await run;
    expect(state.rounds).toBe(1);
  });
});

describe('RerunByKey', () => {
  it('runs keys independently, and forgets a key once its run ends', async () => {
    const seen: string[] = [];
    const gates = new Map<string, () => void>();
    const byKey = new RerunByKey<string>(
      (key) =>
        new Promise<void>((resolve) => {
          seen.push(key);
          gates.set(key, resolve);
        }),
    );
    const a = byKey.run('a');
    const b = byKey.run('b');
    expect(byKey.run('a')).toBe(a);
    expect(seen).toEqual(['a', 'b']);
    gates.get('b')!();
    await b;
    gates.get('a')!();
    // 'a' was asked again while running: one more round.
    await vi.waitFor(() => expect(seen).toEqual(['a', 'b', 'a']));
    gates.get('a')!();
    await a;
    const again = byKey.run('a');
    expect(again).not.toBe(a);
    gates.get('a')!();
    await again;
    expect(seen).toEqual(['a', 'b', 'a', 'a']);
  });
});
