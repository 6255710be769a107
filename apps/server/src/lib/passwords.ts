import { availableParallelism } from 'node:os';
import argon2 from 'argon2';
import { AppError } from '../errors.js';
import { Semaphore } from './semaphore.js';

export interface PasswordHashingOptions {
  /** KiB of memory per hash; argon2's default (64 MiB) unless a test asks for less. */
  memoryCost?: number;
  timeCost?: number;
  /** Hashes and verifies running at once (default: see DEFAULT_CONCURRENCY). */
  concurrency?: number;
  /** Hashes and verifies waiting for a turn before further ones are refused as SERVER_BUSY. */
  queue?: number;
}

/**
 * argon2 runs on libuv's thread pool, which file reads and DNS look-ups share (4 threads
 * unless UV_THREADPOOL_SIZE says otherwise). Leaving one thread free keeps files and
 * network going under a flood of sign-ins; more than one hash per core only slows each.
 * It also bounds argon2's memory: 64 MiB per hash.
 */
const DEFAULT_CONCURRENCY = Math.max(1, Math.min(availableParallelism(), 3));
/**
 * A hash takes some 50–100 ms on one core; 16 waiting per place is a wait of a second or
 * so. Beyond that an immediate "busy, try again" serves a person better than a long wait.
 */
const QUEUE_PER_PLACE = 16;

/**
 * The same passphrase typed on two keyboards can differ in Unicode form (é as one code
 * point or as e and an accent; full-width Ａ); NFKC makes them one (NIST SP 800-63B).
 * ASCII is unchanged by it, so hashes made before it still match.
 */
const normalise = (password: string) => password.normalize('NFKC');

/**
 * One hash or verify with its place in the hashing queue already taken. Taking the place
 * first lets a caller be refused (SERVER_BUSY) before it has done anything else, such as
 * counting a sign-in attempt.
 */
export interface HashingTurn {
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
  /** Spends the time of one verify without an account, so "no such account" is not faster. */
  verifyDummy(password: string): Promise<void>;
  /** Gives the place back unused. */
  cancel(): void;
}

/** argon2id hashing under a bound, with a dummy hash so unknown accounts take as long as known ones. */
export class PasswordHasher {
  private dummy: Promise<string> | null = null;
  private readonly slots: Semaphore;
  private readonly argon2Options: { memoryCost?: number; timeCost?: number };

  constructor(options: PasswordHashingOptions = {}) {
    const { concurrency = DEFAULT_CONCURRENCY, queue, ...argon2Options } = options;
    this.argon2Options = argon2Options;
    this.slots = new Semaphore(concurrency, queue ?? concurrency * QUEUE_PER_PLACE);
  }

  /** Takes a place for one hash or verify now; SERVER_BUSY when the queue is full. */
  turn(): HashingTurn {
    const place = this.slots.take();
    if (!place) throw new AppError('SERVER_BUSY');
    let used = false;
    const run = async <T>(work: () => Promise<T>): Promise<T> => {
      if (used) throw new Error('a hashing turn is used once');
      used = true;
      try {
        await place.ready;
        return await work();
      } finally {
        place.release();
      }
    };
    return {
      hash: (password) => run(() => this.rawHash(password)),
      verify: (hash, password) => run(() => this.rawVerify(hash, password)),
      verifyDummy: (password) =>
        run(async () => {
          await this.rawVerify(await this.dummyHash(), password);
        }),
      cancel: () => {
        used = true;
        place.release();
      },
    };
  }

  async hash(password: string): Promise<string> {
    return this.turn().hash(password);
  }

  async verify(hash: string, password: string): Promise<boolean> {
    return this.turn().verify(hash, password);
  }

  private rawHash(password: string): Promise<string> {
    return argon2.hash(normalise(password), { type: argon2.argon2id, ...this.argon2Options });
  }

  private async rawVerify(hash: string, password: string): Promise<boolean> {
    try {
      return await argon2.verify(hash, normalise(password));
    } catch {
      // A malformed stored hash must not sign anyone in.
      return false;
    }
  }

  /** Made once, inside the first dummy verify's own place. */
  private dummyHash(): Promise<string> {
    this.dummy ??= this.rawHash('not-a-real-password-0').catch((error: unknown) => {
      this.dummy = null;
      throw error;
    });
    return this.dummy;
  }
}
