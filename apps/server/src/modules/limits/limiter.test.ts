import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { SECOND } from '../../lib/clock.js';
import { TestClock } from '../../test/harness.js';
import {
  MemoryLimiterStore,
  RateLimiter,
  RedisLimiterStore,
  type LimiterStore,
} from './limiter.js';

// The harness is test code; reading the environment here does not configure the server.
const TEST_REDIS_URL = process.env.TEST_REDIS_URL;
const quiet = pino({ level: 'silent' });

/** 10 a second, at most 5 in a row. */
const RULE = { sendPerUser: { limit: 10, windowMs: SECOND, burst: 5 } };

const stores: { name: string; make: () => LimiterStore }[] = [
  { name: 'memory', make: () => new MemoryLimiterStore() },
  ...(TEST_REDIS_URL
    ? [
        {
          name: 'redis',
          make: () =>
            new RedisLimiterStore(
              new Redis(TEST_REDIS_URL),
              quiet,
              `teltlk:test:${Math.random()}:`,
            ),
        },
      ]
    : []),
];

const opened: RateLimiter[] = [];
afterAll(async () => {
  await Promise.all(opened.map((limiter) => limiter.close()));
});

function limiter(store: LimiterStore, clock: TestClock): RateLimiter {
  const made = new RateLimiter({ store, clock, rules: RULE });
  opened.push(made);
  return made;
}

async function allowedOf(limits: RateLimiter, key: string, tries: number): Promise<number> {
  const decisions = await Promise.all(
    Array.from({ length: tries }, () => limits.attempt('sendPerUser', key)),
  );
  return decisions.filter((decision) => decision.allowed).length;
}

describe.each(stores)('rate limiter on $name', ({ make }) => {
  it('lets a burst through, then refuses with the wait until the next token', async () => {
    const clock = new TestClock();
    const limits = limiter(make(), clock);
    expect(await allowedOf(limits, 'u1', 5)).toBe(5);
    const refused = await limits.attempt('sendPerUser', 'u1');
    expect(refused).toEqual({ allowed: false, retryAfterMs: 100 });
    await expect(limits.consume('sendPerUser', 'u1')).rejects.toMatchObject({
      code: 'RATE_LIMITED',
      params: { seconds: 1 },
    });
    // Other keys have buckets of their own.
    expect(await allowedOf(limits, 'u2', 1)).toBe(1);
  });

  it('refills evenly: one token per emission interval, never more than the burst', async () => {
    const clock = new TestClock();
    const limits = limiter(make(), clock);
    expect(await allowedOf(limits, 'u', 5)).toBe(5);
    clock.advance(100);
    expect(await allowedOf(limits, 'u', 3)).toBe(1);
    clock.advance(60 * SECOND);
    expect(await allowedOf(limits, 'u', 10)).toBe(5);
  });

  it('holds under concurrency: of 100 simultaneous takes, exactly the burst pass', async () => {
    const clock = new TestClock();
    const limits = limiter(make(), clock);
    expect(await allowedOf(limits, 'busy', 100)).toBe(5);
  });

  it('peeks without taking, and takes a cost of several tokens at once', async () => {
    const clock = new TestClock();
    const limits = limiter(make(), clock);
    for (let i = 0; i < 10; i += 1)
      expect((await limits.peek('sendPerUser', 'p')).allowed).toBe(true);
    expect((await limits.attempt('sendPerUser', 'p', 4)).allowed).toBe(true);
    expect((await limits.peek('sendPerUser', 'p', 2)).allowed).toBe(false);
    expect((await limits.attempt('sendPerUser', 'p', 2)).allowed).toBe(false);
    expect((await limits.attempt('sendPerUser', 'p', 1)).allowed).toBe(true);
  });
});

describe('rate limiter scale and bounds', () => {
  it('multiplies every limit by the scale', async () => {
    const clock = new TestClock();
    const limits = new RateLimiter({
      store: new MemoryLimiterStore(),
      clock,
      rules: RULE,
      scale: 4,
    });
    expect(await allowedOf(limits, 'u', 50)).toBe(20);
  });

  it('keeps a bounded number of buckets when flooded with distinct keys', async () => {
    const clock = new TestClock();
    const store = new MemoryLimiterStore(1_000);
    const limits = new RateLimiter({ store, clock, rules: RULE });
    for (let i = 0; i < 5_000; i += 1) await limits.attempt('sendPerUser', `k${i}`);
    expect(store.size).toBeLessThanOrEqual(1_000);
  });

  it('limits per node from memory when Redis cannot be reached, refusing nothing for it', async () => {
    const clock = new TestClock();
    // Nothing listens on port 1; ioredis gives up on each command at once.
    const redis = new Redis({
      port: 1,
      host: '127.0.0.1',
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      retryStrategy: () => null,
      lazyConnect: true,
    });
    const limits = new RateLimiter({
      store: new RedisLimiterStore(redis, quiet),
      clock,
      rules: RULE,
    });
    expect(await allowedOf(limits, 'u', 8)).toBe(5);
    await limits.close();
  });
});

describe.runIf(TEST_REDIS_URL)('rate limiter across nodes', () => {
  it('shares one bucket between two nodes on the same Redis', async () => {
    const clock = new TestClock();
    const prefix = `teltlk:test:${Math.random()}:`;
    const a = limiter(new RedisLimiterStore(new Redis(TEST_REDIS_URL!), quiet, prefix), clock);
    const b = limiter(new RedisLimiterStore(new Redis(TEST_REDIS_URL!), quiet, prefix), clock);
    const [onA, onB] = await Promise.all([allowedOf(a, 'shared', 20), allowedOf(b, 'shared', 20)]);
    expect(onA + onB).toBe(5);
  });
});
