import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { AppError } from '../../errors.js';
import { MINUTE, SECOND, type Clock } from '../../lib/clock.js';
import { LIMITS, type LimitName, type RateRule } from './rules.js';

/**
 * One rate limiter for every class of request, HTTP or socket, keyed by whatever the class
 * counts (a client address, a user, a destination, a pair). It uses GCRA, the generic cell
 * rate algorithm: a bucket of `burst` tokens refilled evenly at `limit` per `windowMs`,
 * kept as one number per key (the theoretical arrival time, TAT). Unlike fixed windows it
 * never lets a client spend twice the limit across a window edge, and unlike a log of
 * timestamps its state does not grow with traffic.
 *
 * With REDIS_URL the buckets live in Redis (one Lua script, atomic), so limits hold across
 * nodes; otherwise in this process's memory. If Redis fails, the node falls back to its own
 * memory for the moment: limits still hold per node, and nothing is refused for a broken
 * limiter.
 */

export interface LimitDecision {
  allowed: boolean;
  /** When refused: how long until a request of this cost would pass. */
  retryAfterMs: number;
}

/** The arithmetic of a bucket, the same in every store. */
interface Cell {
  /** Milliseconds one token takes to come back. */
  emissionMs: number;
  /** How far ahead of now the TAT may run: the burst, in milliseconds. */
  toleranceMs: number;
  cost: number;
  now: number;
  /** Only look: never move the TAT. */
  peek: boolean;
}

export interface LimiterStore {
  take(key: string, cell: Cell): Promise<LimitDecision>;
  close(): Promise<void>;
}

/** Buckets in this process; entries whose TAT has passed are full buckets and are dropped. */
export class MemoryLimiterStore implements LimiterStore {
  private readonly tats = new Map<string, number>();
  private lastSweep = 0;

  /** A bound on the keys kept, so a flood of distinct keys cannot grow memory without end. */
  constructor(private readonly maxKeys = 200_000) {}

  take(key: string, cell: Cell): Promise<LimitDecision> {
    const { now } = cell;
    this.sweep(now);
    const decision = gcra(this.tats.get(key), cell);
    if (decision.tat !== null) {
      // Re-inserted at the end: the map's order approximates least recently used.
      this.tats.delete(key);
      this.tats.set(key, decision.tat);
    }
    return Promise.resolve({ allowed: decision.allowed, retryAfterMs: decision.retryAfterMs });
  }

  close(): Promise<void> {
    this.tats.clear();
    return Promise.resolve();
  }

  /** How many keys are held (tests). */
  get size(): number {
    return this.tats.size;
  }

  private sweep(now: number): void {
    if (now - this.lastSweep < MINUTE && this.tats.size < this.maxKeys) return;
    this.lastSweep = now;
    for (const [key, tat] of this.tats) if (tat <= now) this.tats.delete(key);
    // Still too many live buckets: forget the least recently used tenth (they reset to full),
    // so that a flood of new keys sweeps once per tenth, not on every request.
    const keep = Math.floor(this.maxKeys * 0.9);
    for (const key of this.tats.keys()) {
      if (this.tats.size <= keep) break;
      this.tats.delete(key);
    }
  }
}

/** GCRA on one TAT; returns the TAT to store, or null to leave the bucket as it is. */
function gcra(
  stored: number | undefined,
  { emissionMs, toleranceMs, cost, now, peek }: Cell,
): LimitDecision & { tat: number | null } {
  const tat = Math.max(stored ?? now, now);
  const next = tat + emissionMs * cost;
  const allowAt = next - toleranceMs;
  if (allowAt > now) return { allowed: false, retryAfterMs: allowAt - now, tat: null };
  return { allowed: true, retryAfterMs: 0, tat: peek ? null : next };
}

