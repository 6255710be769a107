import { describe, expect, it } from 'vitest';
import { GroupCommit, type Outcome } from './group-commit.js';

/** A writer that records its batches; items named `bad` fail alone, `poison` fails a batch. */
function recorder(maxBatch = 100) {
  const batches: string[][] = [];
  const alone: string[] = [];
  let release: (() => void) | null = null;
  let hold = false;
  const group = new GroupCommit<string, string>({
    maxBatch,
    async writeBatch(items) {
      batches.push([...items]);
      if (hold) await new Promise<void>((resolve) => (release = resolve));
      if (items.includes('poison')) throw new Error('transaction failed');
      return items.map((item): Outcome<string> =>
        item === 'bad'
          ? { ok: false, error: new Error('refused') }
          : { ok: true, value: `ok ${item}` },
      );
    },
    writeAlone(item) {
      alone.push(item);
      return item === 'poison'
        ? Promise.reject(new Error('poisoned'))
        : Promise.resolve(`alone ${item}`);
    },
  });
  return {
    group,
    batches,
    alone,
    holdNext: () => (hold = true),
    release: () => {
      hold = false;
      release?.();
    },
  };
}

const settle = (promise: Promise<string>) =>
  promise.then(
    (value) => value,
    (error: Error) => `error ${error.message}`,
  );

describe('group commit', () => {
  it('writes items submitted together in one batch, each with its own outcome', async () => {
    const { group, batches } = recorder();
    const results = await Promise.all(['a', 'bad', 'c'].map((item) => settle(group.submit(item))));
    expect(batches).toEqual([['a', 'bad', 'c']]);
    expect(results).toEqual(['ok a', 'error refused', 'ok c']);
  });

  it('queues what arrives while a batch runs for the next one, in order', async () => {
    const { group, batches, holdNext, release } = recorder();
    holdNext();
    const first = settle(group.submit('1'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toEqual([['1']]);
    const later = ['2', '3', '4'].map((item) => settle(group.submit(item)));
    let firstDone = false;
    void first.then(() => (firstDone = true));
    // The turn in which the group would start a batch of them (it schedules one with
    // setImmediate after a submit): none starts while the first runs.
    await new Promise((resolve) => setImmediate(resolve));
    // Nothing is answered before its commit, and nothing overtakes the running batch.
    expect(firstDone).toBe(false);
    expect(batches).toEqual([['1']]);
    release();
    expect(await Promise.all([first, ...later])).toEqual(['ok 1', 'ok 2', 'ok 3', 'ok 4']);
    expect(batches).toEqual([['1'], ['2', '3', '4']]);
  });

  it('writes each item alone when a batch fails, so only the item at fault fails', async () => {
    const { group, batches, alone } = recorder();
    const results = await Promise.all(
      ['a', 'poison', 'b'].map((item) => settle(group.submit(item))),
    );
    expect(batches).toEqual([['a', 'poison', 'b']]);
    expect(alone).toEqual(['a', 'poison', 'b']);
    expect(results).toEqual(['alone a', 'error poisoned', 'alone b']);
  });

  it('keeps batches to maxBatch items and drains everything', async () => {
    const { group, batches } = recorder(2);
    const all = ['a', 'b', 'c', 'd', 'e'].map((item) => group.submit(item));
    await group.drain();
    expect(batches).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
    expect(await Promise.all(all)).toHaveLength(5);
  });
});
