import argon2 from 'argon2';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '../errors.js';
import { PasswordHasher } from './passwords.js';

const cheap = { memoryCost: 1024, timeCost: 1 };

/** Counts argon2 hashes running at once, and the most seen. */
function watchHashes(): { peak: () => number } {
  const original = argon2.hash.bind(argon2);
  let running = 0;
  let peak = 0;
  vi.spyOn(argon2, 'hash').mockImplementation(async (...args: Parameters<typeof argon2.hash>) => {
    running += 1;
    peak = Math.max(peak, running);
    try {
      return await original(...args);
    } finally {
      running -= 1;
    }
  });
  return { peak: () => peak };
}

describe('PasswordHasher', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('runs at most its concurrency of hashes at once, and the rest in turn', async () => {
    const watch = watchHashes();
    const hasher = new PasswordHasher({ ...cheap, concurrency: 2, queue: 10 });
    const hashes = await Promise.all(
      Array.from({ length: 8 }, (_, i) => hasher.hash(`Pw${i}abcdef`)),
    );
    expect(hashes).toHaveLength(8);
    expect(watch.peak()).toBe(2);
    expect(await hasher.verify(hashes[3] ?? '', 'Pw3abcdef')).toBe(true);
  });

  it('answers SERVER_BUSY at once when the queue is full, and serves the queue', async () => {
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const original = argon2.hash.bind(argon2);
    vi.spyOn(argon2, 'hash').mockImplementation(async (...args: Parameters<typeof argon2.hash>) => {
      await held;
      return original(...args);
    });
    const hasher = new PasswordHasher({ ...cheap, concurrency: 1, queue: 1 });
    const running = hasher.hash('Running1');
    const waiting = hasher.hash('Waiting1');
    const refused = await hasher.hash('Refused1').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe('SERVER_BUSY');
    release();
    await expect(running).resolves.toMatch(/^\$argon2id\$/);
    await expect(waiting).resolves.toMatch(/^\$argon2id\$/);
    // The places are free again.
    await expect(hasher.hash('Again123')).resolves.toMatch(/^\$argon2id\$/);
  });

  it('gives back a place taken and not used', async () => {
    const hasher = new PasswordHasher({ ...cheap, concurrency: 1, queue: 0 });
    const turn = hasher.turn();
    expect(() => hasher.turn()).toThrow(AppError);
    turn.cancel();
    await expect(hasher.hash('Free1234')).resolves.toMatch(/^\$argon2id\$/);
  });

  it('verifies a dummy hash for unknown accounts, within a place of its own', async () => {
    const verify = vi.spyOn(argon2, 'verify');
    const hasher = new PasswordHasher({ ...cheap, concurrency: 1, queue: 0 });
    await hasher.turn().verifyDummy('Whatever1');
    await hasher.turn().verifyDummy('Whatever2');
    expect(verify).toHaveBeenCalledTimes(2);
  });
});