/** The same arithmetic as `gcra`, atomic in Redis; the key expires when its bucket is full again. */
const GCRA_SCRIPT = `
local now = tonumber(ARGV[1])
local emission = tonumber(ARGV[2])
local tolerance = tonumber(ARGV[3])
local cost = tonumber(ARGV[4])
local peek = ARGV[5] == '1'
local tat = tonumber(redis.call('GET', KEYS[1])) or now
if tat < now then tat = now end
local nextTat = tat + emission * cost
local allowAt = nextTat - tolerance
if allowAt > now then return {0, math.ceil(allowAt - now)} end
if not peek then redis.call('SET', KEYS[1], nextTat, 'PX', math.max(1, math.ceil(nextTat - now))) end
return {1, 0}
`;

type GcraRedis = Redis & {
  teltlkGcra(
    key: string,
    now: number,
    emission: number,
    tolerance: number,
    cost: number,
    peek: string,
  ): Promise<[number, number]>;
};

export class RedisLimiterStore implements LimiterStore {
  private readonly redis: GcraRedis;
  private readonly fallback = new MemoryLimiterStore();
  private lastWarning = 0;

  constructor(
    redis: Redis,
    private readonly logger: Logger,
    private readonly prefix = 'teltlk:rl:',
  ) {
    redis.defineCommand('teltlkGcra', { numberOfKeys: 1, lua: GCRA_SCRIPT });
    this.redis = redis as GcraRedis;
  }

  async take(key: string, cell: Cell): Promise<LimitDecision> {
    try {
      const [allowed, retryAfterMs] = await this.redis.teltlkGcra(
        this.prefix + key,
        cell.now,
        cell.emissionMs,
        cell.toleranceMs,
        cell.cost,
        cell.peek ? '1' : '0',
      );
      return { allowed: allowed === 1, retryAfterMs };
    } catch (error) {
      if (cell.now - this.lastWarning > MINUTE) {
        this.lastWarning = cell.now;
        this.logger.warn({ err: error }, 'rate limiter: Redis failed, limiting per node meanwhile');
      }
      return this.fallback.take(key, cell);
    }
  }

  async close(): Promise<void> {
    await this.fallback.close();
    this.redis.disconnect();
  }
}

export interface RateLimiterOptions {
  store: LimiterStore;
  clock: Clock;
  /** Multiplies every limit (load tests raise them); 1 in normal running. */
  scale?: number;
  /** Replacements for some rules (tests). */
  rules?: Partial<Record<LimitName, RateRule>>;
}

export class RateLimiter {
  private readonly store: LimiterStore;
  private readonly clock: Clock;
  private readonly scale: number;
  private readonly rules: Record<LimitName, RateRule>;

  constructor(options: RateLimiterOptions) {
    this.store = options.store;
    this.clock = options.clock;
    this.scale = options.scale ?? 1;
    this.rules = { ...LIMITS, ...options.rules };
  }

  /** Takes `cost` tokens from the class's bucket for `key`; refused: RATE_LIMITED. */
  async consume(name: LimitName, key: string, cost = 1): Promise<void> {
    const decision = await this.take(name, key, cost, false);
    if (!decision.allowed) throw rateLimited(decision.retryAfterMs);
  }

  /** Like consume, but answers instead of throwing (socket frames that are dropped quietly). */
  attempt(name: LimitName, key: string, cost = 1): Promise<LimitDecision> {
    return this.take(name, key, cost, false);
  }

  /** Whether `cost` tokens are there, without taking them. */
  peek(name: LimitName, key: string, cost = 1): Promise<LimitDecision> {
    return this.take(name, key, cost, true);
  }

  close(): Promise<void> {
    return this.store.close();
  }

  private take(name: LimitName, key: string, cost: number, peek: boolean): Promise<LimitDecision> {
    const rule = this.rules[name];
    const limit = Math.max(1, rule.limit * this.scale);
    const burst = Math.max(1, (rule.burst ?? rule.limit) * this.scale);
    const emissionMs = rule.windowMs / limit;
    return this.store.take(`${name}:${key}`, {
      emissionMs,
      toleranceMs: emissionMs * burst,
      cost,
      now: this.clock.now(),
      peek,
    });
  }
}

export function rateLimited(retryAfterMs: number): AppError {
  return new AppError('RATE_LIMITED', { seconds: Math.max(1, Math.ceil(retryAfterMs / SECOND)) });
}
